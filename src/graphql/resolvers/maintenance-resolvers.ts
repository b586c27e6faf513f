import type { Resolvers } from '../__generated__/resolvers-types.js';
import { CHECK_TYPE_NAMES } from '../check-type-name.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { isIntegerId, toGlobalId } from '../global-id.js';
import { maintenanceGlobalId, maintenanceRestIds, maintenanceUpdateGlobalId, maintenanceUpdateRestIds, maintenanceWindowRestId } from '../maintenance-ids.js';
import type { MaintenanceBounds } from '../maintenance-loaders.js';
import type { RestMaintenance, RestMaintenanceWindow } from '../maintenance-types.js';
import type { NodeType } from '../node-type.js';
import { toUpcomingMaintenanceBounds } from '../upcoming-maintenance-bounds.js';
import type { RestStatusPageService } from '../status-page-incident-types.js';
import type { RestStatusPage } from '../status-page-types.js';
import { loadersOf, primeServices, servicesOfPage } from './status-page-resolvers.js';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The values a loader found for `keys`, unknown ones left out; a failed load fails the field. */
async function found<K, V>(loader: { loadMany(keys: readonly K[]): Promise<(V | null | Error)[]> }, keys: readonly K[]): Promise<V[]> {
  const values = await loader.loadMany(keys);
  const failure = values.find((v): v is Error => v instanceof Error);
  if (failure) throw failure;
  return values.filter((v): v is V => v !== null);
}

/** The account's pages a window names (batched with every page of the operation). */
const pagesOf = (w: RestMaintenanceWindow, ctx: object) => found<string, RestStatusPage>(loadersOf(ctx).statusPages.pageById, w.statusPageVisibility.statusPageIds);

/** The services a window affects: those it names, or with affectAllServices every service of its pages. */
async function servicesOf(w: RestMaintenanceWindow, ctx: object): Promise<RestStatusPageService[]> {
  if (!w.statusPageVisibility.affectAllServices) return found(loadersOf(ctx).statusPageIncidents.serviceById, w.statusPageVisibility.serviceIds);
  const services = new Map<string, RestStatusPageService>();
  for (const page of await pagesOf(w, ctx)) for (const s of servicesOfPage(page)) services.set(s.id.toLowerCase(), s);
  return primeServices(ctx, [...services.values()]);
}

/** Whether a window affects a service (without reading pages when it names its services). */
async function affects(w: RestMaintenanceWindow, serviceId: string, ctx: GraphqlContext): Promise<boolean> {
  const v = w.statusPageVisibility;
  if (!v.affectAllServices) return v.serviceIds.some((id) => same(id, serviceId));
  if (v.statusPageIds.length === 0) return false;
  return (await pagesOf(w, ctx)).some((p) => servicesOfPage(p).some((s) => same(s.id, serviceId)));
}

const boundsOf = (args: { endsAfter?: string | null; startsBefore?: string | null }): MaintenanceBounds =>
  ({ endsAfter: args.endsAfter ?? null, startsBefore: args.startsBefore ?? null });

const nowOfOperation = new WeakMap<object, Date>();
/** One "now" per operation, so every field defaulting `from` to now shares its REST reads. */
function operationNow(ctx: object): Date {
  let now = nowOfOperation.get(ctx);
  if (!now) nowOfOperation.set(ctx, now = new Date());
  return now;
}

/** Node types of this module: windows, maintenances and updates (whose ids carry their parents'). */
export const maintenanceNodeTypes: NodeType[] = [
  {
    idType: 'MaintenanceWindow',
    fetch: (ctx, restId) => (isIntegerId(restId) ? ctx.loaders.maintenances.windowById.load(Number(restId)) : Promise.resolve(null)),
    typeName: () => 'MaintenanceWindow',
  },
  {
    idType: 'Maintenance',
    fetch: (ctx, restId) => {
      const ids = maintenanceRestIds(restId);
      return ids ? ctx.loaders.maintenances.maintenanceByKey.load(`${ids.maintenanceWindowId}:${ids.maintenanceId}`) : Promise.resolve(null);
    },
    typeName: () => 'Maintenance',
  },
  {
    idType: 'MaintenanceUpdate',
    fetch: (ctx, restId) => {
      const ids = maintenanceUpdateRestIds(restId);
      return ids ? ctx.loaders.maintenances.updateByKey.load(`${ids.maintenanceWindowId}:${ids.maintenanceId}:${ids.updateId}`) : Promise.resolve(null);
    },
    typeName: () => 'MaintenanceUpdate',
  },
];

/**
 * Maintenance windows, their maintenances and updates: the types, one by id, the window list, the
 * relations both ways (window → maintenances → updates and back, window → services and pages, service
 * → maintenances, page → windows) and the `maintenanceUpdated` event type.
 */
