import { AlertChannelCreate, AlertChannelUpdate } from '../../contract/alert-channel-schemas.js';
import { DashboardBody, type DashboardBodyInput } from '../../contract/dashboard-schemas.js';
import { MaintenanceWindowCreate, MaintenanceWindowPut } from '../../contract/maintenance-window-schemas.js';
import { PrivateLocationCreate, PrivateLocationUpdate } from '../../contract/private-location-schemas.js';
import { ServiceBody, type ServiceBodyType } from '../../contract/status-page-incident-schemas.js';
import { StatusPageBody, type StatusPageBodyType } from '../../contract/status-page-schemas.js';
import { validateBody } from '../../contract/validation.js';
import { CHECK_TYPES, type CheckType } from '../../domain/catalog.js';
import { LookoutError } from '../../domain/lookout-error.js';
import type { SubmittedResource } from '../../domain/plan-deployment.js';
import { resolveSharedFiles, SHARED_FILE_KEYS } from '../../domain/shared-file-refs.js';
import { withPrivateLocations } from './assign-private-locations.js';
import type { DeploymentContext } from './deployment-context.js';
import { aboutResource, resolveRefs } from './resolve-refs.js';

/** The kinds a deploy creates or replaces, in dependency order: what names nothing first, checks after groups. */
export const UPSERTED_KINDS = [
  'alert-channel', 'check-group', 'check', 'maintenance-window', 'status-page-service', 'status-page', 'dashboard',
] as const;

/** A construct's payload with its `{ ref }`s resolved; each kind validates it through its service's schema. */
type Payload = Record<string, any>; // the CLI's free-form construct output, validated by each kind below

/** Creates the resource, or replaces the one the project owns (`existing`); answers its physical id. */
type Upsert = (ctx: DeploymentContext, body: Payload, existing: string | undefined, r: SubmittedResource, runsIn: Map<string, string[]>) => Promise<string | number>;

/**
 * What a dashboard takes for each field its construct emits but leaves out: a deploy replaces
 * whole, so an update clears ("" removes an optional text) or resets what the project dropped.
 */
const DASHBOARD_DEPLOY_DEFAULTS = {
  customDomain: '', logo: '', favicon: '', link: '', description: '', header: '', width: 'FULL', refreshRate: 60, paginate: true,
  paginationRate: 60, checksPerPage: 15, useTagsAndOperator: false, hideTags: false, enableIncidents: false, expandChecks: false,
  showHeader: true, isPrivate: false, showP95: true, showP99: true, tags: [],
};

