import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type {
  MaintenancePatchBody, MaintenanceUpdateCreateBody, MaintenanceUpdatePutBody, MaintenanceWindowCreateBody, MaintenanceWindowPutBody,
} from '../contract/maintenance-window-schemas.js';
import { assertValid, notFound, type Issue } from '../domain/lookout-error.js';
import { namedTimeZone } from '../domain/local-to-utc.js';
import type { DateFilters } from '../domain/maintenance-date-filters.js';
import { maintenanceWindowIssues } from '../domain/maintenance-occurrences.js';
import {
  maintenanceUpdateEditIssues, maintenanceUpdateOutcome, type MaintenanceStatus,
} from '../domain/maintenance-status-moves.js';
import { maintenanceVisibilityIssues } from '../domain/maintenance-visibility-issues.js';
import { list, mergeUpdate, object, value, withDefaults, type Shape } from '../domain/merge-update.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import type { MaintenanceRow } from '../store/maintenance-occurrences-repository.js';
import type { MaintenanceWindowRow, MaintenanceWindowValues } from '../store/maintenance-windows-repository.js';
import type { Repositories } from '../store/repositories.js';
import { planIssues, planWindow } from './maintenance-planner.js';
import {
  readWindowView, toMaintenanceUpdateView, toMaintenanceView, toMaintenanceWindowView, windowLinks, type WindowLinks,
} from './maintenance-window-view.js';
import { createMaintenanceWrite, type MaintenanceChange } from './maintenance-write.js';
import { beforeYearOneIssue } from '../domain/before-year-one-issue.js';

/**
 * How create fills and PUT merges a window (merge-update.ts): absent keeps (PUT) or takes the
 * default (create); null keeps too, except where null is the only way to say "none": the
 * repetition fields (null makes a one-off window) and `description`, `severity` (null clears).
 * `timezone` null keeps on update ("omission preserves") and means UTC on create.
 */
const VISIBILITY_SHAPE: Shape = {
  enabled: value(false),
  severity: value(null, { nullClears: true }),
  affectAllServices: value(false),
  notifyOnStart: value(false),
  notifyOnEnd: value(false),
  suppressAutoIncidents: value(false),
  reminderMinutesBefore: list(),
  autoStart: value(true),
  autoEnd: value(true),
  showAffectedServices: value(true),
  statusPageIds: list(),
  serviceIds: list(),
};
const WINDOW_SHAPE: Shape = {
  name: value(),
  startsAt: value(),
  endsAt: value(),
  repeatUnit: value(null, { nullClears: true }),
  repeatInterval: value(null, { nullClears: true }),
  repeatEndsAt: value(null, { nullClears: true }),
  timezone: value('UTC'),
  tags: list(),
  pauseAllChecks: value(false),
  silenceAlertsTags: list(),
  silenceAllAlerts: value(false),
  description: value(null, { nullClears: true }),
  statusPageVisibility: object(VISIBILITY_SHAPE),
};

/** A window as create and PUT see it: the request's shape with every default filled (WINDOW_SHAPE). */
type WindowInput = Record<string, any> & { statusPageVisibility: Record<string, any> };

/** A window read back into the request's shape, so PUT can merge over it. */
function inputOf(row: MaintenanceWindowRow, links: WindowLinks): WindowInput {
  const view = toMaintenanceWindowView(row, links);
  const { id: _id, created_at: _c, updated_at: _u, ...input } = view;
  return input as WindowInput;
}

const lower = (ids: readonly string[]) => ids.map((id) => id.toLowerCase());

/** Date filters of the lists, as the routes parse them. */
export type MaintenanceDateFilters = DateFilters<'startsAt' | 'endsAt'>;

/** What the maintenance window service needs. */
export interface MaintenanceWindowServiceOptions {
  store: Store;
  /** Where `maintenanceUpdated` and `publicContentChanged` go after each write commits; none in unit uses. */
  bus?: EventBus;
  /** The time writes plan at and updates judge moves at (default the system clock). */
  clock?: { now(): Date };
  logger?: Logger;
}

/**
 * Maintenance windows, their maintenances (occurrences) and the maintenances' updates. Every write
 * runs in one transaction, writes nothing when refused, moves the account's public content version
 * on and publishes `maintenanceUpdated` and `publicContentChanged` after commit. Ids of another
 * account answer like unknown ones. Writes to a window or its maintenances hold the window's row, so
 * a re-plan never races a hand-made change.
 *
 * Planning (maintenance-plan.ts): a window's maintenances are stored when it is created or updated,
 * from now on (none that had already ended), through repeatEndsAt, or 400 days ahead for a
 * recurring window without one (the maintenance clock extends that daily). A window update re-plans
 * only SCHEDULED future maintenances whose dates were never set by hand; a deleted maintenance never
 * comes back.
 * Long by design: an object of short use-case methods (one per route) over the same store and bus; the module is the unit, not the closure.
 */
