import { metricAppliesTo, parseMetric, type MetricSpec } from '../domain/analytics-metrics.js';
import { checkBadgeStatus, type BadgeStatus } from '../domain/badge-status.js';
import type { CheckType } from '../domain/catalog.js';
import { dashboardPageWindow, dashboardReload, normaliseHost } from '../domain/dashboard-rules.js';
import { notFound } from '../domain/lookout-error.js';
import type { Store } from '../store/create-store.js';
import type { DashboardCheckRow } from '../store/dashboard-checks-repository.js';
import type { PublicDashboardRow } from '../store/dashboards-repository.js';

/** One check as a public dashboard shows it (the `PublicDashboardCheck` component). */
export interface PublicDashboardCheckView {
  name: string;
  checkType: string;
  status: BadgeStatus;
  tags: string[];
  availability24h: number | null;
  availability7d: number | null;
  p95: number | null;
  p99: number | null;
  lastRunAt: string | null;
  lastRunLocation: string | null;
  lastResponseTime: number | null;
}

/** What `/dashboards/{customUrl}/data.json` answers (the `PublicDashboard` component). */
export interface PublicDashboardData {
  dashboard: {
    customUrl: string;
    header: string | null;
    description: string | null;
    logo: string | null;
    favicon: string | null;
    link: string | null;
    width: string;
    refreshRate: number;
    paginate: boolean;
    paginationRate: number;
    checksPerPage: number;
    hideTags: boolean;
    expandChecks: boolean;
    showHeader: boolean;
    showP95: boolean;
    showP99: boolean;
    enableIncidents: boolean;
  };
  checks: PublicDashboardCheckView[];
  incidents: { name: string; severity: string; lastUpdateStatus: string; latestUpdate: string | null; latestUpdateAt: string | null; created_at: string }[];
  summary: Record<BadgeStatus, number>;
  page: number;
  pages: number;
  totalChecks: number;
  generatedAt: string;
}

/** Everything the HTML page is drawn from: the data, plus the page's own styling and reload. */
export interface DashboardPageView {
  data: PublicDashboardData;
  customCSS: string | null;
  /** Reload after `seconds`, showing `page`. */
  reload: { seconds: number; page: number };
}

/** Where a public page was asked for: its custom URL, or the Host of a request for `/`. */
export type DashboardAddress = { customUrl: string } | { host: string };

/**
 * How long a rendered page may be served again while the account's public content version stays
 * the same. The version moves with every dashboard (and status page) write, so configuration
 * changes show on the next request. Check statuses and availability change with every run, which
 * is not a public write (it would move every account's version every few seconds and empty the
 * cache all the time), so this bound is what keeps them fresh: a viewer sees the store as it was at
 * most 10 s before, well under the shortest refreshRate (60 s), while any number of screens
 * showing one page cost one render per 10 s.
 */
export const STATUS_STALENESS_MS = 10_000;
/** Rendered pages kept at most (least recently used go first). */
const MAX_CACHED = 1000;
/** Open incidents a dashboard shows at most. */
const MAX_INCIDENTS = 10;

const DAY_MS = 86_400_000;
const METRICS_24H = ['availability', 'responseTime_p95', 'responseTime_p99'].map((m) => parseMetric(m)!);
const METRICS_7D = [parseMetric('availability')!];

interface CacheEntry {
  version: number;
  at: number;
  body: Promise<unknown>;
}

/** Options of createDashboardPageService. */
export interface DashboardPageServiceOptions {
  store: Store;
  /** Milliseconds since the epoch (tests move it by hand). */
  now?: () => number;
  staleAfterMs?: number;
}

/**
 * Public dashboards: finds one by its address, builds what its page shows (checks picked by tags,
 * each with its latest status, 24 h and 7 d availability and 24 h p95/p99; open incidents), and
 * caches rendered pages on the account's public content version plus a short bound (see
 * STATUS_STALENESS_MS). Everything read is the dashboard's own account's.
 */