const UPSERTS: Record<(typeof UPSERTED_KINDS)[number], Upsert> = {
  async 'alert-channel'({ services: { channels }, accountId }, body, existing) {
    const view = existing
      ? await channels.update(accountId, Number(existing), validateBody(AlertChannelUpdate, body))
      : await channels.create(accountId, validateBody(AlertChannelCreate, body));
    return view.id;
  },

  async 'check-group'({ services: { groups }, accountId }, { v: _version, ...payload }, existing, r, runsIn) {
    const body = withPrivateLocations(runsIn, r, payload);
    const view = existing ? await groups.replace(accountId, Number(existing), body) : await groups.create(accountId, body, { autoAssignAlerts: false });
    return view.id;
  },

  async check(ctx, { checkType, ...payload }, existing, r, runsIn) {
    const { services: { checks }, accountId } = ctx;
    const body = withPrivateLocations(runsIn, r, payload);
    for (const key of SHARED_FILE_KEYS) {
      if (!Array.isArray(body[key])) continue;
      const resolved = resolveSharedFiles(body[key], ctx.sharedFiles, key);
      if ('issues' in resolved) throw new LookoutError('VALIDATION', `${key} name files sharedFiles does not hold`, { issues: resolved.issues });
      body[key] = resolved.files;
    }
    if (!(CHECK_TYPES as readonly string[]).includes(checkType)) {
      throw new LookoutError('VALIDATION', `unknown checkType "${String(checkType)}"`, { issues: [{ key: 'checkType', message: `must be one of ${CHECK_TYPES.join(', ')}` }] });
    }
    const view = existing
      ? await checks.replace(accountId, existing, checkType as CheckType, body)
      : await checks.create(accountId, checkType as CheckType, body, { autoAssignAlerts: false });
    return view.id;
  },

  async 'maintenance-window'({ services: { windows }, accountId }, { v: _version, ...payload }, existing) {
    // The construct omits what it does not set; a deploy replaces whole, so absent repetition clears it.
    const body = { repeatUnit: null, repeatInterval: null, repeatEndsAt: null, tags: [], ...payload };
    const view = existing
      ? await windows.update(accountId, Number(existing), validateBody(MaintenanceWindowPut, body))
      : await windows.create(accountId, validateBody(MaintenanceWindowCreate, body));
    return view.id;
  },

  async 'status-page-service'({ services: { pageServices }, accountId }, payload, existing) {
    const body = validateBody<ServiceBodyType>(ServiceBody, payload);
    const view = existing ? await pageServices.update(accountId, existing, body) : await pageServices.create(accountId, body);
    return view.id;
  },

  async 'status-page'({ services: { pages }, accountId }, { cards, ...fields }, existing) {
    // The construct's cards name services by id (resolved refs); the REST body by `{ id }`.
    const restCards = Array.isArray(cards)
      ? cards.map((c: Payload) => ({ ...c, services: Array.isArray(c?.services) ? c.services.map((id: unknown) => ({ id })) : c?.services }))
      : cards;
    // A deploy replaces whole: what the construct leaves out is cleared (or the default).
    const body = validateBody<StatusPageBodyType>(StatusPageBody, {
      customDomain: null, logo: null, favicon: null, redirectTo: null, defaultTheme: 'AUTO', ...fields, cards: restCards,
    });
    const view = existing ? await pages.update(accountId, existing, body) : await pages.create(accountId, body);
    return view.id;
  },

  async dashboard({ services: { dashboards }, accountId }, payload, existing) {
    const body = validateBody<DashboardBodyInput>(DashboardBody, { ...DASHBOARD_DEPLOY_DEFAULTS, ...payload });
    const view = existing ? await dashboards.update(accountId, existing, body) : await dashboards.create(accountId, body);
    return view.dashboardId;
  },
};

/** Creates or replaces one resource of an upserted kind and records its id; errors name the resource. */
export async function upsertProjectResource(ctx: DeploymentContext, kind: (typeof UPSERTED_KINDS)[number], r: SubmittedResource, runsIn: Map<string, string[]>): Promise<void> {
  try {
    const existing = ctx.physical.get(`${kind}:${r.logicalId}`);
    const body = resolveRefs(r.payload, ctx.ids) as Payload;
    ctx.record(r, await UPSERTS[kind](ctx, body, existing, r, runsIn));
  } catch (err) {
    throw aboutResource(err, r);
  }
}

/** Creates or replaces one private location (before everything else: assignments need its slug). */
export async function upsertPrivateLocation(ctx: DeploymentContext, r: SubmittedResource): Promise<void> {
  const { services: { privateLocations }, accountId } = ctx;
  try {
    const existing = ctx.physical.get(`private-location:${r.logicalId}`);
    const body = resolveRefs(r.payload, ctx.ids) as Payload;
    // A deploy replaces whole: an icon or proxy the construct no longer sets is removed ("").
    const view = existing
      ? await privateLocations.update(accountId, existing, validateBody(PrivateLocationUpdate, { ...body, icon: body?.icon ?? '', proxyUrl: body?.proxyUrl ?? '' }))
      : await privateLocations.create(accountId, validateBody(PrivateLocationCreate, body), { withKey: false });
    ctx.record(r, view.id);
    ctx.slugOf.set(r.logicalId, view.slugName);
  } catch (err) {
    throw aboutResource(err, r);
  }
}
