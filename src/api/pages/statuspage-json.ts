import type { PublicIncident, PublicMaintenance, PublicPageModel } from '../../domain/public-status-page.js';
import type { ServiceState } from '../../domain/service-state.js';

/** The page part of every Statuspage-compatible document. */
export interface StatuspagePage {
  id: string;
  name: string;
  url: string;
  updatedAt: Date | null;
}

const COMPONENT_STATUS: Record<ServiceState, string> = {
  OPERATIONAL: 'operational',
  UNDER_MAINTENANCE: 'under_maintenance',
  DEGRADED: 'degraded_performance',
  PARTIAL_OUTAGE: 'partial_outage',
  MAJOR_OUTAGE: 'major_outage',
};
const INDICATOR: Record<ServiceState, { indicator: string; description: string }> = {
  OPERATIONAL: { indicator: 'none', description: 'All Systems Operational' },
  UNDER_MAINTENANCE: { indicator: 'maintenance', description: 'Service Under Maintenance' },
  DEGRADED: { indicator: 'minor', description: 'Minor Service Outage' },
  PARTIAL_OUTAGE: { indicator: 'major', description: 'Partial System Outage' },
  MAJOR_OUTAGE: { indicator: 'critical', description: 'Major Service Outage' },
};
const IMPACT: Record<string, string> = { MINOR: 'minor', MEDIUM: 'major', MAJOR: 'major', CRITICAL: 'critical' };

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

function pageOf(page: StatuspagePage) {
  return { id: page.id, name: page.name, url: page.url, time_zone: 'Etc/UTC', updated_at: iso(page.updatedAt) };
}

function components(model: PublicPageModel, page: StatuspagePage) {
  let position = 0;
  return model.cards.flatMap((card) => [
    {
      id: card.id, name: card.name, status: COMPONENT_STATUS[card.state], created_at: null, updated_at: null, position: ++position,
      description: null, showcase: true, start_date: null, group_id: null, page_id: page.id, group: true, only_show_if_degraded: false,
      components: card.services.map((s) => s.id),
    },
    ...card.services.map((s) => ({
      id: s.id, name: s.name, status: COMPONENT_STATUS[s.state], created_at: null, updated_at: null, position: ++position,
      description: null, showcase: true, start_date: null, group_id: card.id, page_id: page.id, group: false, only_show_if_degraded: false,
    })),
  ]);
}

function incident(i: PublicIncident, page: StatuspagePage, names: Map<string, string>) {
  const oldest = i.updates.at(-1)?.at ?? i.createdAt;
  const resolvedAt = i.lastUpdateStatus === 'RESOLVED' ? new Date(oldest.getTime() + (i.duration ?? 0) * 1000) : null;
  const monitoring = i.updates.find((u) => u.status === 'MONITORING');
  return {
    id: i.id, name: i.name, status: i.lastUpdateStatus.toLowerCase(), created_at: iso(i.createdAt), updated_at: iso(i.updatedAt ?? i.createdAt),
    monitoring_at: iso(monitoring?.at), resolved_at: iso(resolvedAt), impact: IMPACT[i.severity] ?? 'minor',
    shortlink: `${page.url}/incidents/${i.id}`, started_at: iso(oldest), page_id: page.id,
    incident_updates: i.updates.map((u) => ({
      id: u.id, status: (u.status ?? i.lastUpdateStatus).toLowerCase(), body: u.description, incident_id: i.id,
      created_at: iso(u.at), updated_at: iso(u.at), display_at: iso(u.at), affected_components: null, deliver_notifications: true,
    })),
    components: i.serviceIds.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id) })),
  };
}

function maintenance(m: PublicMaintenance, page: StatuspagePage, names: Map<string, string>) {
  return {
    id: m.id, name: m.name, status: m.status.toLowerCase(), created_at: iso(m.startsAt), updated_at: iso(m.updates[0]?.at ?? m.startsAt),
    monitoring_at: null, resolved_at: m.status === 'COMPLETED' ? iso(m.endsAt) : null, impact: 'maintenance',
    shortlink: `${page.url}/maintenances/${m.id}`, started_at: iso(m.startsAt), page_id: page.id,
    incident_updates: m.updates.map((u) => ({
      id: u.id, status: (u.status ?? m.status).toLowerCase(), body: u.description, incident_id: m.id,
      created_at: iso(u.at), updated_at: iso(u.at), display_at: iso(u.at), affected_components: null, deliver_notifications: true,
    })),
    components: m.serviceIds.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id) })),
    scheduled_for: iso(m.startsAt), scheduled_until: iso(m.endsAt),
  };
}

const namesOf = (model: PublicPageModel) => new Map(model.cards.flatMap((c) => c.services.map((s) => [s.id, s.name] as const)));

/** `/api/v2/status.json`: the page and its overall indicator. */
export function statuspageStatus(page: StatuspagePage, model: PublicPageModel) {
  return { page: pageOf(page), status: INDICATOR[model.state] };
}

/** `/api/v2/summary.json`: components, unresolved incidents, upcoming and active maintenance, status. */
export function statuspageSummary(page: StatuspagePage, model: PublicPageModel) {
  const names = namesOf(model);
  return {
    page: pageOf(page),
    components: components(model, page),
    incidents: model.openIncidents.map((i) => incident(i, page, names)),
    scheduled_maintenances: [...model.activeMaintenances, ...model.upcomingMaintenances].map((m) => maintenance(m, page, names)),
    status: INDICATOR[model.state],
  };
}

/** `/api/v2/incidents.json`: the 50 most recent incidents, open or resolved. */
export function statuspageIncidents(page: StatuspagePage, model: PublicPageModel) {
  const names = namesOf(model);
  return { page: pageOf(page), incidents: [...model.openIncidents, ...model.pastIncidents].slice(0, 50).map((i) => incident(i, page, names)) };
}