export function createDashboardPageService({ store, now = Date.now, staleAfterMs = STATUS_STALENESS_MS }: DashboardPageServiceOptions) {
  const cache = new Map<string, CacheEntry>();

  /** Availability and percentiles of `checks` over the `days` before `until`, by check id. */
  async function metrics(accountId: string, checks: DashboardCheckRow[], specs: MetricSpec[], days: number, until: Date) {
    if (checks.length === 0) return new Map<string, (number | null)[]>();
    const cells = await store.analytics.aggregate(accountId, {
      checkIds: checks.map((c) => c.id), from: new Date(until.getTime() - days * DAY_MS), to: until, metrics: specs, bucketSeconds: null, groupBy: null, status: null,
    });
    return new Map(cells.map((c) => [c.checkId, c.values]));
  }

  return {
    /** The dashboard at `address`, with its account's public content version; 404 when there is none. */
    async find(address: DashboardAddress): Promise<PublicDashboardRow> {
      const row = await store.dashboards.findPublic('host' in address ? { host: normaliseHost(address.host) } : address);
      if (!row) throw notFound('Dashboard', 'host' in address ? address.host : address.customUrl);
      return row;
    },

    /** What page `requested` of `dashboard` shows, read from the store now. */
    async view(dashboard: PublicDashboardRow, requested: number): Promise<DashboardPageView> {
      const at = new Date(now());
      const selected = await store.dashboardChecks.select(dashboard.accountId, { tags: dashboard.tags, allTags: dashboard.useTagsAndOperator });
      const window = dashboardPageWindow(selected.length, dashboard.paginate, dashboard.checksPerPage, requested);
      const shown = selected.slice(window.offset, window.offset + window.limit);
      const [day, week, incidents] = await Promise.all([
        metrics(dashboard.accountId, shown, METRICS_24H, 1, at),
        metrics(dashboard.accountId, shown, METRICS_7D, 7, at),
        dashboard.enableIncidents ? store.dashboardChecks.openIncidents(dashboard.accountId, MAX_INCIDENTS) : Promise.resolve([]),
      ]);
      const statusOf = (c: DashboardCheckRow) => checkBadgeStatus(c.hasStatus ? c : null);
      const summary: Record<BadgeStatus, number> = { passing: 0, degraded: 0, failing: 0, unknown: 0 };
      for (const c of selected) summary[statusOf(c)]++;
      const timed = (c: DashboardCheckRow) => metricAppliesTo(METRICS_24H[1]!, c.checkType as CheckType);
      const data: PublicDashboardData = {
        dashboard: {
          customUrl: dashboard.customUrl,
          header: dashboard.header,
          description: dashboard.description,
          logo: dashboard.logo,
          favicon: dashboard.favicon,
          link: dashboard.link,
          width: dashboard.width,
          refreshRate: dashboard.refreshRate,
          paginate: dashboard.paginate,
          paginationRate: dashboard.paginationRate,
          checksPerPage: dashboard.checksPerPage,
          hideTags: dashboard.hideTags,
          expandChecks: dashboard.expandChecks,
          showHeader: dashboard.showHeader,
          showP95: dashboard.showP95,
          showP99: dashboard.showP99,
          enableIncidents: dashboard.enableIncidents,
        },
        checks: shown.map((c) => {
          const [availability24h = null, p95 = null, p99 = null] = day.get(c.id) ?? [];
          return {
            name: c.name,
            checkType: c.checkType,
            status: statusOf(c),
            tags: dashboard.hideTags ? [] : c.tags,
            availability24h,
            availability7d: week.get(c.id)?.[0] ?? null,
            p95: dashboard.showP95 && timed(c) ? p95 : null,
            p99: dashboard.showP99 && timed(c) ? p99 : null,
            lastRunAt: c.lastResultAt?.toISOString() ?? null,
            lastRunLocation: c.lastRunLocation,
            lastResponseTime: c.longestRun,
          };
        }),
        incidents: incidents.map((i) => ({
          name: i.name,
          severity: i.severity,
          lastUpdateStatus: i.lastUpdateStatus,
          latestUpdate: i.latestUpdate,
          latestUpdateAt: i.latestUpdateAt?.toISOString() ?? null,
          created_at: i.createdAt.toISOString(),
        })),
        summary,
        page: window.page,
        pages: window.pages,
        totalChecks: selected.length,
        generatedAt: at.toISOString(),
      };
      return { data, customCSS: dashboard.customCSS, reload: dashboardReload(dashboard, window) };
    },

    /**
     * What `build` makes for `key` of `dashboard` (e.g. its HTML for one page), from the cache
     * while the account's public content version is the one it was built at and it is younger
     * than the staleness bound. Requests arriving while it is built share the one build.
     */
    async cached<T>(dashboard: PublicDashboardRow, key: string, build: () => Promise<T>): Promise<T> {
      const id = `${dashboard.id}|${key}`;
      const hit = cache.get(id);
      const at = now();
      if (hit && hit.version === dashboard.version && at - hit.at < staleAfterMs) {
        // Map order is insertion order: re-inserting marks it the most recently used.
        cache.delete(id);
        cache.set(id, hit);
        return hit.body as Promise<T>;
      }
      const entry: CacheEntry = { version: dashboard.version, at, body: build() };
      cache.delete(id);
      cache.set(id, entry);
      while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
      // A failed build is not kept: the next request tries again.
      entry.body.catch(() => {
        if (cache.get(id) === entry) cache.delete(id);
      });
      return entry.body as Promise<T>;
    },
  };
}
export type DashboardPageService = ReturnType<typeof createDashboardPageService>;
