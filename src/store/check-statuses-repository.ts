import type { CheckStatusState, LocationRunTime } from '../domain/next-check-status.js';
import type { Queryable } from './db.js';

/** A stored check status, with the check's current name. */
export interface CheckStatusRow {
  check_id: string;
  account_id: string;
  name: string;
  has_failures: boolean;
  has_errors: boolean;
  is_degraded: boolean;
  longest_run: number | null;
  shortest_run: number | null;
  last_run_location: string | null;
  last_check_run_id: string | null;
  ssl_days_remaining: number | null;
  location_run_times: Record<string, LocationRunTime>;
  last_result_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

/** Where a check and its group say to run: what the idle rule (idleReason) reads. */
export interface CheckPlacementRow {
  check_id: string;
  name: string;
  check_type: string;
  group_id: number | null;
  locations: string[] | null;
  private_locations: string[] | null;
  group_locations: string[] | null;
  group_private_locations: string[] | null;
  created_at: Date;
}

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
