import { AlertChannelCreate, AlertChannelUpdate } from '../contract/alert-channel-schemas.js';
import { DashboardBody, type DashboardBodyInput } from '../contract/dashboard-schemas.js';
import { MaintenanceWindowCreate, MaintenanceWindowPut } from '../contract/maintenance-window-schemas.js';
import { PrivateLocationCreate, PrivateLocationUpdate } from '../contract/private-location-schemas.js';
import { ServiceBody } from '../contract/status-page-incident-schemas.js';
import { StatusPageBody, type StatusPageBodyType } from '../contract/status-page-schemas.js';
import { validateBody } from '../contract/validation.js';
import { CHECK_TYPES, type CheckType } from '../domain/catalog.js';
import { isUuid } from '../domain/is-uuid.js';
import { resolveSharedFiles } from '../domain/shared-file-refs.js';
import { LookoutError, assertValid, notFound, type Issue } from '../domain/lookout-error.js';
import { planDeployment, type DiffEntry, type StoredResource, type SubmittedResource } from '../domain/plan-deployment.js';
import type { Store } from '../store/create-store.js';
import type { Queryable } from '../store/db.js';
import { createProjectsRepository, type DeploymentRow } from '../store/projects-repository.js';
import { repositories, type Repositories } from '../store/repositories.js';
import { createAlertChannelService } from './alert-channel-service.js';
import { createCheckGroupService } from './check-group-service.js';
import { createCheckService } from './check-service.js';
import { createDashboardService } from './dashboard-service.js';
import { createMaintenanceWindowService } from './maintenance-window-service.js';
import { createPrivateLocationService } from './private-location-service.js';
import { createStatusPageIncidentService } from './status-page-incident-service.js';
import { createStatusPagesService } from './status-pages-service.js';
import { dedupeSubscriptions, referenceIssues } from './reference-issues.js';
import { toProjectView } from './project-view.js';

/** The deploy body of the CLI (`projectBundle.synthesize()` plus `repoInfo`). */
export interface DeployBody {
  project: { logicalId: string; name: string; repoUrl?: string | null };
  resources: { logicalId: string; type: string; member?: boolean; physicalId?: string | number | null; payload: unknown }[];
  /** Project files browser and multi-step checks import, named in their `dependencies` by index. */
  sharedFiles?: unknown[];
}

/** A store whose `transaction` joins an already open one: the services' rules run inside the deploy's transaction. */
function joinedStore(store: Store, repos: Repositories): Store {
  return { ...repos, db: store.db, transaction: (fn) => fn(repos), close: () => store.close() };
}

/** `{ ref }` replaced by the physical id of the resource it names (numbers for groups and channels). */
function resolveRefs(value: unknown, ids: Map<string, string | number>): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, ids));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && entries[0]![0] === 'ref' && typeof entries[0]![1] === 'string') return ids.get(entries[0]![1]);
  return Object.fromEntries(entries.map(([k, v]) => [k, resolveRefs(v, ids)]));
}

/** A service error about one resource, re-keyed under its logical id so the 400 names it. */
function aboutResource(err: unknown, r: { type: string; logicalId: string }): unknown {
  if (!(err instanceof LookoutError) || !['VALIDATION', 'NOT_FOUND', 'CONFLICT'].includes(err.code)) return err;
  const issues: Issue[] = err.issues.length
    ? err.issues.map((i) => ({ key: `resources.${r.logicalId}.payload.${i.key}`, message: i.message }))
    : [{ key: `resources.${r.logicalId}`, message: err.message }];
  return new LookoutError(err.code === 'CONFLICT' ? 'CONFLICT' : 'VALIDATION', `${r.type} "${r.logicalId}": ${err.message}`, { issues, source: 'payload' });
}

/**
 * What a dashboard takes for each field its construct emits but leaves out: a deploy replaces
 * whole, so an update clears ("" removes an optional text) or resets what the project dropped.
 */
