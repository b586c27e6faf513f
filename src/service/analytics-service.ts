import {
  DEFAULT_SUMMARY_METRICS, metricAppliesTo, metricMetadata, metricsFor, parseMetric, type MetricSpec,
} from '../domain/analytics-metrics.js';
import { CHECK_TYPES, type CheckType } from '../domain/catalog.js';
import { notFound, validationError, type Issue } from '../domain/lookout-error.js';
import { requestedWindow, type WindowQuery } from '../domain/quick-range.js';
import type { RetentionSettings } from '../domain/retention-policy.js';
import type { AnalyticsCell, AnalyticsQuery } from '../store/analytics-repository.js';
import type { CheckRow } from '../store/checks-repository.js';
import type { Store } from '../store/create-store.js';
import { createAnalyticsAcrossRetention } from './analytics-across-retention.js';

/** Query of `GET /v1/analytics/{type}/{id}`. */
export interface ReportQuery extends WindowQuery {
  metrics: string[];
  /** Minutes per bucket; absent: one bucket for the whole window. */
  aggregationInterval?: number;
  filterByStatus?: ('success' | 'failure')[];
  groupBy?: 'runLocation' | 'statusCode';
  page: number;
  limit: number;
}

/** Body of `POST /v1/analytics/checks`. */
export interface SummaryQuery extends WindowQuery {
  checkIds: string[];
  metrics?: string[];
}

/** Checks whose results carry an HTTP status code to group on. */
const HTTP_TYPES: readonly string[] = ['API', 'URL'];

function invalid(issues: Issue[], source: 'query' | 'payload' = 'query'): never {
  throw validationError(issues, source);
}

function statusFilter(filter: ('success' | 'failure')[] | undefined): 'success' | 'failure' | null {
  const set = new Set(filter ?? []);
  return set.size === 1 ? [...set][0]! : null;
}

/** Parses metric names, dropping repeats; a name that is not a metric of the spec is a VALIDATION error. */
function parseMetrics(names: readonly string[], source: 'query' | 'payload'): MetricSpec[] {
  const issues: Issue[] = [];
  names.forEach((name, i) => {
    if (!parseMetric(name)) issues.push({ key: `metrics.${i}`, message: `"${name}" is not a metric` });
  });
  if (issues.length) invalid(issues, source);
  return [...new Set(names)].map((name) => parseMetric(name)!);
}

/**
 * Analytics reports over stored results; every number is computed by the database. With
 * `retention`, windows reaching past the raw results are answered from roll-ups.
 */
export function createAnalyticsService({ store, retention, now = () => new Date() }: { store: Store; retention?: RetentionSettings; now?: () => Date }) {
  const source = createAnalyticsAcrossRetention({ store, settings: retention });
  return {
    /**
     * The analytics report of one check. `type` is the type the route is for: a check of another
     * type is not found there. Metrics must apply to the type; groupBy statusCode needs an HTTP check.
     */
    async report(accountId: string, type: CheckType, checkId: string, q: ReportQuery) {
      const check = await store.checks.get(accountId, checkId);
      if (!check || check.check_type !== type) throw notFound(`${type} check`, checkId);
      const metrics = parseMetrics(q.metrics, 'query');
      const issues: Issue[] = [];
      q.metrics.forEach((name, i) => {
        if (!metricAppliesTo(parseMetric(name)!, type)) issues.push({ key: `metrics.${i}`, message: `"${name}" is not available for ${type} checks` });
      });
      if (q.groupBy === 'statusCode' && !HTTP_TYPES.includes(type)) issues.push({ key: 'groupBy', message: `statusCode applies to API and URL checks only` });
      if (issues.length) invalid(issues);
      const at = now();
      const window = requestedWindow(q, at, 'query');
      const bucketSeconds = q.aggregationInterval ? q.aggregationInterval * 60 : null;
      const query: AnalyticsQuery = {
        checkIds: [checkId], ...window, metrics, bucketSeconds, groupBy: q.groupBy ?? null,
        status: statusFilter(q.filterByStatus), groups: { offset: (q.page - 1) * q.limit, limit: q.limit },
      };
      const cells = await source.aggregate(accountId, query, at, { source: 'query', names: q.metrics });
      const entry = (values: (number | null)[], from: Date, to: Date) => {
        const e: Record<string, unknown> = { from: from.toISOString(), to: to.toISOString() };
        metrics.forEach((m, i) => (e[m.name] = values[i] ?? null));
        return e;
      };
      const dataOf = (group: AnalyticsCell[]) => (bucketSeconds === null
        ? [entry(group[0]?.values ?? metrics.map((m) => (m.kind === 'retries' ? 0 : null)), window.from, window.to)]
        : group.map((c) => entry(c.values, new Date(c.bucketStart! * 1000), new Date((c.bucketStart! + bucketSeconds) * 1000))));
      let series: Record<string, unknown>[];
      if (!q.groupBy) {
        series = q.page === 1 ? [{ data: dataOf(cells) }] : [];
      } else {
        const groups = new Map<string | number | null, AnalyticsCell[]>();
        for (const c of cells) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
        series = [...groups].map(([key, group]) => ({ [q.groupBy!]: key, data: dataOf(group) }));
      }
      return {
        ...checkFields(check),
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        series,
        pagination: { page: q.page, limit: q.limit },
        metadata: Object.fromEntries(metrics.map((m) => [m.name, metricMetadata(m)])),
      };
    },

    /**
     * `POST /v1/analytics/checks`: one flat entry per known check, in the order asked (ids of
     * unknown checks, or of another account's, are left out). A metric that does not apply to a
     * check's type is absent from its entry; null means no data in the window.
     */
    async summary(accountId: string, q: SummaryQuery) {
      const at = now();
      const window = requestedWindow(q, at, 'payload');
      const metrics = parseMetrics(q.metrics ?? DEFAULT_SUMMARY_METRICS, 'payload');
      const ids = [...new Set(q.checkIds)];
      const { rows } = await store.checks.list(accountId, { ids }, 1, ids.length);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const cells = rows.length
        ? await source.aggregate(accountId, { checkIds: rows.map((r) => r.id), ...window, metrics, bucketSeconds: null, groupBy: null, status: null }, at, {
          source: 'payload', names: q.metrics ?? DEFAULT_SUMMARY_METRICS,
        })
        : [];
      const cellOf = new Map(cells.map((c) => [c.checkId, c]));
      return ids.flatMap((id) => {
        const check = byId.get(id);
        if (!check) return [];
        const type = check.check_type as CheckType;
        const entry: Record<string, unknown> = {
          checkId: id, name: check.name, checkType: type, from: window.from.toISOString(), to: window.to.toISOString(),
        };
        metrics.forEach((m, i) => {
          if (metricAppliesTo(m, type)) entry[m.name] = cellOf.get(id)?.values[i] ?? (m.kind === 'retries' ? 0 : null);
        });
        return [entry];
      });
    },

    /** `GET /v1/analytics/metrics`: the metrics of each check type (or of one) with label and unit. */
    metricsCatalog(checkType?: CheckType) {
      return (checkType ? [checkType] : [...CHECK_TYPES]).map((type) => ({
        checkType: type,
        metrics: metricsFor(type).map((name) => ({ name, ...metricMetadata(parseMetric(name)!) })),
      }));
    },
  };
}
export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

/** The check attributes an analytics report starts with. */
function checkFields(check: CheckRow) {
  return {
    checkId: check.id,
    name: check.name,
    checkType: check.check_type,
    activated: check.activated,
    muted: check.data.muted ?? false,
    frequency: check.data.frequency ?? null,
    tags: check.tags,
  };
}
