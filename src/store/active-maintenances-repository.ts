import type { CoveringWindow } from '../domain/check-maintenance.js';
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

interface CoveringRow {
  window_id: number;
  name: string;
  tags: string[];
  pause_all_checks: boolean;
  silence_alerts_tags: string[];
  silence_all_alerts: boolean;
  id: string;
  status: string;
  starts_at: Date;
  ends_at: Date;
}

/** Rows of one window (ordered by window) gathered into windows with their maintenances. */
function toCoveringWindows(rows: readonly CoveringRow[]): CoveringWindow[] {
  const windows: CoveringWindow[] = [];
  for (const r of rows) {
    let w = windows.at(-1);
    if (w?.windowId !== r.window_id) {
      w = {
        windowId: r.window_id, windowName: r.name, tags: r.tags, pauseAllChecks: r.pause_all_checks,
        silenceAlertsTags: r.silence_alerts_tags, silenceAllAlerts: r.silence_all_alerts, maintenances: [],
      };
      windows.push(w);
    }
    (w.maintenances as CoveringWindow['maintenances'][number][]).push({ id: r.id, status: r.status, startsAt: r.starts_at, endsAt: r.ends_at });
  }
  return windows;
}

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
    /**
     * The account's windows with their maintenances in progress and, of each, the scheduled one
     * starting soonest that has not ended: all a check's maintenance state needs (check-maintenance.ts).
     */
    async coveringOf(accountId: string, at: Date): Promise<CoveringWindow[]> {
      const rows = await db.query<CoveringRow>(
        `SELECT w.id AS window_id, w.name, w.tags, w.pause_all_checks, w.silence_alerts_tags, w.silence_all_alerts, o.id, o.status, o.starts_at, o.ends_at
         FROM maintenance_windows w CROSS JOIN LATERAL (
           SELECT m.id, m.status, m.starts_at, m.ends_at FROM maintenances m
             WHERE m.window_id = w.id AND m.status IN ('IN_PROGRESS', 'VERIFYING') AND m.starts_at <= $2
           UNION ALL
           (SELECT m.id, m.status, m.starts_at, m.ends_at FROM maintenances m
             WHERE m.window_id = w.id AND m.status = 'SCHEDULED' AND m.ends_at > $2 ORDER BY m.starts_at, m.id LIMIT 1)
         ) o
         WHERE w.account_id = $1
         ORDER BY w.id, o.starts_at, o.id`,
        [accountId, at],
      );
      return toCoveringWindows(rows);
    },
    /**
     * The account's windows with their maintenances that ran (in progress, verifying or completed)
     * between `from` and `at`: when each check was in maintenance (checkMaintenanceSpans).
     */
    async ranBetween(accountId: string, from: Date, at: Date): Promise<CoveringWindow[]> {
      const rows = await db.query<CoveringRow>(
        `SELECT w.id AS window_id, w.name, w.tags, w.pause_all_checks, w.silence_alerts_tags, w.silence_all_alerts, o.id, o.status, o.starts_at, o.ends_at
         FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id
         WHERE o.account_id = $1 AND o.status IN ('IN_PROGRESS', 'VERIFYING', 'COMPLETED') AND o.starts_at <= $3
           AND (o.ends_at > $2 OR o.status IN ('IN_PROGRESS', 'VERIFYING'))
         ORDER BY w.id, o.starts_at, o.id`,
        [accountId, from, at],
      );
      return toCoveringWindows(rows);
    },
    /** Of every account: the scheduler's snapshot of what is paused. */
    async all(at: Date): Promise<AccountActiveMaintenance[]> {
      return (await db.query<Row>(`${SELECT} ORDER BY o.starts_at, o.id`, [at])).map(toActive);
    },
  };
}
