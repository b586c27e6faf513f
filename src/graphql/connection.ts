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

/** One page of a cursor-paginated REST list (`nextId` style): its items and the cursor of the page after it. */
export interface CursorPage<T> {
  items: T[];
  next: string | null;
}

/**
 * Cursor of the edge at `index` of the REST page that starts at REST cursor `start` (null: the
 * first page): opaque, base64url of JSON `[start, index]`. Resuming after it asks REST for the page
 * at `start` again and skips `index + 1` items; the last edge of a REST page that has a next page
 * is written as `[next, -1]` instead, so paging forward costs one REST call per page.
 */
function encodeListCursor(start: string | null, index: number): string {
  return Buffer.from(JSON.stringify([start, index]), 'utf8').toString('base64url');
}

function decodeListCursor(cursor: string): { start: string | null; index: number } {
  let parsed: [unknown, unknown] | null = null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2) parsed = [value[0], value[1]];
  } catch {
    parsed = null;
  }
  const [start, index] = parsed ?? [undefined, undefined];
  const ok = (start === null || (typeof start === 'string' && start.length <= 512))
    && typeof index === 'number' && Number.isInteger(index) && index >= -1 && index < MAX_PAGE;
  if (!ok || encodeListCursor(start, index) !== cursor) {
    throw codedError('BAD_USER_INPUT', `Invalid cursor "${cursor}"`, { argumentName: 'after' });
  }
  return { start, index };
}

/**
 * A Relay connection over a cursor-paginated REST list (`limit` ≤ 100 and an opaque next-page
 * cursor, such as `/v2/check-results`' `nextId`). `first` is 1..100. The REST cursors stay opaque:
 * edge cursors only remember which REST page an edge came from and where in it, so any backend's
 * cursor format works. totalCount is null (such lists do not count).
 */
export async function cursorConnection<T>(
  first: number | null | undefined,
  after: string | null | undefined,
  fetchPage: (cursor: string | null, limit: number) => Promise<CursorPage<T>>,
): Promise<Connection<T>> {
  const size = first ?? 10;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) {
    throw codedError('BAD_USER_INPUT', `"first" must be between 1 and ${MAX_PAGE}`, { argumentName: 'first' });
  }
  const { start, index } = after ? decodeListCursor(after) : { start: null, index: -1 };
  const edges: { cursor: string; node: T }[] = [];
  let pageStart = start;
  let skip = index + 1;
  let more = false;
  // Two REST pages at most with this service (skip + size ≤ 200); a third guards against a backend
  // answering short pages.
  for (let round = 0; ; round++) {
    const page = await fetchPage(pageStart, Math.min(MAX_PAGE, skip + size - edges.length));
    const taken = page.items.slice(skip, skip + size - edges.length);
    taken.forEach((node, i) => edges.push({ cursor: encodeListCursor(pageStart, skip + i), node }));
    const endsPage = skip + taken.length >= page.items.length;
    if (edges.length === size || !page.next || round === 2) {
      more = !endsPage || page.next !== null;
      const last = edges.at(-1);
      // The last edge ends its REST page: the next Relay page starts at the next REST page.
      if (last && taken.length > 0 && endsPage && page.next) last.cursor = encodeListCursor(page.next, -1);
      break;
    }
    pageStart = page.next;
    skip = 0;
  }
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: more,
      hasPreviousPage: start !== null || index >= 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: null,
  };
}
