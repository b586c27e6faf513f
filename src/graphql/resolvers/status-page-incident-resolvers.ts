import type { Resolvers } from '../__generated__/resolvers-types.js';
import { cursorConnection } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { isUuid, toGlobalId } from '../global-id.js';
import type { NodeType } from '../node-type.js';
import { incidentRestId, incidentUpdateGlobalId, incidentUpdateRestIds, statusPageServiceRestId } from '../status-page-incident-ids.js';
import { primeIncident } from '../status-page-incident-loaders.js';
import type { IncidentUpdateParent, RestIncident, RestIncidentPage, RestStatusPageService, RestStatusPageServicePage } from '../status-page-incident-types.js';
import { restCheckFields } from '../rest-check-fields.js';

const loadersOf = (ctx: GraphqlContext) => ctx.loaders.statusPageIncidents;

/** Node types of this module: services, incidents and incident updates (whose id carries the incident's). */
export const statusPageIncidentNodeTypes: NodeType[] = [
  {
    idType: 'StatusPageService',
    fetch: (ctx, restId) => (isUuid(restId) ? loadersOf(ctx).serviceById.load(restId) : Promise.resolve(null)),
    typeName: () => 'StatusPageService',
  },
  {
    idType: 'Incident',
    fetch: (ctx, restId) => (isUuid(restId) ? loadersOf(ctx).incidentById.load(restId) : Promise.resolve(null)),
    typeName: () => 'Incident',
  },
  {
    idType: 'IncidentUpdate',
    fetch: (ctx, restId) => (incidentUpdateRestIds(restId) ? loadersOf(ctx).updateByKey.load(restId) : Promise.resolve(null)),
    typeName: () => 'IncidentUpdate',
  },
];

/** The updates an incident carries, each knowing its incident (which is primed: walking back costs nothing). */
function updatesOf(incident: RestIncident, ctx: GraphqlContext): IncidentUpdateParent[] {
  // An event executed without REST access has no loaders to prime.
  const loaders = (ctx as Partial<GraphqlContext>).loaders?.statusPageIncidents;
  if (loaders) primeIncident(loaders, incident);
  return incident.incidentUpdates.map((u) => ({ ...u, incidentId: incident.id }));
}

const isOpen = (incident: RestIncident) => incident.lastUpdateStatus !== 'RESOLVED';

/**
 * Status page services, incidents and incident updates: the types, one by id, the cursor lists, the
 * relations both ways (incident → services and updates, service → incidents, update → incident,
 * check → the service of its incident automation) and the `incidentUpdated` event type.
 */
export const statusPageIncidentResolvers: Resolvers = {
  StatusPageService: {
    id: (s) => toGlobalId('StatusPageService', s.id),
    serviceId: (s) => s.id,
    // Batched: every service of the operation filters the one walk of the account's incidents.
    incidents: async (s, { open }, ctx) => (await loadersOf(ctx).allIncidents())
      .filter((i) => i.services.some((svc) => svc.id.toLowerCase() === s.id.toLowerCase()) && (open == null || isOpen(i) === open)),
    // A service nested in a page or an incident comes without its checks: its own read has them.
    linkedChecks: async (s, _args, ctx, info) => {
      // The loader may hold the service as a card or an incident primed it (without checks): ask REST then.
      const own = s.checks ?? (await ctx.rest.get<RestStatusPageService>(`/v1/status-pages/services/${encodeURIComponent(s.id)}`)).body.checks ?? [];
      const loaded = await Promise.all(own.map((c) => ctx.loaders.checkById.load(c.id, restCheckFields(info, false))));
      return loaded.filter((c) => c !== null);
    },
    autoIncident: (s) => s.autoIncident ?? false,
    createdAt: (s) => s.created_at,
    updatedAt: (s) => s.updated_at,
  },
  Incident: {
    id: (i) => toGlobalId('Incident', i.id),
    incidentId: (i) => i.id,
    updates: (i, _args, ctx) => updatesOf(i, ctx),
    open: (i) => isOpen(i),
    check: (i, _args, ctx, info) => (i.checkId ? ctx.loaders.checkById.load(i.checkId, restCheckFields(info, false)) : null),
    createdAt: (i) => i.created_at,
    updatedAt: (i) => i.updated_at,
  },
  IncidentUpdate: {
    id: (u) => incidentUpdateGlobalId(u.incidentId, u.id),
    incidentUpdateId: (u) => u.id,
    incident: (u, _args, ctx) => loadersOf(ctx).incidentById.load(u.incidentId),
    createdAt: (u) => u.created_at,
    updatedAt: (u) => u.updated_at,
  },
  TriggerIncident: {
    service: (t, _args, ctx) => (isUuid(t.serviceId) ? loadersOf(ctx).serviceById.load(t.serviceId) : null),
    openIncident: async (t, _args, ctx) => {
      const checkId = (t as { checkId?: string }).checkId?.toLowerCase();
      if (!checkId) return null;
      return (await loadersOf(ctx).allIncidents()).find((i) => i.checkId?.toLowerCase() === checkId && isOpen(i)) ?? null;
    },
  },
  IncidentEvent: {
    deleted: (e) => e.incident === null,
    incident: (e) => (e.incident as RestIncident | null),
  },
  Query: {
    statusPageService: (_root, { id }, ctx) => {
      const restId = statusPageServiceRestId(id);
      return restId === null ? null : loadersOf(ctx).serviceById.load(restId);
    },
    statusPageServices: (_root, { first, after }, ctx) =>
      cursorConnection(first, after, async (cursor, limit) => {
        const page = (await ctx.rest.get<RestStatusPageServicePage>('/v1/status-pages/services', { limit, nextId: cursor ?? undefined })).body;
        for (const s of page.entries) loadersOf(ctx).serviceById.prime(s.id.toLowerCase(), s);
        return { items: page.entries, next: page.nextId };
      }),
    incident: (_root, { id }, ctx) => {
      const restId = incidentRestId(id);
      return restId === null ? null : loadersOf(ctx).incidentById.load(restId);
    },
    incidents: (_root, { first, after }, ctx) =>
      cursorConnection(first, after, async (cursor, limit) => {
        const page = (await ctx.rest.get<RestIncidentPage>('/v1/status-pages/incidents', { limit, nextId: cursor ?? undefined })).body;
        for (const i of page.entries) primeIncident(loadersOf(ctx), i);
        return { items: page.entries, next: page.nextId };
      }),
    incidentUpdate: (_root, { id }, ctx) => {
      const ids = incidentUpdateRestIds(id);
      return ids === null ? null : loadersOf(ctx).updateByKey.load(`${ids.incidentId}:${ids.updateId}`);
    },
  },
};