export const maintenanceResolvers: Resolvers = {
  MaintenanceWindow: {
    id: (w) => toGlobalId('MaintenanceWindow', w.id),
    maintenanceWindowId: (w) => w.id,
    // The window may come from an event: its links load through the event's loaders (loadersOf).
    maintenances: (w, args, ctx) => loadersOf(ctx).maintenances.maintenancesOf(w.id, boundsOf(args)),
    upcomingMaintenances: (w, args, ctx) => loadersOf(ctx).maintenances.upcomingOf(w.id, toUpcomingMaintenanceBounds(args, operationNow(ctx))),
    services: (w, _args, ctx) => servicesOf(w, ctx),
    statusPages: (w, _args, ctx) => pagesOf(w, ctx),
    createdAt: (w) => w.created_at,
    updatedAt: (w) => w.updated_at,
  },
  CheckMaintenance: {
    maintenanceId: (m) => maintenanceGlobalId(m.maintenanceWindowId, m.maintenanceId),
    windowId: (m) => toGlobalId('MaintenanceWindow', m.maintenanceWindowId),
    windowName: (m) => m.maintenanceWindowName,
    window: (m, _args, ctx) => ctx.loaders.maintenances.windowById.load(m.maintenanceWindowId),
  },
  ...Object.fromEntries(Object.values(CHECK_TYPE_NAMES).map((name) => [name, {
    maintenance: (c: { id: string }, _args: unknown, ctx: GraphqlContext) => ctx.loaders.maintenances.checkMaintenance.load(c.id),
  }])),
  Maintenance: {
    id: (m) => maintenanceGlobalId(m.maintenanceWindowId, m.id),
    maintenanceId: (m) => m.id,
    window: (m, _args, ctx) => loadersOf(ctx).maintenances.windowById.load(m.maintenanceWindowId),
    updates: (m, _args, ctx) => loadersOf(ctx).maintenances.updatesOf.load(`${m.maintenanceWindowId}:${m.id}`),
    createdAt: (m) => m.created_at,
    updatedAt: (m) => m.updated_at,
  },
  MaintenanceUpdate: {
    id: (u) => maintenanceUpdateGlobalId(u.maintenanceWindowId, u.maintenanceId, u.id),
    maintenanceUpdateId: (u) => u.id,
    maintenance: (u, _args, ctx) => ctx.loaders.maintenances.maintenanceByKey.load(`${u.maintenanceWindowId}:${u.maintenanceId}`),
    createdAt: (u) => u.created_at,
    updatedAt: (u) => u.updated_at,
  },
  StatusPageService: {
    // Batched: every service filters the one walk of the windows; each window's maintenances are read once.
    maintenances: async (s, args, ctx) => {
      const windows = await ctx.loaders.maintenances.allWindows();
      const affecting = (await Promise.all(windows.map(async (w) => ((await affects(w, s.id, ctx)) ? w : null)))).filter((w) => w !== null);
      const lists = await Promise.all(affecting.map((w) => ctx.loaders.maintenances.maintenancesOf(w.id, boundsOf(args))));
      return lists.flat().sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.maintenanceWindowId - b.maintenanceWindowId);
    },
    // Each affecting window's first `first` are enough: the merged first `first` are among them.
    upcomingMaintenances: async (s, args, ctx) => {
      const bounds = toUpcomingMaintenanceBounds(args, operationNow(ctx));
      const windows = await ctx.loaders.maintenances.allWindows();
      const affecting = (await Promise.all(windows.map(async (w) => ((await affects(w, s.id, ctx)) ? w : null)))).filter((w) => w !== null);
      const lists = await Promise.all(affecting.map((w) => ctx.loaders.maintenances.upcomingOf(w.id, bounds)));
      return lists.flat().sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.maintenanceWindowId - b.maintenanceWindowId).slice(0, bounds.first);
    },
  },
  StatusPage: {
    maintenanceWindows: async (p, _args, ctx) => (await ctx.loaders.maintenances.allWindows())
      .filter((w) => w.statusPageVisibility.statusPageIds.some((id) => same(id, p.id))),
  },
  MaintenanceEvent: {
    deleted: (e) => e.maintenance === null,
    maintenance: (e) => (e.maintenanceId !== null ? (e.maintenance as RestMaintenance | null) : null),
    // A write of the window carries the window; after any other, the window is read (unless it was deleted).
    maintenanceWindow: (e, _args, ctx) => {
      if (e.maintenanceId === null) return e.maintenance as RestMaintenanceWindow | null;
      return loadersOf(ctx).maintenances.windowById.load(e.maintenanceWindowId);
    },
  },
  Query: {
    maintenanceWindow: (_root, { id }, ctx) => {
      const restId = maintenanceWindowRestId(id);
      return restId === null ? null : ctx.loaders.maintenances.windowById.load(restId);
    },
    maintenanceWindows: (_root, { first, after }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestMaintenanceWindow[]>('/v1/maintenance-windows', { page, limit });
        for (const w of res.body) ctx.loaders.maintenances.windowById.prime(w.id, w);
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
    maintenance: (_root, { id }, ctx) => {
      const ids = maintenanceRestIds(id);
      return ids === null ? null : ctx.loaders.maintenances.maintenanceByKey.load(`${ids.maintenanceWindowId}:${ids.maintenanceId}`);
    },
  },
};
