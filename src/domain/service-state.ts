import type { IncidentStatus } from './incident-status-moves.js';
import type { CheckHealth } from './next-check-status.js';

/** Incident severities of service-api.md. */
export const INCIDENT_SEVERITIES = ['MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];

/** Maintenance update statuses of service-api.md. */
export type MaintenanceStatus = 'SCHEDULED' | 'IN_PROGRESS' | 'VERIFYING' | 'COMPLETED' | 'CANCELLED';

/** What a status page card shows for a service, best first. */
export const SERVICE_STATES = ['OPERATIONAL', 'UNDER_MAINTENANCE', 'DEGRADED', 'PARTIAL_OUTAGE', 'MAJOR_OUTAGE'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

/**
 * Severity → state. Neither spec maps them; the names line up with the usual status-page wording,
 * and MINOR matches "degraded" as conventions.md uses it for runs that still count as available.
 */
export const SEVERITY_STATE: Readonly<Record<IncidentSeverity, ServiceState>> = {
  MINOR: 'DEGRADED',
  MEDIUM: 'PARTIAL_OUTAGE',
  MAJOR: 'MAJOR_OUTAGE',
  CRITICAL: 'MAJOR_OUTAGE',
};

/** Maintenance lifecycle statuses during which the work is going on ("In progress → (Verifying)"). */
const ACTIVE_MAINTENANCE: ReadonlySet<MaintenanceStatus> = new Set(['IN_PROGRESS', 'VERIFYING']);

export interface ServiceIncident {
  severity: IncidentSeverity;
  lastUpdateStatus: IncidentStatus;
}

export interface ServiceMaintenance {
  /** The occurrence's current lifecycle status. */
  status: MaintenanceStatus;
}

/** The worse of two states, by the order of SERVICE_STATES. */
function worse(a: ServiceState, b: ServiceState): ServiceState {
  return SERVICE_STATES.indexOf(a) >= SERVICE_STATES.indexOf(b) ? a : b;
}

/**
 * What a service's checks say (checks that never ran say nothing): all failing → MAJOR_OUTAGE,
 * some failing → PARTIAL_OUTAGE, any degraded → DEGRADED, otherwise OPERATIONAL.
 */
export function checksState(healths: readonly (CheckHealth | null)[]): ServiceState {
  const known = healths.filter((h): h is CheckHealth => h !== null);
  const failing = known.filter((h) => h === 'FAILING').length;
  if (failing > 0) return failing === known.length ? 'MAJOR_OUTAGE' : 'PARTIAL_OUTAGE';
  return known.includes('DEGRADED') ? 'DEGRADED' : 'OPERATIONAL';
}

/**
 * A service's current state. Open incidents (latest update not RESOLVED) decide it by their worst
 * severity; with none, an active maintenance (IN_PROGRESS or VERIFYING) makes it UNDER_MAINTENANCE;
 * otherwise OPERATIONAL. An open incident wins over maintenance: automatic incidents can be
 * suppressed during maintenance (`suppressAutoIncidents`), so an incident that is open anyway is
 * news visitors need, while the maintenance still shows in its own banner. Pass only maintenances
 * shown on the page (`statusPageVisibility.enabled`) that affect this service. A service built
 * from checks also takes the worse of that and checksState of their current health, except while
 * it is under maintenance.
 */
export function serviceState(
  incidents: readonly ServiceIncident[], maintenances: readonly ServiceMaintenance[], checks: readonly (CheckHealth | null)[] = [],
): ServiceState {
  const underMaintenance = maintenances.some((m) => ACTIVE_MAINTENANCE.has(m.status));
  // Failing checks during maintenance are the work going on, not news: maintenance shows instead.
  let state: ServiceState = underMaintenance ? 'UNDER_MAINTENANCE' : checksState(checks);
  for (const incident of incidents) {
    if (incident.lastUpdateStatus !== 'RESOLVED') state = worse(state, SEVERITY_STATE[incident.severity]);
  }
  return state;
}

/**
 * The state of a whole page (or card): the worst state of its services in the order OPERATIONAL <
 * UNDER_MAINTENANCE < DEGRADED < PARTIAL_OUTAGE < MAJOR_OUTAGE; OPERATIONAL with no services.
 */
export function pageState(states: readonly ServiceState[]): ServiceState {
  return states.reduce<ServiceState>(worse, 'OPERATIONAL');
}