export function createMaintenanceWindowService({ store, bus, clock, logger }: MaintenanceWindowServiceOptions) {
  const now = () => clock?.now() ?? new Date();
  const write = createMaintenanceWrite({ store, bus, logger });

  async function lockedWindow(tx: Repositories, accountId: string, id: number): Promise<MaintenanceWindowRow> {
    const row = await tx.maintenanceWindows.get(accountId, id, true);
    if (!row) throw notFound('Maintenance window', id);
    return row;
  }

  /** The window's maintenance, with the window held (see the service's doc). */
  async function lockedMaintenance(tx: Repositories, accountId: string, windowId: number, id: string): Promise<MaintenanceRow> {
    await lockedWindow(tx, accountId, windowId);
    const row = await tx.maintenanceOccurrences.get(accountId, windowId, id, true);
    if (!row) throw notFound('Maintenance', id);
    return row;
  }

  async function readMaintenance(accountId: string, windowId: number, id: string): Promise<MaintenanceRow> {
    if (!(await store.maintenanceWindows.get(accountId, windowId))) throw notFound('Maintenance window', windowId);
    const row = await store.maintenanceOccurrences.get(accountId, windowId, id);
    if (!row) throw notFound('Maintenance', id);
    return row;
  }

  /**
   * The values to store for `input` at `at`, or a 400 naming every bad key: the schedule
   * (maintenanceWindowIssues), its plan (at most 1,000 maintenances ahead), and the status page
   * links; those are checked against the store only when `linksSent` (a PUT that leaves them alone
   * keeps them, even if a page stopped showing a service since).
   */
  async function validated(tx: Repositories, accountId: string, input: WindowInput, at: Date, linksSent: boolean): Promise<{ values: MaintenanceWindowValues; links: WindowLinks }> {
    const v = input.statusPageVisibility;
    const links: WindowLinks = { serviceIds: lower(v.serviceIds), statusPageIds: lower(v.statusPageIds) };
    const schedule = {
      startsAt: input.startsAt, endsAt: input.endsAt, repeatUnit: input.repeatUnit, repeatInterval: input.repeatInterval,
      repeatEndsAt: input.repeatEndsAt, timezone: input.timezone,
    };
    const issues: Issue[] = maintenanceWindowIssues(schedule);
    const known = linksSent
      ? await tx.maintenanceWindows.knownLinks(accountId, links.serviceIds, links.statusPageIds)
      : { services: links.serviceIds, pages: links.statusPageIds, shown: links.serviceIds };
    issues.push(...maintenanceVisibilityIssues(
      { affectAllServices: v.affectAllServices, serviceIds: v.serviceIds, statusPageIds: v.statusPageIds, reminderMinutesBefore: v.reminderMinutesBefore },
      { services: new Set(known.services), pages: new Set(known.pages), shown: new Set(known.shown) },
    ));
    if (issues.length === 0) issues.push(...planIssues(schedule, at));
    assertValid(issues);
    return {
      links,
      values: {
        name: input.name,
        startsAt: new Date(input.startsAt),
        endsAt: new Date(input.endsAt),
        repeatUnit: input.repeatUnit,
        repeatInterval: input.repeatInterval,
        repeatEndsAt: input.repeatEndsAt,
        timezone: namedTimeZone(input.timezone ?? 'UTC')!,
        tags: input.tags ?? [],
        pauseAllChecks: input.pauseAllChecks ?? false,
        silenceAlertsTags: input.silenceAlertsTags ?? [],
        silenceAllAlerts: input.silenceAllAlerts ?? false,
        description: input.description,
        statusPageVisibility: {
          enabled: v.enabled, severity: v.severity, affectAllServices: v.affectAllServices, notifyOnStart: v.notifyOnStart,
          notifyOnEnd: v.notifyOnEnd, suppressAutoIncidents: v.suppressAutoIncidents, reminderMinutesBefore: v.reminderMinutesBefore,
          autoStart: v.autoStart, autoEnd: v.autoEnd, showAffectedServices: v.showAffectedServices,
        },
      },
    };
  }

  const windowChange = (accountId: string) => (view: { id: number } & Record<string, any>): MaintenanceChange =>
    ({ accountId, maintenanceWindowId: view.id, maintenanceId: null, maintenance: view });
  const maintenanceChange = (accountId: string, m: ReturnType<typeof toMaintenanceView>): MaintenanceChange =>
    ({ accountId, maintenanceWindowId: m.maintenanceWindowId, maintenanceId: m.id, maintenance: m });

  return {
    windows: {
      /** A page of windows by id, filtered on their own startsAt and endsAt (the first maintenance's). */
      async list(accountId: string, page: number, limit: number, filters: MaintenanceDateFilters) {
        const { rows, total } = await store.maintenanceWindows.list(accountId, page, limit, filters);
        const links = await windowLinks(store, rows.map((r) => r.id));
        return { items: rows.map((r) => toMaintenanceWindowView(r, links.get(r.id)!)), total };
      },

      async get(accountId: string, id: number) {
        const row = await store.maintenanceWindows.get(accountId, id);
        if (!row) throw notFound('Maintenance window', id);
        return readWindowView(store, row);
      },

      async create(accountId: string, body: MaintenanceWindowCreateBody) {
        return write(async (tx) => {
          const at = now();
          const { values, links } = await validated(tx, accountId, withDefaults(body as Record<string, any>, WINDOW_SHAPE) as WindowInput, at, true);
          const row = await tx.maintenanceWindows.insert(accountId, values);
          await tx.maintenanceWindows.setLinks(row.id, links);
          await planWindow(tx, row, at);
          return readWindowView(tx, row);
        }, windowChange(accountId));
      },

      /** Only the fields sent change (null: see WINDOW_SHAPE); changing only `timezone` keeps startsAt and endsAt as the same instants. */
      async update(accountId: string, id: number, body: MaintenanceWindowPutBody) {
        return write(async (tx) => {
          const at = now();
          const stored = await lockedWindow(tx, accountId, id);
          const links = (await windowLinks(tx, [id])).get(id)!;
          const merged = withDefaults(mergeUpdate(inputOf(stored, links), body as Record<string, any>, WINDOW_SHAPE), WINDOW_SHAPE) as WindowInput;
          const sent = body.statusPageVisibility ?? {};
          const linksSent = sent.serviceIds != null || sent.statusPageIds != null || sent.affectAllServices != null;
          const { values, links: newLinks } = await validated(tx, accountId, merged, at, linksSent);
          const row = (await tx.maintenanceWindows.update(accountId, id, values))!;
          await tx.maintenanceWindows.setLinks(id, newLinks);
          await planWindow(tx, row, at);
          return readWindowView(tx, row);
        }, windowChange(accountId));
      },

      /** Removes the window with its maintenances, their updates and reminders. */
      async delete(accountId: string, id: number): Promise<void> {
        await write(async (tx) => {
          if (!(await tx.maintenanceWindows.delete(accountId, id))) throw notFound('Maintenance window', id);
        }, () => ({ accountId, maintenanceWindowId: id, maintenanceId: null, maintenance: null }));
      },
    },

    maintenances: {
      /** A page of a window's maintenances by start. */
      async list(accountId: string, windowId: number, page: number, limit: number, filters: MaintenanceDateFilters) {
        if (!(await store.maintenanceWindows.get(accountId, windowId))) throw notFound('Maintenance window', windowId);
        const { rows, total } = await store.maintenanceOccurrences.list(windowId, page, limit, filters);
        return { items: rows.map(toMaintenanceView), total };
      },

      async get(accountId: string, windowId: number, id: string) {
        return toMaintenanceView(await readMaintenance(accountId, windowId, id));
      },

      /** New dates for one maintenance (its status stays); a window update never moves it again. */
      async patch(accountId: string, windowId: number, id: string, body: MaintenancePatchBody) {
        return write(async (tx) => {
          const row = await lockedMaintenance(tx, accountId, windowId, id);
          if (!body.startsAt && !body.endsAt) return { view: toMaintenanceView(row), changed: false };
          const startsAt = body.startsAt ? new Date(body.startsAt) : row.starts_at;
          const endsAt = body.endsAt ? new Date(body.endsAt) : row.ends_at;
          assertValid([beforeYearOneIssue('startsAt', startsAt), beforeYearOneIssue('endsAt', endsAt)].filter((i) => i !== null));
          if (endsAt.getTime() <= startsAt.getTime()) {
            assertValid([body.endsAt ? { key: 'endsAt', message: 'must be after startsAt' } : { key: 'startsAt', message: 'must be before endsAt' }]);
          }
          const updated = await tx.maintenanceOccurrences.set(id, { status: row.status, startsAt, endsAt, adjusted: true });
          return { view: toMaintenanceView(updated), changed: true };
        }, (r) => (r.changed ? maintenanceChange(accountId, r.view) : null)).then((r) => r.view);
      },

      /** Removes one maintenance with its updates; a re-plan never brings its number back. */
      async delete(accountId: string, windowId: number, id: string): Promise<void> {
        await write(async (tx) => {
          await lockedWindow(tx, accountId, windowId);
          const occurrence = await tx.maintenanceOccurrences.delete(accountId, windowId, id);
          if (occurrence === undefined) throw notFound('Maintenance', id);
          await tx.maintenanceWindows.skipOccurrence(windowId, occurrence);
        }, () => ({ accountId, maintenanceWindowId: windowId, maintenanceId: id, maintenance: null }));
      },
    },

    updates: {
      /** A page of a maintenance's updates, newest first. */
      async list(accountId: string, windowId: number, maintenanceId: string, page: number, limit: number) {
        await readMaintenance(accountId, windowId, maintenanceId);
        const { rows, total } = await store.maintenanceUpdates.list(maintenanceId, page, limit);
        return { items: rows.map(toMaintenanceUpdateView), total };
      },

      async get(accountId: string, windowId: number, maintenanceId: string, id: string) {
        await readMaintenance(accountId, windowId, maintenanceId);
        const row = await store.maintenanceUpdates.get(accountId, maintenanceId, id);
        if (!row) throw notFound('Maintenance update', id);
        return toMaintenanceUpdateView(row);
      },

      /**
       * Posts an update: the maintenance takes its status (if the move is allowed,
       * maintenance-status-moves.ts) and its dates (sent, or implied by the move); the update records
       * the status and dates before it.
       */
      async create(accountId: string, windowId: number, maintenanceId: string, body: MaintenanceUpdateCreateBody) {
        return write(async (tx) => {
          const at = now();
          const row = await lockedMaintenance(tx, accountId, windowId, maintenanceId);
          const current = { status: row.status as MaintenanceStatus, startsAt: row.starts_at, endsAt: row.ends_at };
          const sent = { startsAt: body.startsAt ? new Date(body.startsAt) : null, endsAt: body.endsAt ? new Date(body.endsAt) : null };
          assertValid([beforeYearOneIssue('startsAt', sent.startsAt), beforeYearOneIssue('endsAt', sent.endsAt)].filter((i) => i !== null));
          const { issues, outcome } = maintenanceUpdateOutcome(current, { status: body.status, ...sent }, at);
          assertValid(issues);
          const { startsAt, endsAt, datesChanged } = outcome!;
          const update = await tx.maintenanceUpdates.insert(accountId, windowId, maintenanceId, randomUUID(), {
            status: body.status,
            previousStatus: row.status,
            description: body.description,
            notifySubscribers: body.notifySubscribers ?? false,
            dateAdjustment: datesChanged ? { previousStartsAt: row.starts_at, previousEndsAt: row.ends_at, startsAt, endsAt } : null,
            automatic: false,
          });
          const maintenance = await tx.maintenanceOccurrences.set(maintenanceId, { status: body.status, startsAt, endsAt, adjusted: datesChanged });
          return { update: toMaintenanceUpdateView(update), maintenance: toMaintenanceView(maintenance) };
        }, (r) => maintenanceChange(accountId, r.maintenance)).then((r) => r.update);
      },

      /**
       * Edits an update's description, status (absent or null: kept) and notifySubscribers (stored;
       * an edit never notifies). Only the latest update may change its status, which the maintenance
       * then takes; dates never move on an edit.
       */
      async update(accountId: string, windowId: number, maintenanceId: string, id: string, body: MaintenanceUpdatePutBody) {
        return write(async (tx) => {
          const row = await lockedMaintenance(tx, accountId, windowId, maintenanceId);
          const stored = await tx.maintenanceUpdates.get(accountId, maintenanceId, id);
          if (!stored) throw notFound('Maintenance update', id);
          const latest = await tx.maintenanceUpdates.latest(maintenanceId);
          const status = (body.status ?? stored.status) as MaintenanceStatus;
          assertValid(maintenanceUpdateEditIssues({
            previous: (stored.previous_status ?? 'SCHEDULED') as MaintenanceStatus,
            stored: stored.status as MaintenanceStatus,
            to: status,
            isLatest: latest?.id === stored.id,
          }, { startsAt: row.starts_at, endsAt: row.ends_at }, now()));
          const update = await tx.maintenanceUpdates.edit(id, {
            status, description: body.description, notifySubscribers: body.notifySubscribers ?? stored.notify_subscribers,
          });
          const maintenance = status === stored.status
            ? row
            : await tx.maintenanceOccurrences.set(maintenanceId, { status, startsAt: row.starts_at, endsAt: row.ends_at, adjusted: false });
          return { update: toMaintenanceUpdateView(update), maintenance: toMaintenanceView(maintenance) };
        }, (r) => maintenanceChange(accountId, r.maintenance)).then((r) => r.update);
      },
    },
  };
}

export type MaintenanceWindowService = ReturnType<typeof createMaintenanceWindowService>;
