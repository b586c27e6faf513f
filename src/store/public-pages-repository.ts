import type { Queryable } from './db.js';
import type { StatusPageIncidentRow } from './status-page-incidents-repository.js';

/** A maintenance (occurrence) a public page shows, with its window's public settings. */
export interface PageMaintenanceRow {
  id: string;
  window_id: number;
  name: string;
  description: string | null;
  status: string;
  starts_at: Date;
  ends_at: Date;
  affect_all_services: boolean;
  show_affected_services: boolean;
  /** The window's services (all of the account's it names, the caller keeps the page's). */
  service_ids: string[];
}

/** An update of a maintenance, newest first per maintenance. */
export interface PageMaintenanceUpdateRow {
  id: string;
  maintenance_id: string;
  status: string;
  description: string;
  created_at: Date;
}

/** Reads behind the public pages (any account: the caller has found the page first). */
export function createPublicPagesRepository(db: Queryable) {
  return {
    /**
     * Maintenances of the windows linked to the page whose `statusPageVisibility.enabled` is on: in
     * progress, scheduled to start within 30 days (upcoming), or closed since `since`; soonest first, at most `limit`.
     */
    async maintenancesOnPage(accountId: string, pageId: string, since: Date, limit: number): Promise<PageMaintenanceRow[]> {
      return db.query<PageMaintenanceRow>(
        `SELECT o.id, o.window_id, w.name, w.description, o.status, o.starts_at, o.ends_at,
           coalesce((w.status_page_visibility->>'affectAllServices')::boolean, false) AS affect_all_services,
           coalesce((w.status_page_visibility->>'showAffectedServices')::boolean, true) AS show_affected_services,
           ARRAY(SELECT s.service_id::text FROM maintenance_window_services s WHERE s.window_id = w.id ORDER BY s.position) AS service_ids
         FROM maintenances o
         JOIN maintenance_windows w ON w.id = o.window_id
         JOIN maintenance_window_status_pages l ON l.window_id = w.id AND l.status_page_id = $2
         WHERE o.account_id = $1 AND coalesce((w.status_page_visibility->>'enabled')::boolean, false)
           AND (o.status IN ('IN_PROGRESS', 'VERIFYING') OR (o.status = 'SCHEDULED' AND o.ends_at > now() AND o.starts_at < now() + interval '30 days')
             OR (o.status IN ('COMPLETED', 'CANCELLED') AND (o.ends_at >= $3 OR o.updated_at >= $3)))
         ORDER BY o.starts_at, o.id LIMIT $4`,
        [accountId, pageId, since, limit],
      );
    },

    /** The updates of these maintenances, newest first within each. */
    async maintenanceUpdatesOf(ids: readonly string[]): Promise<PageMaintenanceUpdateRow[]> {
      if (ids.length === 0) return [];
      return db.query<PageMaintenanceUpdateRow>(
        'SELECT id, maintenance_id, status, description, created_at FROM maintenance_updates WHERE maintenance_id = ANY($1::uuid[]) ORDER BY maintenance_id, seq DESC',
        [ids],
      );
    },

    /**
     * The account's incidents on any of these services that are open, or were created or changed
     * since `since` (the range of the uptime bars and the history), newest first, at most `limit`.
     */
    async incidentsOnServices(accountId: string, serviceIds: readonly string[], since: Date, limit: number): Promise<StatusPageIncidentRow[]> {
      if (serviceIds.length === 0) return [];
      return db.query<StatusPageIncidentRow>(
        `SELECT i.id, i.account_id, i.name, i.severity, i.last_update_status, i.duration, i.check_id, i.created_at, i.updated_at
         FROM status_page_incidents i
         WHERE i.account_id = $1
           AND EXISTS (SELECT 1 FROM status_page_incident_services s WHERE s.incident_id = i.id AND s.service_id = ANY($2::uuid[]))
           AND (i.last_update_status <> 'RESOLVED' OR i.created_at >= $3 OR i.updated_at >= $3)
         ORDER BY i.created_at DESC, i.id DESC LIMIT $4`,
        [accountId, serviceIds, since, limit],
      );
    },
  };
}
