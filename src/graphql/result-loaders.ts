import DataLoader from 'dataloader';
import { totalOfContentRange, MAX_PAGE } from './connection.js';
import { RestError } from './errors.js';
import { isUuid } from './global-id.js';
import type { RestQuery, RestSession } from './rest-client.js';
import type { RestCheckResult, RestCheckStatus, RestErrorGroup } from './rest-result-types.js';

/** Result-list filters as REST query parameters (`from`/`to` in UNIX seconds). */
export interface ResultQuery {
  from?: number;
  to?: number;
  location?: string;
  hasFailures?: boolean;
  resultType?: 'FINAL' | 'ATTEMPT' | 'ALL';
}

/** Key of `latestResults`: the newest `count` results of a check, with or without the wide per-type parts. */
export interface LatestResultsKey {
  checkId: string;
  count: number;
  filter: ResultQuery;
  /** REST `fields=` (what the selection reads; see restResultFields); undefined for whole results. */
  fields?: string;
}

/** Key of a check's error groups: the `first` most recently seen, archived or open ones only when `archived` is set. */
export interface CheckErrorGroupsKey {
  checkId: string;
  first: number;
  archived?: boolean;
}

/** Key of a check's analytics summary: the window and metrics (REST names), shared by every check of a batch. */
export interface AnalyticsSummaryKey {
  checkId: string;
  metrics?: string[];
  quickRange?: string;
  from?: number;
  to?: number;
}

const BATCH_RESULTS_PATH = '/v2/check-results';
const BATCH_STATUSES_PATH = '/v1/check-statuses';
const BATCH_ERROR_GROUPS_PATH = '/v1/error-groups';

/** Keys grouped by everything but the check, so each group is one REST call. */
function groupKeys<K extends { checkId: string }>(keys: readonly K[]): Map<string, K[]> {
  const groups = new Map<string, K[]>();
  for (const key of keys) {
    const { checkId: _checkId, ...rest } = key as K & Record<string, unknown>;
    const shared = JSON.stringify({ ...rest, count: undefined, first: undefined });
    const group = groups.get(shared);
    if (group) group.push(key);
    else groups.set(shared, [key]);
  }
  return groups;
}

/** Whether a failed batch call means "this backend has no such filter" (then per-check calls take over). */
function isUnsupported(err: unknown): boolean {
  return err instanceof RestError && (err.status === 400 || err.status === 404 || err.status === 405);
}

/** Entries by their check, keeping order. */
function byCheck<T extends { checkId: string }>(entries: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const e of entries) {
    const id = e.checkId.toLowerCase();
    const list = map.get(id);
    if (list) list.push(e);
    else map.set(id, [e]);
  }
  return map;
}

/**
 * The newest results of many checks with one `GET /v2/check-results?checkIds=…&perCheck=n` per
 * distinct filter. A backend without that route (404/405), or refusing it (400), or answering
 * results of checks not asked for, is remembered and served with one cursor-list call per check.
 */
