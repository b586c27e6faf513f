import type { ActiveMaintenance } from '../domain/maintenance-effects.js';
import type { Queryable } from './db.js';

/** An active maintenance with the account it belongs to. */
export interface AccountActiveMaintenance extends ActiveMaintenance {
  accountId: string;
}

const SELECT = `SELECT o.account_id, w.id AS window_id, o.id AS maintenance_id, w.tags, w.pause_all_checks, w.silence_alerts_tags, w.silence_all_alerts,
    coalesce((w.status_page_visibility->>'suppressAutoIncidents')::boolean, false) AS suppress_auto_incidents
  FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id
  WHERE o.status IN ('IN_PROGRESS', 'VERIFYING') AND o.starts_at <= $1`;

interface Row {
  account_id: string;
  window_id: number;
  maintenance_id: string;
  tags: string[];
  pause_all_checks: boolean;
  silence_alerts_tags: string[];
  silence_all_alerts: boolean;
  suppress_auto_incidents: boolean;
}

const toActive = (r: Row): AccountActiveMaintenance => ({
  accountId: r.account_id, windowId: r.window_id, maintenanceId: r.maintenance_id, tags: r.tags, pauseAllChecks: r.pause_all_checks,
  silenceAlertsTags: r.silence_alerts_tags, silenceAllAlerts: r.silence_all_alerts, suppressAutoIncidents: r.suppress_auto_incidents,
});

/**
 * Maintenances in progress at an instant, with what their windows do to checks (maintenance-effects.ts).
 * A maintenance whose end passed without autoEnd stays in progress until someone closes it.
 */
export function createActiveMaintenancesRepository(db: Queryable) {
  return {
    /** Of one account: what alerting asks when a run raises alerts. */
    async ofAccount(accountId: string, at: Date): Promise<AccountActiveMaintenance[]> {
      return (await db.query<Row>(`${SELECT} AND o.account_id = $2 ORDER BY o.starts_at, o.id`, [at, accountId])).map(toActive);
    },
    /** Of every account: the scheduler's snapshot of what is paused. */
    async all(at: Date): Promise<AccountActiveMaintenance[]> {
      return (await db.query<Row>(`${SELECT} ORDER BY o.starts_at, o.id`, [at])).map(toActive);
    },
  };
}
