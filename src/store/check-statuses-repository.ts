import type { CheckPlacementRow, CheckStatusRow } from '../contract/check-status-row.js';
import type { CheckStatusState } from '../domain/next-check-status.js';
import type { Queryable } from './db.js';

export type { CheckPlacementRow, CheckStatusRow };

const PLACEMENTS = `SELECT c.id AS check_id, c.name, c.check_type, c.group_id, c.data->'locations' AS locations,
  c.data->'privateLocations' AS private_locations, g.data->'locations' AS group_locations,
  g.data->'privateLocations' AS group_private_locations, c.created_at
  FROM checks c LEFT JOIN check_groups g ON g.id = c.group_id AND g.account_id = c.account_id`;

const SELECT = `SELECT st.check_id, st.account_id, c.name, st.has_failures, st.has_errors, st.is_degraded, st.longest_run,
  st.shortest_run, st.last_run_location, st.last_check_run_id, st.ssl_days_remaining, st.location_run_times,
  st.last_result_at, st.created_at, st.updated_at
  FROM check_statuses st JOIN checks c ON c.id = st.check_id AND c.account_id = st.account_id`;

/** The state part of a row, as the status rules read it. */
export function statusStateOf(row: CheckStatusRow): CheckStatusState {
  return {
    hasFailures: row.has_failures,
    hasErrors: row.has_errors,
    isDegraded: row.is_degraded,
    longestRun: row.longest_run,
    shortestRun: row.shortest_run,
    lastRunLocation: row.last_run_location,
    lastCheckRunId: row.last_check_run_id,
    sslDaysRemaining: row.ssl_days_remaining,
    locationRunTimes: row.location_run_times ?? {},
    lastResultAt: row.last_result_at,
  };
}

const stateParams = (s: CheckStatusState) => [
  s.hasFailures, s.hasErrors, s.isDegraded, s.longestRun, s.shortestRun, s.lastRunLocation, s.lastCheckRunId,
  s.sslDaysRemaining, JSON.stringify(s.locationRunTimes), s.lastResultAt,
];

