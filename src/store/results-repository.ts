import type { ResultRow } from '../contract/result-row.js';
import type { Queryable } from './db.js';

export type { ResultRow };

/** A result to store; check_run_id and created_at are assigned by the database. */
export interface NewResult {
  id: string;
  checkId: string;
  sequenceId: string;
  resultType: 'FINAL' | 'ATTEMPT';
  attempts: number;
  name: string;
  checkType: string;
  runLocation: string;
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  isCancelled: boolean;
  overMaxResponseTime: boolean;
  startedAt: Date;
  stoppedAt: Date;
  responseTime: number;
  statusCode: number | null;
  dns: number | null;
  tcp: number | null;
  tls: number | null;
  firstByte: number | null;
  download: number | null;
  wait: number | null;
  errorGroupIds: string[];
  testSessionId: string | null;
  detail: Record<string, unknown>;
}

/** Filters shared by the result lists. `from` inclusive, `to` exclusive. */
export interface ResultFilter {
  from?: Date;
  to?: Date;
  location?: string;
  checkType?: string;
  hasFailures?: boolean;
  resultType: 'FINAL' | 'ATTEMPT' | 'ALL';
}

const NARROW = `id, account_id, check_id, check_run_id, sequence_id, result_type, attempts, name, check_type, run_location,
  has_failures, has_errors, is_degraded, is_cancelled, over_max_response_time, started_at, stopped_at, created_at,
  response_time, status_code, error_group_ids, test_session_id`;
const columns = (withDetail: boolean) => (withDetail ? `${NARROW}, detail` : NARROW);

/**
 * The WHERE clause of a check's monitoring history: runs of test sessions are not part of it.
 * Parameter $1 (account) is taken, and the check is `checkExpr` ($2 unless told otherwise); the
 * filter's values are appended to `params`.
 */
function historyWhere(filter: ResultFilter, params: unknown[], checkExpr = '$2'): string {
  const where = ['account_id = $1', `check_id = ${checkExpr}`, 'test_session_id IS NULL'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.from) add('started_at >= ?', filter.from);
  if (filter.to) add('started_at < ?', filter.to);
  if (filter.location) add('run_location = ?', filter.location);
  if (filter.checkType) add('check_type = ?', filter.checkType);
  if (filter.hasFailures !== undefined) add('has_failures = ?', filter.hasFailures);
  if (filter.resultType !== 'ALL') add('result_type = ?', filter.resultType);
  return where.join(' AND ');
}

/**
 * Run results, scoped to one account in every statement.
 * Long by design: a repository: an object of one-statement methods over one table, sharing its SELECT lists.
 */
