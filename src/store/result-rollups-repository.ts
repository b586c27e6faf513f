import type { AnalyticsSource } from '../domain/retention-analytics-plan.js';
import type { RollupWatermarks } from '../domain/retention-policy.js';
import { RESPONSE_TIME_BOUNDS } from '../domain/response-time-histogram.js';
import type { ResultRollup } from '../domain/result-rollup.js';
import type { Queryable } from './db.js';

const FINAL = `result_type = 'FINAL'`;
const BOUNDS_SQL = `'{${RESPONSE_TIME_BOUNDS.join(',')}}'::double precision[]`;

/** The roll-up columns aggregated from raw results (`b`: the 1-based histogram bucket of the row). */
const FROM_RAW = `
  count(*) FILTER (WHERE ${FINAL})::int AS final_count,
  count(*) FILTER (WHERE ${FINAL} AND has_failures)::int AS failure_count,
  count(*) FILTER (WHERE ${FINAL} AND is_degraded)::int AS degraded_count,
  count(*) FILTER (WHERE result_type = 'ATTEMPT')::int AS attempt_count,
  coalesce(sum(response_time) FILTER (WHERE ${FINAL}), 0)::double precision AS response_time_sum,
  coalesce(sum(response_time * response_time) FILTER (WHERE ${FINAL}), 0)::double precision AS response_time_sum_sq,
  min(response_time) FILTER (WHERE ${FINAL}) AS response_time_min,
  max(response_time) FILTER (WHERE ${FINAL}) AS response_time_max,
  ARRAY[${RESPONSE_TIME_BOUNDS.map((_b, i) => `count(*) FILTER (WHERE ${FINAL} AND b = ${i + 1})`).join(', ')}]::integer[] AS response_time_histogram`;

/** Raw results with their histogram bucket. */
const RAW_ROWS = `SELECT *, greatest(width_bucket(response_time, ${BOUNDS_SQL}), 1) AS b FROM check_results`;

/** The same columns aggregated from finer roll-up rows. */
const FROM_ROLLUPS = `
  sum(final_count)::int AS final_count,
  sum(failure_count)::int AS failure_count,
  sum(degraded_count)::int AS degraded_count,
  sum(attempt_count)::int AS attempt_count,
  sum(response_time_sum)::double precision AS response_time_sum,
  sum(response_time_sum_sq)::double precision AS response_time_sum_sq,
  min(response_time_min) AS response_time_min,
  max(response_time_max) AS response_time_max,
  ARRAY[${RESPONSE_TIME_BOUNDS.map((_b, i) => `sum(response_time_histogram[${i + 1}])`).join(', ')}]::integer[] AS response_time_histogram`;

const COLUMNS = `final_count, failure_count, degraded_count, attempt_count, response_time_sum, response_time_sum_sq,
  response_time_min, response_time_max, response_time_histogram`;
const UPDATE_ALL = COLUMNS.split(',').map((c) => `${c.trim()} = EXCLUDED.${c.trim()}`).join(', ');

const TABLES = { hourly: 'result_rollups_hourly', daily: 'result_rollups_daily' } as const;

/** One roll-up cell an analytics query reads: a check, a location (null without grouping) and a bucket (UNIX seconds; null: the whole window). */
export interface RollupCell {
  checkId: string;
  group: string | null;
  bucketStart: number | null;
  rollup: ResultRollup;
}

/** What analytics reads of one source: the checks' runs in [from, to), by bucket and maybe by location. */
export interface RollupCellQuery {
  checkIds: string[];
  from: Date;
  to: Date;
  bucketSeconds: number | null;
  byLocation: boolean;
}

function rollupOf(row: Record<string, any>): ResultRollup {
  return {
    finalCount: Number(row.final_count),
    failureCount: Number(row.failure_count),
    degradedCount: Number(row.degraded_count),
    attemptCount: Number(row.attempt_count),
    responseTimeSum: Number(row.response_time_sum),
    responseTimeSumSq: Number(row.response_time_sum_sq),
    responseTimeMin: row.response_time_min == null ? null : Number(row.response_time_min),
    responseTimeMax: row.response_time_max == null ? null : Number(row.response_time_max),
    responseTimeHistogram: (row.response_time_histogram as (number | string)[]).map(Number),
  };
}

/**
 * Hourly and daily roll-ups of results and their watermarks. Roll-ups span accounts (a job for
 * the whole store); the analytics reads are scoped to one account.
 */
