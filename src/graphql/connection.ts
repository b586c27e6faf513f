import { codedError } from './errors.js';

/** A Relay connection as resolvers return it. */
export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number | null;
}

/** One offset page of a REST list and its total (from Content-Range). */
export interface OffsetPage<T> {
  items: T[];
  total: number | null;
}

/** Largest page the REST API serves. */
export const MAX_PAGE = 100;

/** Cursor of the item at zero-based `index`: opaque, base64url of `offset:<index>`. */
export function encodeCursor(index: number): string {
  return Buffer.from(`offset:${index}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || encodeCursor(Number(match[1])) !== cursor) throw codedError('BAD_USER_INPUT', `Invalid cursor "${cursor}"`, { argumentName: 'after' });
  return Number(match[1]);
}

/** The total of `Content-Range: <first>-<last>/<total>` (or `*\/<total>`); null when absent. */
export function totalOfContentRange(header: string | string[] | undefined): number | null {
  const match = /\/(\d+)\s*$/.exec(String(Array.isArray(header) ? header[0] : header ?? ''));
  return match ? Number(match[1]) : null;
}

/**
 * REST pages (`page`, `limit`) covering items `offset .. offset+first-1`: one page when some limit
 * ≤ 100 puts the whole window in one page (always so when paging forward with a constant `first`),
 * else two pages of `first` items. `skip` is how many leading items of the first page to drop.
 */
export function offsetWindows(offset: number, first: number): { pages: { page: number; limit: number }[]; skip: number } {
  for (let limit = first; limit <= MAX_PAGE; limit++) {
    if (Math.floor(offset / limit) === Math.floor((offset + first - 1) / limit)) {
      const page = Math.floor(offset / limit) + 1;
      return { pages: [{ page, limit }], skip: offset - (page - 1) * limit };
    }
  }
  const page = Math.floor(offset / first) + 1;
  return { pages: [{ page, limit: first }, { page: page + 1, limit: first }], skip: offset - (page - 1) * first };
}

/** A Relay connection over an offset-paginated REST list. `first` is 1..100. */
export async function offsetConnection<T>(
  first: number | null | undefined,
  after: string | null | undefined,
  fetchPage: (page: number, limit: number) => Promise<OffsetPage<T>>,
): Promise<Connection<T>> {
  const size = first ?? 10;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) {
    throw codedError('BAD_USER_INPUT', `"first" must be between 1 and ${MAX_PAGE}`, { argumentName: 'first' });
  }
  const offset = after ? decodeCursor(after) + 1 : 0;
  const { pages, skip } = offsetWindows(offset, size);
  const fetched = await Promise.all(pages.map((p) => fetchPage(p.page, p.limit)));
  const items = fetched.flatMap((p) => p.items).slice(skip, skip + size);
  const total = fetched[0]?.total ?? null;
  const edges = items.map((node, i) => ({ cursor: encodeCursor(offset + i), node }));
  return {
    edges,
    nodes: items,
    pageInfo: {
      hasNextPage: total !== null ? offset + items.length < total : items.length === size,
      hasPreviousPage: offset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: total,
  };
}
