const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID (check, private location and status page ids): anything else is no id, never a query. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
