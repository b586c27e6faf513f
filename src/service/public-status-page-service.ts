import { isPageSession, pageSessionToken } from '../domain/page-session.js';
import type { IncidentStatus } from '../domain/incident-status-moves.js';
import { checkMaintenanceSpans, type MaintenanceSpan } from '../domain/check-maintenance.js';
import { checkHealth } from '../domain/next-check-status.js';
import {
  publicStatusPage, type CheckHour, type PublicIncident, type PublicMaintenance, type PublicPageModel, type PublicServiceCheck,
} from '../domain/public-status-page.js';
import type { IncidentSeverity, MaintenanceStatus } from '../domain/service-state.js';
import type { Store } from '../store/create-store.js';
import type { StatusPageRow } from '../store/status-pages-repository.js';
import { createResultRollupsRepository } from '../store/result-rollups-repository.js';
import { incidentViews } from './status-page-incident-view.js';
import type { EventBus } from '../events/event-bus.js';
import { createPublicVersions } from './create-public-versions.js';
import { createPageCache, type FoundPage } from './create-page-cache.js';

export type { FoundPage } from './create-page-cache.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Incidents a page loads at most (open ones and those of the bars' range). */
const MAX_INCIDENTS = 500;
/** Maintenances a page loads at most. */
const MAX_MAINTENANCES = 200;

export interface PublicStatusPageServiceOptions {
  store: Store;
  /** The event bus writes announce new public content versions on; without it every request reads the version. */
  bus?: EventBus;
  /** Uptime bars per service (default 90). */
  days?: number;
  now?: () => Date;
}

/**
 * What public status pages read. Once a page is in memory a request costs nothing from the store
 * (the account's public content version comes from the bus, see createPublicVersions); the model
 * and everything rendered from it are rebuilt only when that version moves (a write in any
 * process) or the minute changes (bars and open incidents grow with time). Reading the version
 * before the data means a page is never older than its version.
 */
