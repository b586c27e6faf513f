/** Where a newest-first page of results stopped: the last entry's start time and id. */
export interface ResultCursor {
  startedAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque `nextId` of `/v2/check-results`: base64url of `<epoch ms>.<result id>`. */
export function encodeResultCursor(cursor: ResultCursor): string {
  return Buffer.from(`${cursor.startedAt.getTime()}.${cursor.id}`, 'utf8').toString('base64url');
}

/** Reads a `nextId`; undefined when it is not one this service handed out. */
export function decodeResultCursor(text: string): ResultCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const match = /^(\d{1,15})\.(.+)$/.exec(decoded);
  if (!match || !UUID.test(match[2]!)) return undefined;
  const startedAt = new Date(Number(match[1]));
  if (Number.isNaN(startedAt.getTime())) return undefined;
  return { startedAt, id: match[2]!.toLowerCase() };
}
