import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { DashboardBodyInput } from '../contract/dashboard-schemas.js';
import { dashboardIssues } from '../domain/dashboard-rules.js';
import { LookoutError, assertValid, notFound } from '../domain/lookout-error.js';
import { list, mergeUpdate, value, withDefaults, type Shape } from '../domain/merge-update.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import type { DashboardRow, DashboardValues, TakenField } from '../store/dashboards-repository.js';
import type { Repositories } from '../store/repositories.js';

/** A dashboard as the API shows it. */
export function toDashboardView(row: DashboardRow) {
  return {
    dashboardId: row.id,
    customUrl: row.customUrl,
    customDomain: row.customDomain,
    logo: row.logo,
    favicon: row.favicon,
    link: row.link,
    description: row.description,
    header: row.header,
    width: row.width,
    refreshRate: row.refreshRate,
    paginate: row.paginate,
    paginationRate: row.paginationRate,
    checksPerPage: row.checksPerPage,
    useTagsAndOperator: row.useTagsAndOperator,
    hideTags: row.hideTags,
    enableIncidents: row.enableIncidents,
    expandChecks: row.expandChecks,
    showHeader: row.showHeader,
    customCSS: row.customCSS,
    isPrivate: row.isPrivate,
    showP95: row.showP95,
    showP99: row.showP99,
    showCheckRunLinks: row.showCheckRunLinks,
    tags: row.tags,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt?.toISOString() ?? null,
  };
}
export type DashboardView = ReturnType<typeof toDashboardView>;

/**
 * How a dashboard is filled on create and merged on update (merge-update.ts): absent or null takes
 * the default on create and keeps the stored value on update; `tags` sent replace. The defaults
 * are the real API's.
 */
export const DASHBOARD_SHAPE: Shape = {
  customUrl: value(),
  customDomain: value(null),
  logo: value(null),
  favicon: value(null),
  link: value(null),
  description: value(null),
  header: value(null),
  width: value('FULL'),
  refreshRate: value(60),
  paginate: value(true),
  paginationRate: value(60),
  checksPerPage: value(15),
  useTagsAndOperator: value(false),
  hideTags: value(false),
  enableIncidents: value(false),
  expandChecks: value(false),
  showHeader: value(true),
  customCSS: value(null),
  isPrivate: value(false),
  showP95: value(true),
  showP99: value(true),
  showCheckRunLinks: value(false),
  tags: list(),
};

/** Optional texts: "" removes them (stored and read back as null). */
const CLEARABLE = ['customDomain', 'logo', 'favicon', 'link', 'description', 'header', 'customCSS'] as const;

/** A body filled with the defaults, "" texts removed: the values a write stores. */
function toValues(filled: Record<string, any>): DashboardValues {
  const out = { ...filled } as Record<string, any>;
  for (const key of CLEARABLE) if (out[key] === '') out[key] = null;
  const values = Object.fromEntries(Object.keys(DASHBOARD_SHAPE).map((k) => [k, out[k]]));
  return values as unknown as DashboardValues;
}

const TAKEN_WHAT: Record<TakenField, string> = { customUrl: 'custom URL', customDomain: 'custom domain' };

/** A 409 naming the field whose value another dashboard (of any account) has. */
function takenError(field: TakenField, v: DashboardValues): LookoutError {
  return new LookoutError('CONFLICT', `"${field}" "${field === 'customUrl' ? v.customUrl : v.customDomain}" is taken: `
    + `${TAKEN_WHAT[field]}s are unique across all accounts`, { attributes: { key: field } });
}

/** A random custom URL for a dashboard created without one (the real service does the same). */
const randomCustomUrl = () => `dashboard-${randomBytes(6).toString('hex')}`;

/** Options of createDashboardService. */
export interface DashboardServiceOptions {
  store: Store;
  /** The service's own address (LOOKOUT_PUBLIC_URL): no dashboard may claim its host as custom domain. */
  publicUrl?: string;
  /** Where `publicContentChanged` goes after each write commits; none in unit uses. */
  bus?: EventBus;
  logger?: Logger;
}

