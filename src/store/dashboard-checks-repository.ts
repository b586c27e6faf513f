import type { Queryable } from './db.js';

/** A check a dashboard selects, with its latest known state (null fields: it has not run yet). */
export interface DashboardCheckRow {
  id: string;
  name: string;
  checkType: string;
  tags: string[];
  /** False until the check has a status (it has not run yet). */
  hasStatus: boolean;
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  longestRun: number | null;
  lastRunLocation: string | null;
  lastResultAt: Date | null;
}

/** An open status page incident of an account with its latest update (by public date). */
export interface DashboardIncidentRow {
  name: string;
  severity: string;
  lastUpdateStatus: string;
  latestUpdate: string | null;
  latestUpdateAt: Date | null;
  createdAt: Date;
}

/** Which checks a dashboard shows: `tags` empty selects every activated check. */
export interface DashboardSelection {
  tags: readonly string[];
  /** Every tag must be on the check (else any of them). */
  allTags: boolean;
}

/** What public dashboards read of an account: its checks and their states, and its open incidents. */
export function createDashboardChecksRepository(db: Queryable) {
  return {
    /**
     * The activated checks of the account that `selection` picks, with their latest states, by name
     * (case-insensitive) then id. Narrow rows: a dashboard's summary counts every one of them.
     */
    async select(accountId: string, selection: DashboardSelection): Promise<DashboardCheckRow[]> {
      const rows = await db.query<DashboardCheckRow>(
        `SELECT c.id, c.name, c.check_type AS "checkType", c.tags, st.check_id IS NOT NULL AS "hasStatus",
                coalesce(st.has_failures, false) AS "hasFailures", coalesce(st.has_errors, false) AS "hasErrors",
                coalesce(st.is_degraded, false) AS "isDegraded", st.longest_run AS "longestRun",
                st.last_run_location AS "lastRunLocation", st.last_result_at AS "lastResultAt"
         FROM checks c LEFT JOIN check_statuses st ON st.check_id = c.id AND st.account_id = c.account_id
         WHERE c.account_id = $1 AND c.activated
           AND (cardinality($2::text[]) = 0 OR (CASE WHEN $3::boolean THEN c.tags @> $2::text[] ELSE c.tags && $2::text[] END))
         ORDER BY lower(c.name), c.name, c.id`,
        [accountId, [...selection.tags], selection.allTags],
      );
      return rows.map((r) => ({ ...r, longestRun: r.longestRun == null ? null : Number(r.longestRun) }));
    },

    /** The account's incidents that are not RESOLVED, newest first, at most `limit`. */
    async openIncidents(accountId: string, limit: number): Promise<DashboardIncidentRow[]> {
      return db.query<DashboardIncidentRow>(
        `SELECT i.name, i.severity, i.last_update_status AS "lastUpdateStatus", u.description AS "latestUpdate",
                u.public_incident_update_date AS "latestUpdateAt", i.created_at AS "createdAt"
         FROM status_page_incidents i
         LEFT JOIN LATERAL (
           SELECT description, public_incident_update_date FROM status_page_incident_updates
           WHERE incident_id = i.id ORDER BY public_incident_update_date DESC, created_at DESC, seq DESC LIMIT 1
         ) u ON true
         WHERE i.account_id = $1 AND i.last_update_status <> 'RESOLVED'
         ORDER BY i.created_at DESC, i.id DESC LIMIT $2`,
        [accountId, limit],
      );
    },
  };
}
export type DashboardChecksRepository = ReturnType<typeof createDashboardChecksRepository>;