export function createPublicStatusPageService(options: PublicStatusPageServiceOptions) {
  const { store } = options;
  const days = options.days ?? 90;
  const now = options.now ?? (() => new Date());
  const versions = createPublicVersions({ store, bus: options.bus });
  const cache = createPageCache({ versions, now });
  const find = cache.find;
  const rollups = createResultRollupsRepository(store.db);

  /**
   * Runs per check and hour since `from`: hourly roll-ups up to their watermark, raw results after
   * it (results are pruned only once rolled up, so the two never overlap nor leave a gap).
   */
  async function hoursOf(accountId: string, checkIds: string[], from: Date, at: Date): Promise<Map<string, CheckHour[]>> {
    const byCheck = new Map<string, CheckHour[]>();
    if (checkIds.length === 0) return byCheck;
    const mark = (await rollups.watermarks()).hourly;
    const split = mark && mark > from ? (mark < at ? mark : at) : from;
    const query = (f: Date, t: Date) => ({ checkIds, from: f, to: t, bucketSeconds: 3600, byLocation: false });
    const cells = [
      ...(split > from ? await rollups.cells(accountId, 'hourly', query(from, split)) : []),
      ...await rollups.cells(accountId, 'raw', query(split, new Date(at.getTime() + HOUR_MS))),
    ];
    for (const c of cells) {
      const hour: CheckHour = { start: c.bucketStart! * 1000, finalCount: c.rollup.finalCount, failureCount: c.rollup.failureCount, degradedCount: c.rollup.degradedCount };
      byCheck.set(c.checkId, [...(byCheck.get(c.checkId) ?? []), hour]);
    }
    return byCheck;
  }

  /** When each check was in maintenance since `from`, by the windows covering it (shown on the page or not). */
  async function maintenanceOf(accountId: string, checkIds: string[], from: Date, at: Date): Promise<Map<string, MaintenanceSpan[]>> {
    if (checkIds.length === 0) return new Map();
    const windows = await store.activeMaintenances.ranBetween(accountId, from, at);
    if (windows.length === 0) return new Map();
    const checks = await store.checks.tagsOf(accountId, checkIds);
    return new Map(checks.map((c) => [c.id, checkMaintenanceSpans(windows, c.tags, at)]));
  }

  /** The checks each service is built from, with their health now and their runs per hour since `from`. */
  async function checksOf(accountId: string, serviceIds: string[], from: Date, at: Date): Promise<Map<string, PublicServiceCheck[]>> {
    const links = await store.statusPageServices.checksOf(accountId, serviceIds);
    const checkIds = [...new Set(links.map((l) => l.check_id))];
    const statuses = new Map((checkIds.length ? await store.checkStatuses.list(accountId, checkIds) : []).map((r) => [r.check_id, r]));
    const hours = await hoursOf(accountId, checkIds, from, at);
    const maintenance = await maintenanceOf(accountId, checkIds, from, at);
    const byService = new Map<string, PublicServiceCheck[]>();
    for (const l of links) {
      const status = statuses.get(l.check_id);
      const spans = maintenance.get(l.check_id) ?? [];
      const check: PublicServiceCheck = {
        health: status ? checkHealth({ hasFailures: status.has_failures, hasErrors: status.has_errors, isDegraded: status.is_degraded }) : null,
        createdAt: l.created_at,
        hours: hours.get(l.check_id) ?? [],
        maintenance: spans,
        inMaintenance: spans.some((m) => m.ongoing),
      };
      byService.set(l.service_id, [...(byService.get(l.service_id) ?? []), check]);
    }
    return byService;
  }

  /**
   * The page's maintenances: a window affecting all services affects every service of the page; one
   * that does not show affected services marks none (and so excuses no downtime).
   */
  async function maintenancesOf(page: StatusPageRow, serviceIds: string[], since: Date): Promise<PublicMaintenance[]> {
    const rows = await store.publicPages.maintenancesOnPage(page.account_id, page.id, since, MAX_MAINTENANCES);
    const updates = await store.publicPages.maintenanceUpdatesOf(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      windowId: r.window_id,
      name: r.name,
      description: r.description,
      status: r.status as MaintenanceStatus,
      startsAt: r.starts_at,
      endsAt: r.ends_at,
      serviceIds: !r.show_affected_services ? [] : r.affect_all_services ? serviceIds : r.service_ids.filter((id) => serviceIds.includes(id)),
      showAffectedServices: r.show_affected_services,
      updates: updates.filter((u) => u.maintenance_id === r.id).map((u) => ({ id: u.id, description: u.description, status: u.status, at: u.created_at })),
    }));
  }

  async function buildModel(page: StatusPageRow): Promise<PublicPageModel> {
    const at = now();
    const cards = await store.statusPages.listCards(page.id);
    const serviceIds = [...new Set(cards.flatMap((c) => c.services.map((s) => s.id)))];
    const rows = await store.publicPages.incidentsOnServices(page.account_id, serviceIds, new Date(at.getTime() - days * DAY_MS), MAX_INCIDENTS);
    const views = await incidentViews(store, rows);
    const incidents: PublicIncident[] = views.map((v, i) => ({
      id: v.id,
      name: v.name,
      severity: v.severity as IncidentSeverity,
      lastUpdateStatus: v.lastUpdateStatus,
      duration: v.duration,
      createdAt: rows[i]!.created_at,
      updatedAt: rows[i]!.updated_at,
      serviceIds: v.services.map((s) => s.id).filter((id) => serviceIds.includes(id)),
      updates: v.incidentUpdates.map((u) => ({ id: u.id, description: u.description, status: u.status as IncidentStatus | null, at: new Date(u.publicIncidentUpdateDate) })),
    }));
    const maintenances = await maintenancesOf(page, serviceIds, new Date(at.getTime() - days * DAY_MS));
    const firstBar = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
    const checks = await checksOf(page.account_id, serviceIds, firstBar, at);
    return publicStatusPage({
      cards: cards.map((c) => ({
        id: c.id, name: c.name, services: c.services.map((s) => ({ id: s.id, name: s.name, createdAt: s.created_at, checks: checks.get(s.id) ?? [] })),
      })),
      incidents,
      maintenances,
      now: at,
      days,
    });
  }

  return {
    now,

    /** The page at `/status/{url}`. */
    byUrl: (url: string) => find(`url:${url}`, () => store.statusPages.findByUrl(url)),

    /** The page served on this host name. */
    byDomain: (host: string) => find(`host:${host.toLowerCase()}`, () => store.statusPages.findByCustomDomain(host)),

    /** What the page shows now, memoised per version and minute. */
    model: (found: FoundPage) => found.memo('model', () => buildModel(found.page)),

    /** Whether this session token lets the visitor see the private page (always true for a public one). */
    async mayView(page: StatusPageRow, token: string | undefined): Promise<boolean> {
      if (!page.is_private) return true;
      const stored = await store.statusPages.passwordOf(page.id);
      return isPageSession(token, page.id, stored?.password_hash ?? null, now());
    },

    /** How much the cache holds now: pages, look-up keys and memoised values (for tests and metrics). */
    cacheSize: cache.size,

    /** A new 30-day session for a visitor who gave the right password. */
    async sessionFor(page: StatusPageRow): Promise<string | null> {
      const stored = await store.statusPages.passwordOf(page.id);
      return stored?.password_hash ? pageSessionToken(page.id, stored.password_hash, now()) : null;
    },
  };
}
export type PublicStatusPageService = ReturnType<typeof createPublicStatusPageService>;