const DASHBOARD_DEPLOY_DEFAULTS = {
  customDomain: '', logo: '', favicon: '', link: '', description: '', header: '', width: 'FULL', refreshRate: 60, paginate: true,
  paginationRate: 60, checksPerPage: 15, useTagsAndOperator: false, hideTags: false, enableIncidents: false, expandChecks: false,
  showHeader: true, isPrivate: false, showP95: true, showP99: true, tags: [],
};

const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

/** A deployment as the CLI follows it: `result.diff` on success, `error.message` on failure. */
export function toDeploymentView(row: DeploymentRow): Record<string, any> {
  return {
    id: row.id,
    projectLogicalId: row.project_logical_id,
    kind: row.kind,
    status: row.status,
    result: row.status === 'SUCCEEDED' ? { diff: row.diff } : null,
    error: row.error ? { message: row.error } : null,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at ? row.finished_at.toISOString() : null,
  };
}

/**
 * Monitoring-as-code projects: `checkly deploy` reconciles a project's resources in one
 * transaction (created, replaced whole with ids kept, removed), `checkly destroy` removes them.
 * Deployments run synchronously: the answer already carries their final state.
 */
export function createProjectService({ store, publicUrl }: { store: Store; publicUrl: string }) {
  const projects = createProjectsRepository(store.db);

  /** Applies the resources in one transaction; answers the resources the project then owns and the diff with physical ids. */
  async function apply(
    tx: Queryable, accountId: string, projectId: number, plan: { order: SubmittedResource[]; outside: SubmittedResource[]; deletes: StoredResource[] }, diff: DiffEntry[],
    sharedFiles: unknown[] = [],
  ) {
    const { order: submitted, outside, deletes } = plan;
    const repos = repositories(tx);
    const joined = joinedStore(store, repos);
    const checks = createCheckService({ store: joined, publicUrl });
    const groups = createCheckGroupService({ store: joined });
    const channels = createAlertChannelService({ store: joined });
    // No bus: events would go out before the deploy commits; the public content version still moves,
    // and maintenance clocks look again within a minute.
    const windows = createMaintenanceWindowService({ store: joined }).windows;
    const pageServices = createStatusPageIncidentService({ store: joined }).services;
    const pages = createStatusPagesService({ store: joined });
    const dashboards = createDashboardService({ store: joined, publicUrl });
    const privateLocations = createPrivateLocationService({ store: joined });
    const physical = new Map(diff.filter((d) => d.physicalId != null).map((d) => [`${d.type}:${d.logicalId}`, d.physicalId!]));
    const ids = new Map<string, string | number>();
    const owned: StoredResource[] = [];
    const record = (r: SubmittedResource, id: string | number | null) => {
      if (id != null) ids.set(r.logicalId, id);
      owned.push({ type: r.type, logicalId: r.logicalId, physicalId: id == null ? null : String(id) });
      const entry = diff.find((d) => d.type === r.type && d.logicalId === r.logicalId);
      if (entry) entry.physicalId = id == null ? null : String(id);
    };
    /** Slug of each private location of the deploy (project's own or lent), by logical id: checks run in slugs. */
    const slugOf = new Map<string, string>();
    // Resources outside the project lend their ids, once they are known to be the caller's.
    for (const r of outside) {
      const id = String(r.physicalId);
      const location = r.type === 'private-location' && isUuid(id) ? await repos.privateLocations.get(accountId, id) : undefined;
      if (location) slugOf.set(r.logicalId, location.slug_name);
      const exists = r.type === 'alert-channel' ? (await repos.references.alertChannels(accountId, [Number(id)])).has(id)
        : r.type === 'check-group' ? (await repos.references.groups(accountId, [Number(id)])).has(id)
          : r.type === 'check' ? isUuid(id) && (await repos.checks.get(accountId, id)) !== undefined
            : location !== undefined;
      if (!exists) {
        throw new LookoutError('VALIDATION', `${r.type} "${r.logicalId}": ${r.type} ${id} does not exist in the account`, {
          issues: [{ key: `resources.${r.logicalId}.physicalId`, message: `${r.type} ${id} does not exist` }],
          source: 'payload',
        });
      }
      ids.set(r.logicalId, r.type === 'check' || r.type === 'private-location' ? id : Number(id));
    }
    // Kinds in dependency order: private locations, channels and groups name nothing, checks name groups, subscriptions name all.
    const ofType = (t: string) => submitted.filter((r) => r.type === t);
    for (const r of ofType('private-location')) {
      try {
        const existing = physical.get(`private-location:${r.logicalId}`);
        const body = resolveRefs(r.payload, ids) as Record<string, any>;
        // A deploy replaces whole: an icon or proxy the construct no longer sets is removed ("").
        const view = existing
          ? await privateLocations.update(accountId, existing, validateBody(PrivateLocationUpdate, { ...body, icon: body?.icon ?? '', proxyUrl: body?.proxyUrl ?? '' }))
          : await privateLocations.create(accountId, validateBody(PrivateLocationCreate, body), { withKey: false });
        record(r, view.id);
        slugOf.set(r.logicalId, view.slugName);
      } catch (err) { throw aboutResource(err, r); }
    }
    // Assignments say where the project's checks and groups run privately: exactly the declared ones,
    // besides any slugs a payload names itself.
    const runsIn = new Map<string, string[]>();
    for (const r of ofType('check')) runsIn.set(`check:${r.logicalId}`, []);
    for (const r of ofType('check-group')) runsIn.set(`check-group:${r.logicalId}`, []);
    for (const r of [...ofType('private-location-check-assignment'), ...ofType('private-location-group-assignment')]) {
      const p = (r.payload ?? {}) as Record<string, any>;
      const [kind, key] = r.type === 'private-location-check-assignment' ? ['check', 'checkId'] : ['check-group', 'groupId'];
      const slug = typeof p.privateLocationId?.ref === 'string' ? slugOf.get(p.privateLocationId.ref) : undefined;
      const list = typeof p[key]?.ref === 'string' ? runsIn.get(`${kind}:${p[key].ref}`) : undefined;
      if (slug === undefined || list === undefined) {
        throw new LookoutError('VALIDATION', `${r.type} "${r.logicalId}": must reference a private location and a ${kind} of the project`, {
          issues: [{ key: `resources.${r.logicalId}.payload`, message: `needs privateLocationId as a reference to a private location, and ${key} as a reference to a ${kind} the project owns` }],
          source: 'payload',
        });
      }
      if (!list.includes(slug)) list.push(slug);
      record(r, null);
    }
    /** The payload's own private locations and the assigned ones. */
    const withPrivateLocations = (r: SubmittedResource, body: Record<string, any>): Record<string, any> => {
      const own: unknown[] = Array.isArray(body.privateLocations) ? body.privateLocations : [];
      return { ...body, privateLocations: [...new Set([...own, ...runsIn.get(`${r.type}:${r.logicalId}`)!])] };
    };
    for (const r of ofType('alert-channel')) {
      try {
        const existing = physical.get(`alert-channel:${r.logicalId}`);
        const body = resolveRefs(r.payload, ids) as Record<string, any>;
        const view = existing
          ? await channels.update(accountId, Number(existing), validateBody(AlertChannelUpdate, body))
          : await channels.create(accountId, validateBody(AlertChannelCreate, body));
        record(r, view.id);
      } catch (err) { throw aboutResource(err, r); }
    }
    for (const r of ofType('check-group')) {
      try {
        const existing = physical.get(`check-group:${r.logicalId}`);
        const { v: _version, ...payload } = resolveRefs(r.payload, ids) as Record<string, any>;
        const body = withPrivateLocations(r, payload);
        const view = existing
          ? await groups.replace(accountId, Number(existing), body)
          : await groups.create(accountId, body, { autoAssignAlerts: false });
        record(r, view.id);
      } catch (err) { throw aboutResource(err, r); }
    }
    for (const r of ofType('check')) {
      try {
        const existing = physical.get(`check:${r.logicalId}`);
        const { checkType, ...payload } = resolveRefs(r.payload, ids) as Record<string, any>;
        const body = withPrivateLocations(r, payload);
        if (Array.isArray(body.dependencies)) {
          const resolved = resolveSharedFiles(body.dependencies, sharedFiles, 'dependencies');
          if ('issues' in resolved) throw new LookoutError('VALIDATION', 'dependencies name files sharedFiles does not hold', { issues: resolved.issues });
          body.dependencies = resolved.files;
        }
        if (!(CHECK_TYPES as readonly string[]).includes(checkType)) {
          throw new LookoutError('VALIDATION', `unknown checkType "${String(checkType)}"`, { issues: [{ key: 'checkType', message: `must be one of ${CHECK_TYPES.join(', ')}` }] });
        }
        const view = existing
          ? await checks.replace(accountId, existing, checkType as CheckType, body)
          : await checks.create(accountId, checkType as CheckType, body, { autoAssignAlerts: false });
        record(r, view.id);
      } catch (err) { throw aboutResource(err, r); }
    }
    for (const r of ofType('maintenance-window')) {
      try {
        const existing = physical.get(`maintenance-window:${r.logicalId}`);
        const { v: _version, ...payload } = resolveRefs(r.payload, ids) as Record<string, any>;
        // The construct omits what it does not set; a deploy replaces whole, so absent repetition clears it.
        const body = { repeatUnit: null, repeatInterval: null, repeatEndsAt: null, tags: [], ...payload };
        const view = existing
          ? await windows.update(accountId, Number(existing), validateBody(MaintenanceWindowPut, body))
          : await windows.create(accountId, validateBody(MaintenanceWindowCreate, body));
        record(r, view.id);
      } catch (err) { throw aboutResource(err, r); }
    }
    for (const r of ofType('status-page-service')) {
      try {
        const existing = physical.get(`status-page-service:${r.logicalId}`);
        const body = validateBody<{ name: string }>(ServiceBody, resolveRefs(r.payload, ids));
        const view = existing ? await pageServices.update(accountId, existing, body) : await pageServices.create(accountId, body);
        record(r, view.id);
      } catch (err) { throw aboutResource(err, r); }
    }
    for (const r of ofType('status-page')) {
      try {
        const existing = physical.get(`status-page:${r.logicalId}`);
        const { cards, ...fields } = resolveRefs(r.payload, ids) as Record<string, any>;
        // The construct's cards name services by id (resolved refs); the REST body by `{ id }`.
        const restCards = Array.isArray(cards)
          ? cards.map((c: Record<string, any>) => ({ ...c, services: Array.isArray(c?.services) ? c.services.map((id: unknown) => ({ id })) : c?.services }))
          : cards;
        // A deploy replaces whole: what the construct leaves out is cleared (or the default).
        const body = validateBody<StatusPageBodyType>(StatusPageBody, {
          customDomain: null, logo: null, favicon: null, redirectTo: null, defaultTheme: 'AUTO', ...fields, cards: restCards,
        });
        const view = existing ? await pages.update(accountId, existing, body) : await pages.create(accountId, body);
        record(r, view.id);
      } catch (err) { throw aboutResource(err, r); }
    }
    for (const r of ofType('dashboard')) {
      try {
        const existing = physical.get(`dashboard:${r.logicalId}`);
        const body = validateBody<DashboardBodyInput>(DashboardBody, { ...DASHBOARD_DEPLOY_DEFAULTS, ...(resolveRefs(r.payload, ids) as Record<string, any>) });
        const view = existing ? await dashboards.update(accountId, existing, body) : await dashboards.create(accountId, body);
        record(r, view.dashboardId);
      } catch (err) { throw aboutResource(err, r); }
    }
    // Subscriptions: every check and group of the project gets exactly the ones the project declares.
    const subs = new Map<string, { alertChannelId: number; activated: boolean }[]>();
    for (const r of ofType('check')) subs.set(`check:${r.logicalId}`, []);
    for (const r of ofType('check-group')) subs.set(`check-group:${r.logicalId}`, []);
    const targetOf = new Map<string, { checkId: string } | { groupId: number }>();
    for (const r of ofType('alert-channel-subscription')) {
      const p = (r.payload ?? {}) as Record<string, any>;
      const resolved = resolveRefs(p, ids) as Record<string, any>;
      const target = p.checkId?.ref ? `check:${p.checkId.ref}` : p.groupId?.ref ? `check-group:${p.groupId.ref}` : undefined;
      if (!target || !subs.has(target) || typeof resolved.alertChannelId !== 'number') {
        throw new LookoutError('VALIDATION', `alert-channel-subscription "${r.logicalId}": must reference an alert channel and a check or group of the project`, {
          issues: [{ key: `resources.${r.logicalId}.payload`, message: 'needs alertChannelId, and checkId or groupId as a reference to a check or group the project owns' }],
          source: 'payload',
        });
      }
      subs.get(target)!.push({ alertChannelId: resolved.alertChannelId, activated: resolved.activated ?? true });
      targetOf.set(target, resolved.checkId != null ? { checkId: String(resolved.checkId) } : { groupId: Number(resolved.groupId) });
      record(r, null);
    }
    for (const r of [...ofType('check'), ...ofType('check-group')]) {
      const key = `${r.type}:${r.logicalId}`;
      const list = dedupeSubscriptions(subs.get(key) ?? []);
      try { assertValid(await referenceIssues(repos, accountId, {}, list)); } catch (err) { throw aboutResource(err, r); }
      const id = ids.get(r.logicalId)!;
      await repos.subscriptions.replaceFor(accountId, r.type === 'check' ? { checkId: String(id) } : { groupId: Number(id) }, list);
    }
    // Removals, dependants first; a resource already deleted by hand is simply gone.
    for (const s of deletes) {
      if (s.physicalId == null) continue;
      try {
        if (s.type === 'check') await checks.delete(accountId, s.physicalId);
        else if (s.type === 'check-group') await groups.delete(accountId, Number(s.physicalId));
        else if (s.type === 'alert-channel') await channels.delete(accountId, Number(s.physicalId));
        else if (s.type === 'maintenance-window') await windows.delete(accountId, Number(s.physicalId));
        else if (s.type === 'dashboard') await dashboards.delete(accountId, s.physicalId);
        else if (s.type === 'status-page') await pages.delete(accountId, s.physicalId);
        else if (s.type === 'status-page-service') await pageServices.delete(accountId, s.physicalId);
        else if (s.type === 'private-location') await privateLocations.delete(accountId, s.physicalId);
      } catch (err) {
        if (err instanceof LookoutError && err.code === 'NOT_FOUND') continue;
        throw aboutResource(err, s);
      }
    }
    await createProjectsRepository(tx).replaceResources(projectId, owned);
  }

  /** Records a deployment of the project, refusing (409) while another one runs. */
  async function start(accountId: string, projectId: number, logicalId: string, kind: string): Promise<string> {
    const { id, started } = await projects.start(accountId, projectId, logicalId, kind);
    if (!started) {
      throw new LookoutError('CONFLICT', `Project "${logicalId}" already has a deployment in progress (${id})`, { attributes: { deploymentId: id } });
    }
    return id;
  }

  /**
   * Runs `work`, then records the deployment's outcome; a failure is recorded, `undo` removes what
   * was written before the transaction (a project that did not exist), and the error is re-thrown.
   */
  async function run(accountId: string, logicalId: string, deploymentId: string, diff: DiffEntry[], undo: () => Promise<void>, work: () => Promise<void>) {
    try {
      await work();
    } catch (err) {
      await projects.finish(deploymentId, 'FAILED', diff, err instanceof Error ? err.message : String(err));
      await undo();
      throw err;
    }
    await projects.finish(deploymentId, 'SUCCEEDED', diff, null);
    return toDeploymentView((await projects.getDeployment(accountId, logicalId, deploymentId))!);
  }

  return {
    /** A dry run answers `{ diff }` and writes nothing; else the finished deployment. */
    async deploy(accountId: string, body: DeployBody, opts: { dryRun?: boolean; preserveResources?: boolean }) {
      const { logicalId } = body.project;
      const project = await projects.get(accountId, logicalId);
      const stored = project ? await projects.resources(project.id) : [];
      const submitted = body.resources.map((r) => ({ type: r.type, logicalId: r.logicalId, payload: r.payload, member: r.member, physicalId: r.physicalId }));
      const plan = planDeployment(stored, submitted, { preserveResources: opts.preserveResources });
      assertValid(plan.issues.map((i) => ({ key: `resources.${i.key}`, message: i.message })));
      if (opts.dryRun) return { diff: plan.diff };
      const projectId = await projects.upsert(accountId, { logicalId, name: body.project.name, repoUrl: body.project.repoUrl ?? null });
      const deploymentId = await start(accountId, projectId, logicalId, 'DEPLOY');
      const removeIfNew = async () => { if (!project) await projects.delete(projectId); };
      return run(accountId, logicalId, deploymentId, plan.diff, removeIfNew, () => store.db.transaction(async (tx) => {
        // Re-read inside the transaction: the plan must apply to what is stored now.
        const current = await createProjectsRepository(tx).resources(projectId);
        const fresh = planDeployment(current, submitted, { preserveResources: opts.preserveResources });
        plan.diff.splice(0, plan.diff.length, ...fresh.diff);
        await apply(tx, accountId, projectId, fresh, plan.diff, Array.isArray(body.sharedFiles) ? body.sharedFiles : []);
      }));
    },

    /** Deletes the project's resources (unless preserved) and the project; a missing project answers `{ diff: [] }`. */
    async destroy(accountId: string, logicalId: string, opts: { dryRun?: boolean; preserveResources?: boolean }) {
      const project = await projects.get(accountId, logicalId);
      if (!project) return { diff: [] };
      const plan = planDeployment(await projects.resources(project.id), [], { preserveResources: opts.preserveResources });
      if (opts.dryRun) return { diff: plan.diff };
      const deploymentId = await start(accountId, project.id, logicalId, 'DESTROY');
      return run(accountId, logicalId, deploymentId, plan.diff, async () => {}, () => store.db.transaction(async (tx) => {
        await apply(tx, accountId, project.id, plan, plan.diff);
        await createProjectsRepository(tx).delete(project.id);
      }));
    },

    async list(accountId: string) {
      return (await projects.list(accountId)).map(toProjectView);
    },

    async get(accountId: string, logicalId: string) {
      const row = await projects.get(accountId, logicalId);
      if (!row) throw notFound('Project', logicalId);
      return toProjectView(row);
    },

    async deployment(accountId: string, logicalId: string, id: string) {
      const row = await projects.getDeployment(accountId, logicalId, id);
      if (!row) throw notFound(`Deployment of project ${logicalId}:`, id);
      return toDeploymentView(row);
    },

    /** Cancelling is idempotent: a finished deployment is answered as it is (deployments run synchronously). */
    async cancel(accountId: string, logicalId: string, id: string) {
      const row = await projects.getDeployment(accountId, logicalId, id);
      if (!row) throw notFound(`Deployment of project ${logicalId}:`, id);
      return toDeploymentView(row);
    },

    isTerminal: (status: string) => TERMINAL.has(status),
  };
}
export type ProjectService = ReturnType<typeof createProjectService>;
