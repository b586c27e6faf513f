import type { MaintenanceStatus } from '../domain/maintenance-status-moves.js';
import type { MaintenanceRow } from '../store/maintenance-occurrences-repository.js';
import type { MaintenanceUpdateRow } from '../store/maintenance-updates-repository.js';
import type { MaintenanceWindowRow } from '../store/maintenance-windows-repository.js';
import type { Repositories } from '../store/repositories.js';

/** The ids a window links to, in their order. */
export interface WindowLinks {
  serviceIds: string[];
  statusPageIds: string[];
}

/** The service and status page ids of each window, in their order. */
export async function windowLinks(repos: Repositories, ids: readonly number[]): Promise<Map<number, WindowLinks>> {
  const rows = await repos.maintenanceWindows.linksOf(ids);
  const out = new Map<number, WindowLinks>(ids.map((id) => [id, { serviceIds: [], statusPageIds: [] }]));
  for (const r of rows) out.get(r.window_id)![r.kind === 'service' ? 'serviceIds' : 'statusPageIds'].push(r.id);
  return out;
}

/** The REST shape of a stored window, its links read from `repos`. */
export async function readWindowView(repos: Repositories, row: MaintenanceWindowRow) {
  return toMaintenanceWindowView(row, (await windowLinks(repos, [row.id])).get(row.id)!);
}

/** The REST shape of a window (`MaintenanceWindow`). */
export function toMaintenanceWindowView(row: MaintenanceWindowRow, links: WindowLinks) {
  const v = row.status_page_visibility;
  return {
    id: row.id,
    name: row.name,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    repeatUnit: row.repeat_unit as 'DAY' | 'WEEK' | 'MONTH' | null,
    repeatInterval: row.repeat_interval,
    repeatEndsAt: row.repeat_ends_at,
    timezone: row.timezone,
    tags: row.tags,
    pauseAllChecks: row.pause_all_checks,
    silenceAlertsTags: row.silence_alerts_tags,
    silenceAllAlerts: row.silence_all_alerts,
    description: row.description,
    statusPageVisibility: {
      enabled: v.enabled,
      severity: v.severity,
      affectAllServices: v.affectAllServices,
      notifyOnStart: v.notifyOnStart,
      notifyOnEnd: v.notifyOnEnd,
      suppressAutoIncidents: v.suppressAutoIncidents,
      reminderMinutesBefore: v.reminderMinutesBefore,
      autoStart: v.autoStart,
      autoEnd: v.autoEnd,
      showAffectedServices: v.showAffectedServices,
      statusPageIds: links.statusPageIds,
      serviceIds: links.serviceIds,
    },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}
export type MaintenanceWindowView = ReturnType<typeof toMaintenanceWindowView>;

/** The REST shape of one occurrence (`Maintenance`). */
export function toMaintenanceView(row: MaintenanceRow) {
  return {
    id: row.id,
    maintenanceWindowId: row.window_id,
    occurrence: row.occurrence,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    status: row.status as MaintenanceStatus,
    dateAdjusted: row.date_adjusted,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}
export type MaintenanceView = ReturnType<typeof toMaintenanceView>;

/** The REST shape of an update (`MaintenanceWindowUpdate`, service-api.md "Maintenance window update"). */
export function toMaintenanceUpdateView(row: MaintenanceUpdateRow) {
  const adjusted = row.adjusted_starts_at && row.adjusted_ends_at;
  return {
    id: row.id,
    maintenanceWindowId: row.window_id,
    maintenanceId: row.maintenance_id,
    status: row.status as MaintenanceStatus,
    description: row.description,
    notifySubscribers: row.notify_subscribers,
    previousStatus: row.previous_status as MaintenanceStatus | null,
    previousStartsAt: row.previous_starts_at?.toISOString() ?? null,
    previousEndsAt: row.previous_ends_at?.toISOString() ?? null,
    dateAdjustments: adjusted ? { startsAt: row.adjusted_starts_at!.toISOString(), endsAt: row.adjusted_ends_at!.toISOString() } : null,
    automatic: row.automatic,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}
