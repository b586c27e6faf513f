import type { MaintenanceSpan } from './check-maintenance.js';
import { dailyUptime, type ResultHour, type UptimeDay } from './daily-uptime.js';
import type { CheckHealth } from './next-check-status.js';
import type { IncidentStatus } from './incident-status-moves.js';
import { pageState, serviceState, type IncidentSeverity, type MaintenanceStatus, type ServiceState } from './service-state.js';

/** An update of an incident or a maintenance, as a public page shows it. */
export interface PublicUpdate {
  id: string;
  description: string;
  status: string | null;
  at: Date;
}

/** An incident touching at least one service of the page. Updates newest first. */
export interface PublicIncident {
  id: string;
  name: string;
  severity: IncidentSeverity;
  lastUpdateStatus: IncidentStatus;
  /** Seconds from the first update to the RESOLVED update that closed it; null while open or without one. */
  duration: number | null;
  createdAt: Date;
  updatedAt: Date | null;
  serviceIds: string[];
  updates: PublicUpdate[];
}

/** One occurrence of a maintenance window shown on the page. Updates newest first. */
export interface PublicMaintenance {
  id: string;
  windowId: number;
  name: string;
  description: string | null;
  status: MaintenanceStatus;
  startsAt: Date;
  endsAt: Date;
  /** Services of the page it affects. */
  serviceIds: string[];
  /** When false the maintenance does not excuse downtime in the uptime bars (statusPageVisibility.showAffectedServices). */
  showAffectedServices: boolean;
  updates: PublicUpdate[];
}

/** A check a service is built from: its current health (null: never ran) and its runs per hour. */
export interface PublicServiceCheck {
  health: CheckHealth | null;
  createdAt: Date;
  hours: readonly CheckHour[];
  /**
   * When a maintenance window covering the check (by its tags, or every check) ran, whether or not
   * the window is shown on the page: runs of those hours are the work going on, not downtime.
   */
  maintenance?: readonly MaintenanceSpan[];
  /** A maintenance covering the check is in progress now: its health is not news. */
  inMaintenance?: boolean;
}

/** One hour of one check's FINAL runs (monitoring only, not test sessions). */
export interface CheckHour {
  /** Start of the hour, ms since the epoch. */
  start: number;
  finalCount: number;
  failureCount: number;
  degradedCount: number;
}

export interface PublicCardInput {
  id: string;
  name: string;
  services: { id: string; name: string; createdAt: Date; checks?: readonly PublicServiceCheck[] }[];
}

export interface PublicPageInput {
  cards: PublicCardInput[];
  incidents: PublicIncident[];
  maintenances: PublicMaintenance[];
  now: Date;
  /** Uptime bars per service (90 on the page). */
  days: number;
}

export interface PublicServiceModel {
  id: string;
  name: string;
  state: ServiceState;
  /** Percent over the bars' range; null without data. */
  uptime: number | null;
  days: UptimeDay[];
}

export interface PublicCardModel {
  id: string;
  name: string;
  state: ServiceState;
  /** The average of its services' uptime ("card uptime = average of its services"); null without data. */
  uptime: number | null;
  services: PublicServiceModel[];
}

export interface PublicPageModel {
  state: ServiceState;
  cards: PublicCardModel[];
  /** Newest first. */
  openIncidents: PublicIncident[];
  /** Resolved incidents, newest first. */
  pastIncidents: PublicIncident[];
  activeMaintenances: PublicMaintenance[];
  /** Soonest first. */
  upcomingMaintenances: PublicMaintenance[];
  /** Completed or cancelled, newest first. */
  pastMaintenances: PublicMaintenance[];
}

const ACTIVE: ReadonlySet<MaintenanceStatus> = new Set(['IN_PROGRESS', 'VERIFYING']);
const CLOSED: ReadonlySet<MaintenanceStatus> = new Set(['COMPLETED', 'CANCELLED']);
const HOUR_MS = 3_600_000;
/** What a service whose every check is in maintenance counts as: a maintenance in progress. */
const IN_MAINTENANCE = { status: 'IN_PROGRESS' } as const;

/** When an incident started (its oldest update) and ended (start + duration once resolved). */
export function incidentSpan(incident: PublicIncident): { start: Date; end: Date | null } {
  const oldest = incident.updates.reduce<Date | null>((min, u) => (min === null || u.at < min ? u.at : min), null) ?? incident.createdAt;
  if (incident.lastUpdateStatus !== 'RESOLVED') return { start: oldest, end: null };
  return { start: oldest, end: new Date(oldest.getTime() + (incident.duration ?? 0) * 1000) };
}

/**
 * The result hours of a service from its checks' runs: per hour, the failure (degraded) share is
 * the average over the checks that ran in it of their failed (degraded) share of runs, so each
 * check weighs the same however often it runs.
 */
