import type { Queryable } from './db.js';

/** The incident a check's triggerIncident opened and has not resolved yet. */
export interface CheckOpenIncidentRow {
  check_id: string;
  account_id: string;
  incident_id: string;
  opened_at: Date;
}

/** Links between checks and the incidents their automation keeps open, scoped to one account. */
export function createCheckOpenIncidentsRepository(db: Queryable) {
  return {
    /** The check's open incident; `lock` holds the link until the transaction ends. */
    async get(accountId: string, checkId: string, lock = false): Promise<CheckOpenIncidentRow | undefined> {
      const [row] = await db.query<CheckOpenIncidentRow>(
        `SELECT check_id, account_id, incident_id, opened_at FROM check_open_incidents WHERE account_id = $1 AND check_id = $2${lock ? ' FOR UPDATE' : ''}`,
        [accountId, checkId],
      );
      return row;
    },

    async set(accountId: string, checkId: string, incidentId: string, at: Date): Promise<void> {
      await db.query(
        `INSERT INTO check_open_incidents (check_id, account_id, incident_id, opened_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (check_id) DO UPDATE SET incident_id = EXCLUDED.incident_id, opened_at = EXCLUDED.opened_at`,
        [checkId, accountId, incidentId, at],
      );
    },

    async clear(accountId: string, checkId: string): Promise<void> {
      await db.query('DELETE FROM check_open_incidents WHERE account_id = $1 AND check_id = $2', [accountId, checkId]);
    },

    /** The open incidents of these checks, by check id (GraphQL: check → its open incident). */
    async ofChecks(accountId: string, checkIds: readonly string[]): Promise<CheckOpenIncidentRow[]> {
      if (checkIds.length === 0) return [];
      return db.query<CheckOpenIncidentRow>(
        'SELECT check_id, account_id, incident_id, opened_at FROM check_open_incidents WHERE account_id = $1 AND check_id::text = ANY($2::text[])',
        [accountId, checkIds.map((id) => id.toLowerCase())],
      );
    },
  };
}