/**
 * Dashboards over REST. Every write runs in one transaction that also moves the account's public
 * content version on (public pages cache on it), writes nothing when refused, and is announced as
 * `publicContentChanged` (subject `dashboard`) after commit. Custom URLs and custom domains are
 * unique across all accounts: checked before writing, and held by unique indexes against
 * concurrent writes (both answer 409 naming the field). Ids of other accounts answer 404.
 */
export function createDashboardService({ store, publicUrl, bus, logger }: DashboardServiceOptions) {
  const ownHosts = publicUrl && URL.canParse(publicUrl) ? [new URL(publicUrl).hostname] : [];

  /** `write` in a transaction with the version bump; the change announced after commit. */
  async function publicWrite<T>(accountId: string, subjectId: string, write: (tx: Repositories) => Promise<T>): Promise<T> {
    const { result, version } = await store.transaction(async (tx) => {
      const result = await write(tx);
      return { result, version: await tx.publicContentVersions.bump(accountId) };
    });
    if (bus) {
      // The write has committed: a bus outage must not turn it into an error. Pages stay right
      // through the version counter; only live pushes are missed.
      await bus.publish({ type: 'publicContentChanged', accountId, version, subject: 'dashboard', subjectId })
        .catch((err) => logger?.warn({ err, accountId, subjectId }, 'dashboards: could not publish a change'));
    }
    return result;
  }

  /** Refuses values the schema cannot judge alone, and unique values another dashboard has. */
  async function checkValues(tx: Repositories, v: DashboardValues, exceptId?: string): Promise<void> {
    assertValid(dashboardIssues(v, ownHosts));
    const [taken] = await tx.dashboards.taken(v, exceptId);
    if (taken) throw takenError(taken, v);
    // One host serves one thing: a status page's custom domain is taken for dashboards too.
    if (v.customDomain && (await tx.customDomains.statusPageHas(v.customDomain))) throw takenError('customDomain', v);
  }

  return {
    /** A page of the account's dashboards, oldest first. */
    async list(accountId: string, page: number, limit: number) {
      const { rows, total } = await store.dashboards.list(accountId, page, limit);
      return { items: rows.map(toDashboardView), total };
    },

    async get(accountId: string, id: string) {
      const row = await store.dashboards.get(accountId, id);
      if (!row) throw notFound('Dashboard', id);
      return toDashboardView(row);
    },

    async create(accountId: string, body: DashboardBodyInput) {
      const values = toValues(withDefaults({ ...body, customUrl: body.customUrl ?? randomCustomUrl() }, DASHBOARD_SHAPE));
      const id = randomUUID();
      return publicWrite(accountId, id, async (tx) => {
        await checkValues(tx, values);
        const outcome = await tx.dashboards.insert(accountId, id, values);
        if ('taken' in outcome) throw takenError(outcome.taken, values);
        return toDashboardView(outcome.row);
      });
    },

    /** Absent or null keeps the stored value; "" removes an optional text; `tags` sent replace. */
    async update(accountId: string, id: string, body: DashboardBodyInput) {
      return publicWrite(accountId, id, async (tx) => {
        const row = await tx.dashboards.get(accountId, id, true);
        if (!row) throw notFound('Dashboard', id);
        const stored: Record<string, unknown> = Object.fromEntries(Object.keys(DASHBOARD_SHAPE).map((k) => [k, row[k as keyof DashboardValues]]));
        const values = toValues(withDefaults(mergeUpdate(stored, body, DASHBOARD_SHAPE), DASHBOARD_SHAPE));
        await checkValues(tx, values, id);
        const outcome = await tx.dashboards.update(accountId, id, values);
        if (!outcome) throw notFound('Dashboard', id);
        if ('taken' in outcome) throw takenError(outcome.taken, values);
        return toDashboardView(outcome.row);
      });
    },

    async delete(accountId: string, id: string): Promise<void> {
      await publicWrite(accountId, id, async (tx) => {
        if (!(await tx.dashboards.delete(accountId, id))) throw notFound('Dashboard', id);
      });
    },
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