async function loadLatestResults(rest: RestSession, keys: readonly LatestResultsKey[]): Promise<RestCheckResult[][]> {
  const out = new Map<LatestResultsKey, RestCheckResult[]>();
  await Promise.all([...groupKeys(keys).values()].map(async (group) => {
    const { filter, fields } = group[0]!;
    const ids = [...new Set(group.map((k) => k.checkId.toLowerCase()).filter(isUuid))];
    const perCheck = Math.max(...group.map((k) => k.count));
    const query: RestQuery = { ...filter, fields };
    let found: Map<string, RestCheckResult[]> | null = null;
    if (ids.length > 0 && !rest.idsUnsupported.has(BATCH_RESULTS_PATH)) {
      try {
        const res = await rest.get<{ entries?: RestCheckResult[] }>(BATCH_RESULTS_PATH, { ...query, checkIds: ids.join(','), perCheck });
        const asked = new Set(ids);
        const entries = res.body?.entries;
        if (Array.isArray(entries) && entries.every((e) => asked.has(String(e.checkId).toLowerCase()))) found = byCheck(entries);
        else rest.idsUnsupported.add(BATCH_RESULTS_PATH);
      } catch (err) {
        if (!isUnsupported(err)) throw err;
        rest.idsUnsupported.add(BATCH_RESULTS_PATH);
      }
    }
    if (!found) {
      found = new Map(await Promise.all(ids.map(async (id): Promise<[string, RestCheckResult[]]> => {
        try {
          const res = await rest.get<{ entries: RestCheckResult[] }>(`/v2/check-results/${id}`, { ...query, limit: perCheck });
          return [id, res.body.entries ?? []];
        } catch (err) {
          if (err instanceof RestError && err.status === 404) return [id, []];
          throw err;
        }
      })));
    }
    for (const key of group) out.set(key, (found.get(key.checkId.toLowerCase()) ?? []).slice(0, key.count));
  }));
  return keys.map((k) => out.get(k) ?? []);
}

/**
 * Statuses of many checks with one `GET /v1/check-statuses?checkIds=…`. A backend refusing the
 * filter answers the whole (unpaginated) list instead, and one ignoring it does so anyway: either
 * way one call, and the statuses asked for are picked from it.
 */
async function loadStatuses(rest: RestSession, keys: readonly string[]): Promise<(RestCheckStatus | null)[]> {
  const ids = [...new Set(keys.map((k) => k.toLowerCase()).filter(isUuid))];
  if (ids.length === 0) return keys.map(() => null);
  let list: RestCheckStatus[] | null = null;
  if (!rest.idsUnsupported.has(BATCH_STATUSES_PATH)) {
    try {
      list = (await rest.get<RestCheckStatus[]>(BATCH_STATUSES_PATH, { checkIds: ids.join(',') })).body;
    } catch (err) {
      if (!(err instanceof RestError && err.status === 400)) throw err;
      rest.idsUnsupported.add(BATCH_STATUSES_PATH);
    }
  }
  list ??= (await rest.get<RestCheckStatus[]>(BATCH_STATUSES_PATH)).body;
  const found = new Map((Array.isArray(list) ? list : []).map((s) => [s.checkId.toLowerCase(), s]));
  return keys.map((k) => found.get(k.toLowerCase()) ?? null);
}

/**
 * The most recently seen error groups of many checks with `GET /v1/error-groups?checkIds=…&perCheck=n`
 * (plus further pages when more than 100 groups match). Fallback as for results: one call per check.
 */
async function loadCheckErrorGroups(rest: RestSession, keys: readonly CheckErrorGroupsKey[]): Promise<RestErrorGroup[][]> {
  const out = new Map<CheckErrorGroupsKey, RestErrorGroup[]>();
  await Promise.all([...groupKeys(keys).values()].map(async (group) => {
    const { archived } = group[0]!;
    const ids = [...new Set(group.map((k) => k.checkId.toLowerCase()).filter(isUuid))];
    const perCheck = Math.max(...group.map((k) => k.first));
    let found: Map<string, RestErrorGroup[]> | null = null;
    if (ids.length > 0 && !rest.idsUnsupported.has(BATCH_ERROR_GROUPS_PATH)) {
      try {
        const query = { checkIds: ids.join(','), perCheck, archived, limit: MAX_PAGE };
        const first = await rest.get<RestErrorGroup[]>(BATCH_ERROR_GROUPS_PATH, { ...query, page: 1 });
        const total = totalOfContentRange(first.headers['content-range']) ?? first.body.length;
        const pages = Math.ceil(total / MAX_PAGE);
        const rest2 = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
          rest.get<RestErrorGroup[]>(BATCH_ERROR_GROUPS_PATH, { ...query, page: i + 2 }).then((r) => r.body)));
        const entries = [first.body, ...rest2].flat();
        const asked = new Set(ids);
        if (entries.every((e) => asked.has(String(e.checkId).toLowerCase()))) found = byCheck(entries);
        else rest.idsUnsupported.add(BATCH_ERROR_GROUPS_PATH);
      } catch (err) {
        if (!(err instanceof RestError && err.status === 400)) throw err;
        rest.idsUnsupported.add(BATCH_ERROR_GROUPS_PATH);
      }
    }
    if (!found) {
      found = new Map(await Promise.all(ids.map(async (id): Promise<[string, RestErrorGroup[]]> => {
        try {
          return [id, (await rest.get<RestErrorGroup[]>(`/v1/error-groups/checks/${id}`, { limit: perCheck, archived })).body];
        } catch (err) {
          if (err instanceof RestError && err.status === 404) return [id, []];
          throw err;
        }
      })));
    }
    const groups = found;
    for (const key of group) out.set(key, (groups.get(key.checkId.toLowerCase()) ?? []).slice(0, key.first));
  }));
  return keys.map((k) => out.get(k) ?? []);
}

