import type { Aggregation, MetricSpec, TimingMetric } from '../domain/analytics-metrics.js';
import type { Queryable } from './db.js';

/** What to aggregate: results of `checkIds` that started in [from, to). */
export interface AnalyticsQuery {
  checkIds: string[];
  from: Date;
  to: Date;
  metrics: MetricSpec[];
  /** Width of the time buckets (aligned to the UNIX epoch); null: one bucket for the whole window. */
  bucketSeconds: number | null;
  groupBy: 'runLocation' | 'statusCode' | null;
  /** success: runs without failures; failure: runs with; null: both. */
  status: 'success' | 'failure' | null;
  /** A page of the groups of each check (by group key order); all groups when absent. */
  groups?: { offset: number; limit: number };
}

/** One aggregated cell: a check, a group (null without groupBy) and a bucket (null without buckets). */
export interface AnalyticsCell {
  checkId: string;
  group: string | number | null;
  /** Start of the bucket in UNIX seconds. */
  bucketStart: number | null;
  /** Values in the order of `metrics`; null where the cell had nothing to aggregate. */
  values: (number | null)[];
}

const COLUMNS: Record<TimingMetric, string> = {
  responseTime: 'response_time', wait: 'wait', dns: 'dns', tcp: 'tcp', firstByte: 'first_byte', download: 'download',
};

const PERCENTILES: Partial<Record<Aggregation, number>> = { median: 0.5, p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 };

const FINAL = `result_type = 'FINAL'`;

/**
 * The SQL of one metric over a cell. Timings and availability look at FINAL results only (a
 * retried run counts once); availability is the share of them without failures (degraded runs
 * pass); retries count the ATTEMPT results. Values are rounded to two decimals.
 */
function metricSql(m: MetricSpec): string {
  if (m.kind === 'retries') return `count(*) FILTER (WHERE result_type = 'ATTEMPT')`;
  if (m.kind === 'availability') {
    return `round(100.0 * count(*) FILTER (WHERE ${FINAL} AND NOT has_failures) / NULLIF(count(*) FILTER (WHERE ${FINAL}), 0), 2)`;
  }
  const col = COLUMNS[m.timing];
  const fraction = PERCENTILES[m.aggregation];
  const agg = fraction !== undefined
    ? `percentile_cont(${fraction}) WITHIN GROUP (ORDER BY ${col})`
    : m.aggregation === 'stddev' ? `stddev_samp(${col})` : `${m.aggregation}(${col})`;
  return `round((${agg} FILTER (WHERE ${FINAL}))::numeric, 2)`;
}

const GROUP_SQL = { runLocation: 'run_location', statusCode: 'status_code' } as const;

/** Aggregates of run results, computed in SQL, scoped to one account in every statement. */
export function createAnalyticsRepository(db: Queryable) {
  return {
    /** The cells of `q`, ordered by check, group (nulls last) and bucket. Empty cells are absent. */
    async aggregate(accountId: string, q: AnalyticsQuery): Promise<AnalyticsCell[]> {
      const params: unknown[] = [accountId, q.checkIds, q.from, q.to];
      const where = ['account_id = $1', 'check_id = ANY($2::uuid[])', 'started_at >= $3', 'started_at < $4', 'test_session_id IS NULL'];
      if (q.status) where.push(q.status === 'success' ? 'NOT has_failures' : 'has_failures');
      let bucket = 'NULL::bigint';
      if (q.bucketSeconds) {
        params.push(q.bucketSeconds);
        bucket = `floor(extract(epoch FROM started_at) / $${params.length})::bigint * $${params.length}`;
      }
      const group = q.groupBy ? GROUP_SQL[q.groupBy] : 'NULL::text';
      let pageJoin = '';
      let pageCte = '';
      if (q.groups) {
        params.push(q.groups.limit, q.groups.offset);
        pageCte = `, page AS (
            SELECT check_id, grp FROM (SELECT DISTINCT check_id, grp FROM r) g
            ORDER BY check_id, grp NULLS LAST LIMIT $${params.length - 1} OFFSET $${params.length})`;
        pageJoin = 'JOIN page ON page.check_id = r.check_id AND page.grp IS NOT DISTINCT FROM r.grp';
      }
      const values = q.metrics.map((m, i) => `${metricSql(m)} AS m${i}`);
      const rows = await db.query<Record<string, any>>(
        `WITH r AS (
           SELECT check_id, ${group} AS grp, ${bucket} AS bucket, result_type, has_failures,
                  response_time, wait, dns, tcp, first_byte, download
           FROM check_results WHERE ${where.join(' AND ')}
         )${pageCte}
         SELECT r.check_id, r.grp, r.bucket${values.length ? ', ' + values.join(', ') : ''}
         FROM r ${pageJoin}
         GROUP BY r.check_id, r.grp, r.bucket
         ORDER BY r.check_id, r.grp NULLS LAST, r.bucket`,
        params,
      );
      return rows.map((row) => ({
        checkId: row.check_id,
        group: row.grp ?? null,
        bucketStart: row.bucket == null ? null : Number(row.bucket),
        values: q.metrics.map((_m, i) => (row[`m${i}`] == null ? null : Number(row[`m${i}`]))),
      }));
    },
  };
}
export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