export function createResultsRepository(db: Queryable) {
  return {
    /**
     * Stores one result. Start times keep the millisecond precision of a JS Date, which is what
     * the newest-first cursors of `listAfter` compare on.
     */
    async insert(accountId: string, r: NewResult): Promise<ResultRow> {
      const [row] = await db.query<ResultRow>(
        `INSERT INTO check_results (id, account_id, check_id, sequence_id, result_type, attempts, name, check_type, run_location,
           has_failures, has_errors, is_degraded, is_cancelled, over_max_response_time, started_at, stopped_at, response_time,
           status_code, dns, tcp, tls, first_byte, download, wait, error_group_ids, test_session_id, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24,
           $25::uuid[], $26, $27)
         RETURNING ${columns(true)}`,
        [
          r.id, accountId, r.checkId, r.sequenceId, r.resultType, r.attempts, r.name, r.checkType, r.runLocation,
          r.hasFailures, r.hasErrors, r.isDegraded, r.isCancelled, r.overMaxResponseTime, r.startedAt, r.stoppedAt, r.responseTime,
          r.statusCode, r.dns, r.tcp, r.tls, r.firstByte, r.download, r.wait, r.errorGroupIds, r.testSessionId, r.detail,
        ],
      );
      return row!;
    },

    /**
     * Stores several results, of any accounts, in one statement (the recorder's group commit).
     * Run ids are drawn in the order given; the rows come back in that order.
     */
    async insertMany(rs: readonly (NewResult & { accountId: string })[]): Promise<ResultRow[]> {
      if (rs.length === 0) return [];
      const col = <T>(f: (r: NewResult & { accountId: string }) => T) => rs.map(f);
      // Fixed statement text whatever the count (named statements are planned once per connection):
      // one array per column, the per-row uuid[] passed comma-joined and jsonb as text.
      const rows = await db.query<ResultRow>(
        `INSERT INTO check_results (id, account_id, check_id, sequence_id, result_type, attempts, name, check_type, run_location,
           has_failures, has_errors, is_degraded, is_cancelled, over_max_response_time, started_at, stopped_at, response_time,
           status_code, dns, tcp, tls, first_byte, download, wait, error_group_ids, test_session_id, detail)
         SELECT id, account_id, check_id, sequence_id, result_type, attempts, name, check_type, run_location,
           has_failures, has_errors, is_degraded, is_cancelled, over_max_response_time, started_at, stopped_at, response_time,
           status_code, dns, tcp, tls, first_byte, download, wait, string_to_array(error_group_ids, ',')::uuid[], test_session_id, detail::jsonb
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[],
           $10::boolean[], $11::boolean[], $12::boolean[], $13::boolean[], $14::boolean[], $15::timestamptz[], $16::timestamptz[],
           $17::float8[], $18::int[], $19::real[], $20::real[], $21::real[], $22::real[], $23::real[], $24::real[], $25::text[],
           $26::uuid[], $27::text[]) WITH ORDINALITY
           AS r(id, account_id, check_id, sequence_id, result_type, attempts, name, check_type, run_location,
             has_failures, has_errors, is_degraded, is_cancelled, over_max_response_time, started_at, stopped_at, response_time,
             status_code, dns, tcp, tls, first_byte, download, wait, error_group_ids, test_session_id, detail, ord)
         ORDER BY ord
         RETURNING ${columns(true)}`,
        [
          col((r) => r.id), col((r) => r.accountId), col((r) => r.checkId), col((r) => r.sequenceId), col((r) => r.resultType),
          col((r) => r.attempts), col((r) => r.name), col((r) => r.checkType), col((r) => r.runLocation), col((r) => r.hasFailures),
          col((r) => r.hasErrors), col((r) => r.isDegraded), col((r) => r.isCancelled), col((r) => r.overMaxResponseTime),
          col((r) => r.startedAt), col((r) => r.stoppedAt), col((r) => r.responseTime), col((r) => r.statusCode), col((r) => r.dns),
          col((r) => r.tcp), col((r) => r.tls), col((r) => r.firstByte), col((r) => r.download), col((r) => r.wait),
          col((r) => r.errorGroupIds.join(',')), col((r) => r.testSessionId), col((r) => JSON.stringify(r.detail)),
        ],
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return rs.map((r) => byId.get(r.id)!);
    },

    /** The result of one attempt of a run in a location, if stored (an agent posting a result again). */
    async findAttempt(accountId: string, checkId: string, sequenceId: string, attempts: number, location: string): Promise<{ id: string; result_type: string } | undefined> {
      const [row] = await db.query<{ id: string; result_type: string }>(
        `SELECT id, result_type FROM check_results WHERE account_id = $1 AND check_id = $2 AND sequence_id = $3 AND attempts = $4 AND run_location = $5 LIMIT 1`,
        [accountId, checkId, sequenceId, attempts, location],
      );
      return row;
    },

    /** The FINAL result of a run in one location (an on-demand run an agent took), with its detail. */
    async finalOfRun(accountId: string, checkId: string, sequenceId: string, location: string): Promise<ResultRow | undefined> {
      const [row] = await db.query<ResultRow>(
        `SELECT ${columns(true)} FROM check_results WHERE account_id = $1 AND check_id = $2 AND sequence_id = $3 AND run_location = $4
           AND result_type = 'FINAL' LIMIT 1`,
        [accountId, checkId, sequenceId, location],
      );
      return row;
    },

    /** One result of a check, a test session's run included. */
    async get(accountId: string, checkId: string, id: string): Promise<ResultRow | undefined> {
      const [row] = await db.query<ResultRow>(
        `SELECT ${columns(true)} FROM check_results WHERE account_id = $1 AND check_id = $2 AND id = $3`,
        [accountId, checkId, id],
      );
      return row;
    },

    /** get() of several results in one statement; those that exist. */
    async getByKeys(keys: readonly { accountId: string; checkId: string; id: string }[]): Promise<ResultRow[]> {
      if (keys.length === 0) return [];
      return db.query<ResultRow>(
        `SELECT ${columns(true)} FROM check_results
         WHERE (account_id, check_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]))`,
        [keys.map((k) => k.accountId), keys.map((k) => k.checkId), keys.map((k) => k.id)],
      );
    },

    /** Up to `limit` results of a check's history, newest first, strictly after `cursor` when given. */
    async listAfter(
      accountId: string, checkId: string, filter: ResultFilter, cursor: { startedAt: Date; id: string } | null, limit: number, withDetail: boolean,
    ): Promise<ResultRow[]> {
      const params: unknown[] = [accountId, checkId];
      let where = historyWhere(filter, params);
      if (cursor) {
        params.push(cursor.startedAt, cursor.id);
        where += ` AND (started_at, id) < ($${params.length - 1}, $${params.length}::uuid)`;
      }
      params.push(limit);
      return db.query<ResultRow>(
        `SELECT ${columns(withDetail)} FROM check_results WHERE ${where} ORDER BY started_at DESC, id DESC LIMIT $${params.length}`,
        params,
      );
    },

    /**
     * The `perCheck` newest results of each of `checkIds` (in the order given, newest first within a
     * check) in one statement: a LATERAL subquery per check walks the (check_id, started_at, id)
     * index, so the cost grows with the rows returned, not with the checks' histories.
     */
    async listLatestOfChecks(
      accountId: string, checkIds: readonly string[], filter: ResultFilter, perCheck: number, withDetail: boolean,
    ): Promise<ResultRow[]> {
      const params: unknown[] = [accountId, checkIds];
      const where = historyWhere(filter, params, 'k.check_id');
      params.push(perCheck);
      return db.query<ResultRow>(
        `SELECT r.* FROM unnest($2::uuid[]) WITH ORDINALITY AS k(check_id, ord)
         CROSS JOIN LATERAL (
           SELECT ${columns(withDetail)} FROM check_results WHERE ${where}
           ORDER BY started_at DESC, id DESC LIMIT $${params.length}
         ) r
         ORDER BY k.ord, r.started_at DESC, r.id DESC`,
        params,
      );
    },

    /** One page of a check's history, newest first, and how many results match in all. */
    async listPage(accountId: string, checkId: string, filter: ResultFilter, page: number, limit: number): Promise<{ rows: ResultRow[]; total: number }> {
      const params: unknown[] = [accountId, checkId];
      const where = historyWhere(filter, params);
      const rows = await db.query<ResultRow>(
        `SELECT ${columns(true)}, count(*) OVER ()::int AS total FROM check_results WHERE ${where}
         ORDER BY started_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, (page - 1) * limit],
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM check_results WHERE ${where}`, params);
      return { rows, total: count?.n ?? 0 };
    },

    /** Every result of one test session, oldest first. */
    async listByTestSession(accountId: string, testSessionId: string): Promise<ResultRow[]> {
      return db.query<ResultRow>(
        `SELECT ${columns(true)} FROM check_results WHERE account_id = $1 AND test_session_id = $2 ORDER BY started_at, id`,
        [accountId, testSessionId],
      );
    },

    /** Accounts holding results that started before `before` (what retention has to prune). */
    async accountsWithResultsBefore(before: Date): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `SELECT a.id FROM accounts a
         WHERE EXISTS (SELECT 1 FROM check_results r WHERE r.account_id = a.id AND r.started_at < $1) ORDER BY a.id`,
        [before],
      );
      return rows.map((r) => r.id);
    },

    /** Deletes up to `batchSize` of the account's oldest results that started before `before`; returns how many. */
    async deleteOlderThan(accountId: string, before: Date, batchSize: number): Promise<number> {
      const rows = await db.query<{ n: number }>(
        `WITH doomed AS (
           SELECT id FROM check_results WHERE account_id = $1 AND started_at < $2 ORDER BY started_at LIMIT $3
         ), gone AS (
           DELETE FROM check_results r USING doomed WHERE r.id = doomed.id AND r.account_id = $1 RETURNING 1
         )
         SELECT count(*)::int AS n FROM gone`,
        [accountId, before, batchSize],
      );
      return rows[0]?.n ?? 0;
    },
  };
}
export type ResultsRepository = ReturnType<typeof createResultsRepository>;
