import { LookoutError, notFound } from '../domain/lookout-error.js';
import { decodeResultCursor, encodeResultCursor } from '../domain/result-cursor.js';
import type { Store } from '../store/create-store.js';
import type { ResultFilter } from '../store/results-repository.js';
import { idleOfPlacement, toCheckStatusView, toIdleStatusView } from '../contract/check-status-view.js';
import { pickFields } from './pick-fields.js';
import { DETAIL_RESULT_FIELDS, toResultView } from '../contract/result-view.js';

/** Filters of the result lists, as the routes take them. `from`/`to` are UNIX seconds. */
export interface ResultListQuery {
  from?: number;
  to?: number;
  location?: string;
  checkType?: string;
  hasFailures?: boolean;
  resultType?: 'FINAL' | 'ATTEMPT' | 'ALL';
}

/** Window of the older offset list when the caller gives no bounds. */
const V1_DEFAULT_WINDOW_MS = 6 * 3_600_000;

function toFilter(q: ResultListQuery, defaultWindow: boolean, now: Date): ResultFilter {
  if (q.from !== undefined && q.to !== undefined && q.from >= q.to) {
    throw new LookoutError('VALIDATION', '"from" must be before "to"', { issues: [{ key: 'from', message: 'must be before to' }], source: 'query' });
  }
  const to = q.to !== undefined ? new Date(q.to * 1000) : undefined;
  let from = q.from !== undefined ? new Date(q.from * 1000) : undefined;
  if (defaultWindow && from === undefined) from = new Date((to ?? now).getTime() - V1_DEFAULT_WINDOW_MS);
  return { from, to, location: q.location, checkType: q.checkType, hasFailures: q.hasFailures, resultType: q.resultType ?? 'FINAL' };
}

/** Reads run results and check statuses. */
export function createResultService({ store }: { store: Store }) {
  async function requireCheck(accountId: string, checkId: string): Promise<void> {
    if (!(await store.checks.get(accountId, checkId))) throw notFound('Check', checkId);
  }

  return {
    /**
     * `GET /v2/check-results/{checkId}`: newest first, `limit` per page, `nextId` the cursor of
     * the next page (null on the last). `fields` keeps only the named fields of each entry.
     */
    async listCursor(accountId: string, checkId: string, q: ResultListQuery & { limit: number; nextId?: string; fields?: string[] }) {
      const cursor = q.nextId === undefined ? null : decodeResultCursor(q.nextId);
      if (cursor === undefined) {
        throw new LookoutError('VALIDATION', '"nextId" is not a cursor from a previous page', { issues: [{ key: 'nextId', message: 'is not a valid cursor' }], source: 'query' });
      }
      const filter = toFilter(q, false, new Date());
      await requireCheck(accountId, checkId);
      // `fields=` with nothing in it asks for no projection rather than for empty entries.
      const fields = q.fields?.length ? q.fields : undefined;
      const withDetail = !fields || fields.some((f) => DETAIL_RESULT_FIELDS.includes(f));
      const rows = await store.results.listAfter(accountId, checkId, filter, cursor, q.limit + 1, withDetail);
      const page = rows.slice(0, q.limit);
      const last = page.at(-1);
      const nextId = rows.length > q.limit && last ? encodeResultCursor({ startedAt: last.started_at, id: last.id }) : null;
      const entries = page.map((r) => (fields ? pickFields(toResultView(r), fields) : toResultView(r)));
      return { length: entries.length, entries, nextId };
    },

    /**
     * `GET /v2/check-results?checkIds=…&perCheck=n`: the `perCheck` newest results of each check, in
     * one list ordered by the checks as given, newest first within a check. Unknown checks (or
     * another account's) simply have no entries, as in a batch read. `fields` as in listCursor.
     */
    async listLatest(accountId: string, q: ResultListQuery & { checkIds: string[]; perCheck: number; fields?: string[] }) {
      const filter = toFilter(q, false, new Date());
      const fields = q.fields?.length ? q.fields : undefined;
      const withDetail = !fields || fields.some((f) => DETAIL_RESULT_FIELDS.includes(f));
      const checkIds = [...new Set(q.checkIds.map((id) => id.toLowerCase()))];
      const rows = await store.results.listLatestOfChecks(accountId, checkIds, filter, q.perCheck, withDetail);
      const entries = rows.map((r) => (fields ? pickFields(toResultView(r), fields) : toResultView(r)));
      return { length: entries.length, entries };
    },

    /** `GET /v1/check-results/{checkId}`: a page of results, newest first; the last 6 hours unless `from` is given. */
    async listPage(accountId: string, checkId: string, q: ResultListQuery, page: number, limit: number) {
      const filter = toFilter(q, true, new Date());
      await requireCheck(accountId, checkId);
      const { rows, total } = await store.results.listPage(accountId, checkId, filter, page, limit);
      return { items: rows.map(toResultView), total };
    },

    async get(accountId: string, checkId: string, id: string) {
      const row = await store.results.get(accountId, checkId, id);
      if (!row) throw notFound('Check result', id);
      return toResultView(row);
    },

    /**
     * Every check status of the account, or of the checks named, in check creation order, each
     * with `idle`. Checks that never ran have none, unless they are idle: then their status says why.
     */
    async listStatuses(accountId: string, checkIds?: readonly string[]) {
      const rows = await store.checkStatuses.list(accountId, checkIds);
      const placements = await store.checkStatuses.placements(accountId, checkIds);
      const byId = new Map(rows.map((r) => [r.check_id, r]));
      return placements.flatMap((p) => {
        const idle = idleOfPlacement(p);
        const row = byId.get(p.check_id);
        if (row) return [toCheckStatusView(row, idle)];
        return idle ? [toIdleStatusView(p, idle)] : [];
      });
    },

    /** The status of a check, with `idle`; 404 until it has a FINAL result, unless it is idle. */
    async getStatus(accountId: string, checkId: string) {
      const [placement] = await store.checkStatuses.placements(accountId, [checkId]);
      const idle = placement ? idleOfPlacement(placement) : null;
      const row = placement && (await store.checkStatuses.get(accountId, checkId));
      if (row) return toCheckStatusView(row, idle);
      if (placement && idle) return toIdleStatusView(placement, idle);
      throw notFound('Check status of check', checkId);
    },
  };
}
export type ResultService = ReturnType<typeof createResultService>;