/** The latest known state of each check, scoped to one account in every statement. */
export function createCheckStatusesRepository(db: Queryable) {
  return {
    async get(accountId: string, checkId: string): Promise<CheckStatusRow | undefined> {
      const [row] = await db.query<CheckStatusRow>(`${SELECT} WHERE st.account_id = $1 AND st.check_id = $2`, [accountId, checkId]);
      return row;
    },

    /** Every status of the account in check creation order, or of the given checks only, in the order given. */
    async list(accountId: string, checkIds?: readonly string[]): Promise<CheckStatusRow[]> {
      if (checkIds) {
        return db.query<CheckStatusRow>(
          `${SELECT} WHERE st.account_id = $1 AND st.check_id = ANY($2::uuid[]) ORDER BY array_position($2::uuid[], st.check_id)`,
          [accountId, checkIds],
        );
      }
      return db.query<CheckStatusRow>(`${SELECT} WHERE st.account_id = $1 ORDER BY c.created_at, c.id`, [accountId]);
    },

    /**
     * Where every check of the account (in check creation order) or the given ones only (in the order
     * given) and its group say to run: statuses of checks that never ran are built from these.
     */
    async placements(accountId: string, checkIds?: readonly string[]): Promise<CheckPlacementRow[]> {
      if (checkIds) {
        return db.query<CheckPlacementRow>(`${PLACEMENTS} WHERE c.account_id = $1 AND c.id = ANY($2::uuid[]) ORDER BY array_position($2::uuid[], c.id)`, [accountId, checkIds]);
      }
      return db.query<CheckPlacementRow>(`${PLACEMENTS} WHERE c.account_id = $1 ORDER BY c.created_at, c.id`, [accountId]);
    },

    /**
     * Reads a status and locks it until the transaction ends (concurrent FINAL results of one
     * check queue here). `name` is the one stored with the status.
     */
    async getForUpdate(accountId: string, checkId: string): Promise<CheckStatusRow | undefined> {
      // No join: the recorder knows the check's name, and this runs once per FINAL result.
      const [row] = await db.query<CheckStatusRow>(
        'SELECT * FROM check_statuses WHERE account_id = $1 AND check_id = $2 FOR UPDATE',
        [accountId, checkId],
      );
      return row;
    },

    /**
     * Reads the statuses of several checks (any accounts) and locks them until the transaction ends,
     * in check id order so that concurrent batches cannot deadlock.
     */
    async getManyForUpdate(checkIds: readonly string[]): Promise<CheckStatusRow[]> {
      if (checkIds.length === 0) return [];
      return db.query<CheckStatusRow>('SELECT * FROM check_statuses WHERE check_id = ANY($1::uuid[]) ORDER BY check_id FOR UPDATE', [checkIds]);
    },

    /** The statuses of several checks (any accounts), each with its check's current name, in no set order. */
    async getMany(checkIds: readonly string[]): Promise<CheckStatusRow[]> {
      if (checkIds.length === 0) return [];
      return db.query<CheckStatusRow>(`${SELECT} WHERE st.check_id = ANY($1::uuid[])`, [checkIds]);
    },

    /**
     * Creates the statuses of checks that have none, or updates them (`exists` says which, as read by
     * `getManyForUpdate`). Answers the ids of new statuses another transaction created first: those
     * were not written.
     */
    async writeMany(statuses: readonly { accountId: string; checkId: string; name: string; state: CheckStatusState; exists: boolean }[]): Promise<string[]> {
      const params = (list: typeof statuses) => {
        const col = <T>(f: (s: CheckStatusState) => T) => list.map((x) => f(x.state));
        return [
          list.map((x) => x.checkId), list.map((x) => x.accountId), list.map((x) => x.name),
          col((s) => s.hasFailures), col((s) => s.hasErrors), col((s) => s.isDegraded), col((s) => s.longestRun), col((s) => s.shortestRun),
          col((s) => s.lastRunLocation), col((s) => s.lastCheckRunId), col((s) => s.sslDaysRemaining),
          col((s) => JSON.stringify(s.locationRunTimes)), col((s) => s.lastResultAt),
        ];
      };
      const VALUES = `unnest($1::uuid[], $2::uuid[], $3::text[], $4::boolean[], $5::boolean[], $6::boolean[], $7::int[], $8::int[],
        $9::text[], $10::text[], $11::int[], $12::text[], $13::timestamptz[])
        AS v(check_id, account_id, name, has_failures, has_errors, is_degraded, longest_run, shortest_run, last_run_location,
          last_check_run_id, ssl_days_remaining, location_run_times, last_result_at)`;
      const updates = statuses.filter((x) => x.exists);
      if (updates.length > 0) {
        await db.query(
          `UPDATE check_statuses st SET name = v.name, has_failures = v.has_failures, has_errors = v.has_errors, is_degraded = v.is_degraded,
             longest_run = v.longest_run, shortest_run = v.shortest_run, last_run_location = v.last_run_location,
             last_check_run_id = v.last_check_run_id, ssl_days_remaining = v.ssl_days_remaining,
             location_run_times = v.location_run_times::jsonb, last_result_at = v.last_result_at, updated_at = now()
           FROM ${VALUES}
           WHERE st.account_id = v.account_id AND st.check_id = v.check_id`,
          params(updates),
        );
      }
      const inserts = statuses.filter((x) => !x.exists);
      if (inserts.length === 0) return [];
      const created = await db.query<{ check_id: string }>(
        `INSERT INTO check_statuses (check_id, account_id, name, has_failures, has_errors, is_degraded, longest_run, shortest_run,
           last_run_location, last_check_run_id, ssl_days_remaining, location_run_times, last_result_at, updated_at)
         SELECT check_id, account_id, name, has_failures, has_errors, is_degraded, longest_run, shortest_run, last_run_location,
           last_check_run_id, ssl_days_remaining, location_run_times::jsonb, last_result_at, now()
         FROM ${VALUES}
         ORDER BY check_id
         ON CONFLICT (check_id) DO NOTHING RETURNING check_id`,
        params(inserts),
      );
      const done = new Set(created.map((r) => r.check_id));
      return inserts.filter((x) => !done.has(x.checkId)).map((x) => x.checkId);
    },

    /** Creates the status of a check that has none; false when another transaction created it first. */
    async insertIfAbsent(accountId: string, checkId: string, name: string, s: CheckStatusState): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO check_statuses (check_id, account_id, name, has_failures, has_errors, is_degraded, longest_run, shortest_run,
           last_run_location, last_check_run_id, ssl_days_remaining, location_run_times, last_result_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, now())
         ON CONFLICT (check_id) DO NOTHING RETURNING check_id`,
        [checkId, accountId, name, ...stateParams(s)],
      );
      return rows.length > 0;
    },

    async update(accountId: string, checkId: string, name: string, s: CheckStatusState): Promise<void> {
      await db.query(
        `UPDATE check_statuses SET name = $3, has_failures = $4, has_errors = $5, is_degraded = $6, longest_run = $7,
           shortest_run = $8, last_run_location = $9, last_check_run_id = $10, ssl_days_remaining = $11,
           location_run_times = $12::jsonb, last_result_at = $13, updated_at = now()
         WHERE account_id = $1 AND check_id = $2`,
        [accountId, checkId, name, ...stateParams(s)],
      );
    },
  };
}
export type CheckStatusesRepository = ReturnType<typeof createCheckStatusesRepository>;
