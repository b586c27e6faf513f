/** Only the named top-level fields of a view (`fields=`); a name the view does not have stays absent. */
export function pickFields(view: Record<string, any>, fields: readonly string[]): Record<string, any> {
  const picked: Record<string, any> = {};
  for (const f of fields) if (Object.hasOwn(view, f)) picked[f] = view[f];
  return picked;
}