/** Analytics summaries of many checks with one `POST /v1/analytics/checks` per distinct window and metrics. */
async function loadAnalyticsSummaries(rest: RestSession, keys: readonly AnalyticsSummaryKey[]): Promise<(Record<string, unknown> | null)[]> {
  const out = new Map<AnalyticsSummaryKey, Record<string, unknown> | null>();
  await Promise.all([...groupKeys(keys).values()].map(async (group) => {
    const { metrics, quickRange, from, to } = group[0]!;
    const ids = [...new Set(group.map((k) => k.checkId.toLowerCase()).filter(isUuid))];
    const entries = ids.length === 0
      ? []
      : (await rest.send<Record<string, unknown>[]>('POST', '/v1/analytics/checks', { checkIds: ids, metrics, quickRange, from, to })).body;
    const found = new Map(entries.map((e) => [String(e.checkId).toLowerCase(), e]));
    for (const key of group) out.set(key, found.get(key.checkId.toLowerCase()) ?? null);
  }));
  return keys.map((k) => out.get(k) ?? null);
}

/** One result by `checkId:resultId` (no batch route exists for single results: concurrent GETs, each key once). */
async function loadResults(rest: RestSession, keys: readonly string[]): Promise<(RestCheckResult | null | Error)[]> {
  return Promise.all(keys.map(async (key) => {
    const [checkId, resultId] = key.split(':');
    if (!checkId || !resultId || !isUuid(checkId) || !isUuid(resultId)) return null;
    try {
      return (await rest.get<RestCheckResult>(`/v1/check-results/${checkId}/${resultId}`)).body;
    } catch (err) {
      if (err instanceof RestError && err.status === 404) return null;
      return err as Error;
    }
  }));
}

const keyOf = (key: unknown) => JSON.stringify(key);

/** The run-data loaders of one operation (see Loaders). */
export function createResultLoaders(rest: RestSession) {
  return {
    latestResults: new DataLoader<LatestResultsKey, RestCheckResult[], string>((keys) => loadLatestResults(rest, keys), { maxBatchSize: 100, cacheKeyFn: keyOf }),
    statusByCheckId: new DataLoader<string, RestCheckStatus | null>((keys) => loadStatuses(rest, keys), { maxBatchSize: 100 }),
    checkErrorGroups: new DataLoader<CheckErrorGroupsKey, RestErrorGroup[], string>((keys) => loadCheckErrorGroups(rest, keys), { maxBatchSize: 100, cacheKeyFn: keyOf }),
    analyticsSummary: new DataLoader<AnalyticsSummaryKey, Record<string, unknown> | null, string>(
      (keys) => loadAnalyticsSummaries(rest, keys), { maxBatchSize: 100, cacheKeyFn: keyOf },
    ),
    resultByKey: new DataLoader<string, RestCheckResult | null>((keys) => loadResults(rest, keys)),
  };
}
