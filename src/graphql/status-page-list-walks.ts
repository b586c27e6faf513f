import { totalOfContentRange } from './connection.js';
import type { RestQuery, RestSession } from './rest-client.js';

/**
 * Every entry of a REST cursor list (`{entries, nextId}`, such as `/v1/status-pages`), page after page
 * of `limit` entries: what relations without a REST filter read once per operation and share.
 */
export async function walkCursorList<T>(rest: RestSession, path: string, limit = 100): Promise<T[]> {
  const all: T[] = [];
  let nextId: string | null = null;
  do {
    const page: { entries: T[]; nextId: string | null } = (await rest.get<{ entries: T[]; nextId: string | null }>(path, { limit, nextId: nextId ?? undefined })).body;
    all.push(...page.entries);
    nextId = page.nextId;
  } while (nextId);
  return all;
}

/**
 * Every item of a REST offset list (a bare array per `page`, the total in `Content-Range`, such as
 * `/v1/checks` or `/v1/maintenance-windows`), page after page of `limit` items, with `query` on each.
 */
export async function walkOffsetList<T>(rest: RestSession, path: string, limit: number, query: RestQuery = {}): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const res = await rest.get<T[]>(path, { ...query, page, limit });
    all.push(...res.body);
    const total = totalOfContentRange(res.headers['content-range']);
    // A short page is the last whatever the header says (a backend may leave it out).
    if (res.body.length < limit || (total !== null && all.length >= total)) return all;
  }
}