export function createResultRollupsRepository(db: Queryable) {
  return {
    async watermarks(): Promise<RollupWatermarks> {
      const rows = await db.query<{ name: 'hourly' | 'daily'; rolled_until: Date }>('SELECT name, rolled_until FROM rollup_watermarks');
      const of = (name: string) => rows.find((r) => r.name === name)?.rolled_until ?? null;
      return { hourly: of('hourly'), daily: of('daily') };
    },

    /** Moves a watermark forward (never back: two jobs racing leave the later one). */
    async advanceWatermark(name: 'hourly' | 'daily', until: Date): Promise<void> {
      await db.query(
        `INSERT INTO rollup_watermarks (name, rolled_until) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET rolled_until = greatest(rollup_watermarks.rolled_until, EXCLUDED.rolled_until)`,
        [name, until],
      );
    },

    /** Start of the oldest monitoring result (where the first hourly roll-up starts), or null. */
    async oldestResult(): Promise<Date | null> {
      const [row] = await db.query<{ at: Date | null }>('SELECT min(started_at) AS at FROM check_results WHERE test_session_id IS NULL');
      return row?.at ?? null;
    },

    /** Start of the oldest hourly roll-up (where the first daily roll-up starts), or null. */
    async oldestHourly(): Promise<Date | null> {
      const [row] = await db.query<{ at: Date | null }>('SELECT min(bucket_start) AS at FROM result_rollups_hourly');
      return row?.at ?? null;
    },

    /** Computes the hourly roll-ups of [from, to) (whole hours) from raw results, replacing what was there; returns the rows written. */
    async rollUpHours(from: Date, to: Date): Promise<number> {
      const rows = await db.query(
        `INSERT INTO result_rollups_hourly (account_id, check_id, run_location, bucket_start, ${COLUMNS})
         SELECT account_id, check_id, run_location, to_timestamp(floor(extract(epoch FROM started_at) / 3600) * 3600) AS hour, ${FROM_RAW}
         FROM (${RAW_ROWS} WHERE started_at >= $1 AND started_at < $2 AND test_session_id IS NULL) r
         GROUP BY account_id, check_id, run_location, hour
         ON CONFLICT (check_id, run_location, bucket_start) DO UPDATE SET ${UPDATE_ALL}
         RETURNING 1`,
        [from, to],
      );
      return rows.length;
    },

    /** Computes the daily roll-ups of [from, to) (whole UTC days) from the hourly ones, replacing what was there. */
    async rollUpDays(from: Date, to: Date): Promise<number> {
      const rows = await db.query(
        `INSERT INTO result_rollups_daily (account_id, check_id, run_location, bucket_start, ${COLUMNS})
         SELECT account_id, check_id, run_location, to_timestamp(floor(extract(epoch FROM bucket_start) / 86400) * 86400) AS day, ${FROM_ROLLUPS}
         FROM result_rollups_hourly WHERE bucket_start >= $1 AND bucket_start < $2
         GROUP BY account_id, check_id, run_location, day
         ON CONFLICT (check_id, run_location, bucket_start) DO UPDATE SET ${UPDATE_ALL}
         RETURNING 1`,
        [from, to],
      );
      return rows.length;
    },

    /** Deletes up to `batchSize` of the oldest roll-up rows of `table` before `before`; returns how many. */
    async deleteOlderThan(table: 'hourly' | 'daily', before: Date, batchSize: number): Promise<number> {
      const t = TABLES[table];
      const rows = await db.query(
        `DELETE FROM ${t} WHERE (check_id, run_location, bucket_start) IN (
           SELECT check_id, run_location, bucket_start FROM ${t} WHERE bucket_start < $1 ORDER BY bucket_start LIMIT $2
         ) RETURNING 1`,
        [before, batchSize],
      );
      return rows.length;
    },

    /**
     * The roll-up of the account's checks' runs in [from, to) of one source, per check, per bucket
     * of `bucketSeconds` (aligned to the UNIX epoch) and per location when asked. Raw rows are
     * aggregated the same way, so parts of one window from different sources merge.
     */
    async cells(accountId: string, source: AnalyticsSource, q: RollupCellQuery): Promise<RollupCell[]> {
      const time = source === 'raw' ? 'started_at' : 'bucket_start';
      const params: unknown[] = [accountId, q.checkIds, q.from, q.to];
      let bucket = 'NULL::bigint';
      if (q.bucketSeconds) {
        params.push(q.bucketSeconds);
        bucket = `(floor(extract(epoch FROM ${time}) / $5) * $5)::bigint`;
      }
      const group = q.byLocation ? 'run_location' : 'NULL::text';
      const from = source === 'raw'
        ? `(${RAW_ROWS} WHERE account_id = $1 AND check_id = ANY($2::uuid[]) AND started_at >= $3 AND started_at < $4 AND test_session_id IS NULL) r`
        : `${TABLES[source]} WHERE account_id = $1 AND check_id = ANY($2::uuid[]) AND bucket_start >= $3 AND bucket_start < $4`;
      const rows = await db.query<Record<string, any>>(
        `SELECT check_id, ${group} AS grp, ${bucket} AS bucket, ${source === 'raw' ? FROM_RAW : FROM_ROLLUPS}
         FROM ${from} GROUP BY 1, 2, 3`,
        params,
      );
      return rows.map((row) => ({
        checkId: row.check_id,
        group: row.grp ?? null,
        bucketStart: row.bucket == null ? null : Number(row.bucket),
        rollup: rollupOf(row),
      }));
    },
  };
}
export type ResultRollupsRepository = ReturnType<typeof createResultRollupsRepository>;