export function serviceResultHours(checks: readonly PublicServiceCheck[]): ResultHour[] {
  const byHour = new Map<number, { failure: number; degraded: number; checks: number }>();
  for (const check of checks) {
    const spans = check.maintenance ?? [];
    for (const h of check.hours) {
      if (h.finalCount <= 0) continue;
      // An hour a covering maintenance touched is left out for this check, as maintenance is from the bars.
      if (spans.some((m) => m.start.getTime() < h.start + HOUR_MS && m.end.getTime() > h.start)) continue;
      const failure = h.failureCount / h.finalCount;
      const sum = byHour.get(h.start) ?? { failure: 0, degraded: 0, checks: 0 };
      byHour.set(h.start, { failure: sum.failure + failure, degraded: sum.degraded + Math.min(h.degradedCount / h.finalCount, 1 - failure), checks: sum.checks + 1 });
    }
  }
  return [...byHour].sort(([a], [b]) => a - b)
    .map(([start, s]) => ({ start, failureShare: s.failure / s.checks, degradedShare: s.degraded / s.checks }));
}

/**
 * What a public status page shows, from its cards, the incidents on its services and the
 * maintenances shown on it. States come from serviceState (open incidents, then active
 * maintenance), uptime bars from dailyUptime (incidents drive them; maintenance is excluded unless
 * it does not show affected services). A service built from checks also takes its state from their
 * health (checksState) and its bars from their results (serviceResultHours; the worst of incidents
 * and results wins), counting from its oldest check's creation. Pure: the same input always
 * renders the same page.
 */
export function publicStatusPage(input: PublicPageInput): PublicPageModel {
  const incidentsOf = new Map<string, PublicIncident[]>();
  for (const incident of input.incidents) {
    for (const id of incident.serviceIds) incidentsOf.set(id, [...(incidentsOf.get(id) ?? []), incident]);
  }
  const maintenancesOf = new Map<string, PublicMaintenance[]>();
  for (const m of input.maintenances) {
    for (const id of m.serviceIds) maintenancesOf.set(id, [...(maintenancesOf.get(id) ?? []), m]);
  }
  const cards = input.cards.map((card): PublicCardModel => {
    const services = card.services.map((service): PublicServiceModel => {
      const incidents = incidentsOf.get(service.id) ?? [];
      const maintenances = maintenancesOf.get(service.id) ?? [];
      const checks = service.checks ?? [];
      const since = checks.reduce((min, c) => (c.createdAt < min ? c.createdAt : min), service.createdAt);
      const uptime = dailyUptime({
        incidents: incidents.map((i) => ({ ...incidentSpan(i), severity: i.severity })),
        maintenances: maintenances.filter((m) => m.showAffectedServices && m.status !== 'CANCELLED' && m.status !== 'SCHEDULED')
          .map((m) => ({ start: m.startsAt, end: m.endsAt < input.now ? m.endsAt : input.now })),
        now: input.now,
        days: input.days,
        createdAt: since,
        results: serviceResultHours(checks),
      });
      // Checks in maintenance say nothing of the service; when all of them are, the service is under maintenance.
      const allInMaintenance = checks.length > 0 && checks.every((c) => c.inMaintenance);
      const state = serviceState(incidents, allInMaintenance ? [...maintenances, IN_MAINTENANCE] : maintenances, checks.filter((c) => !c.inMaintenance).map((c) => c.health));
      return { id: service.id, name: service.name, state, uptime: uptime.uptime, days: uptime.days };
    });
    const measured = services.filter((s) => s.uptime !== null);
    return {
      id: card.id,
      name: card.name,
      state: pageState(services.map((s) => s.state)),
      uptime: measured.length ? measured.reduce((sum, s) => sum + s.uptime!, 0) / measured.length : null,
      services,
    };
  });
  const newest = (a: PublicIncident, b: PublicIncident) => incidentSpan(b).start.getTime() - incidentSpan(a).start.getTime();
  return {
    state: pageState(cards.map((c) => c.state)),
    cards,
    openIncidents: input.incidents.filter((i) => i.lastUpdateStatus !== 'RESOLVED').sort(newest),
    pastIncidents: input.incidents.filter((i) => i.lastUpdateStatus === 'RESOLVED').sort(newest),
    activeMaintenances: input.maintenances.filter((m) => ACTIVE.has(m.status)).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime()),
    upcomingMaintenances: input.maintenances.filter((m) => m.status === 'SCHEDULED' && m.endsAt > input.now).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime()),
    pastMaintenances: input.maintenances.filter((m) => CLOSED.has(m.status)).sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime()),
  };
}
