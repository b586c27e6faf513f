import type { IncidentStatus } from '../domain/incident-status-moves.js';
import type { Repositories } from '../store/repositories.js';
import type { StatusPageIncidentRow, StatusPageIncidentUpdateRow } from '../store/status-page-incidents-repository.js';
import type { StatusPageServiceRow } from '../store/status-page-services-repository.js';

/** Updates an incident read shows, and the incident-updates list answers (the real API's "100 latest"). */
export const LATEST_UPDATES = 100;

/** A service's REST view; `checks` (its own routes only) are the checks it is built from, in order. */
export function toServiceView(row: StatusPageServiceRow, checks?: readonly { check_id: string; name: string }[]) {
  return {
    id: row.id, name: row.name, accountId: row.account_id, autoIncident: row.auto_incident,
    ...(checks ? { checks: checks.map((c) => ({ id: c.check_id, name: c.name })) } : {}),
    created_at: row.created_at.toISOString(), updated_at: row.updated_at?.toISOString() ?? null,
  };
}

/** Services with their checks, in the order of `rows`. */
export async function serviceViews(repos: Repositories, rows: StatusPageServiceRow[]) {
  if (rows.length === 0) return [];
  const checks = await repos.statusPageServices.checksOf(rows[0]!.account_id, rows.map((r) => r.id));
  return rows.map((row) => toServiceView(row, checks.filter((c) => c.service_id === row.id)));
}

export function toIncidentUpdateView(row: StatusPageIncidentUpdateRow) {
  return {
    id: row.id,
    description: row.description,
    status: row.status as IncidentStatus | null,
    publicIncidentUpdateDate: row.public_incident_update_date.toISOString(),
    notifySubscribers: row.notify_subscribers,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}

function toIncidentView(row: StatusPageIncidentRow, services: StatusPageServiceRow[], updates: StatusPageIncidentUpdateRow[]) {
  return {
    id: row.id,
    name: row.name,
    severity: row.severity,
    services: services.map((s) => toServiceView(s)),
    incidentUpdates: updates.map(toIncidentUpdateView),
    lastUpdateStatus: row.last_update_status as IncidentStatus,
    duration: row.duration,
    checkId: row.check_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}

/** Incidents with their services and latest updates, in the order of `rows`. */
export async function incidentViews(repos: Repositories, rows: StatusPageIncidentRow[]) {
  const ids = rows.map((r) => r.id);
  const [services, updates] = await Promise.all([
    repos.statusPageIncidents.servicesOf(ids), repos.statusPageIncidents.updatesOf(ids, LATEST_UPDATES),
  ]);
  return rows.map((row) => toIncidentView(row, services.filter((s) => s.incident_id === row.id), updates.filter((u) => u.incident_id === row.id)));
}

