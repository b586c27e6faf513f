import DataLoader from 'dataloader';
import { RestError } from './errors.js';
import { getOrNull } from './get-or-null.js';
import { isIntegerId, isUuid } from './global-id.js';
import type { RestSession } from './rest-client.js';
import { walkOffsetList } from './status-page-list-walks.js';
import type { RestCheckMaintenance, RestCheckMaintenanceState, RestMaintenance, RestMaintenanceUpdate, RestMaintenanceWindow } from './maintenance-types.js';

/** Largest pages the REST lists serve: windows, a window's maintenances, a maintenance's updates. */
const WINDOW_PAGE = 100;
const MAINTENANCE_PAGE = 50;
const UPDATE_PAGE = 100;
/** Most checks one `GET /v1/check-maintenance` answers for. */
const CHECK_BATCH = 100;

/** Which of a window's maintenances to read: those ending after `endsAfter` and starting before `startsBefore`, when given. */
export interface MaintenanceBounds {
  endsAfter?: string | null;
  startsBefore?: string | null;
}

/** Which of a window's next maintenances to read: at most `first`, ending after `from` and starting before `to` when given. */
export interface UpcomingMaintenanceBounds {
  from: string;
  to: string | null;
  first: number;
}

/** Per-operation loaders of maintenance windows, their maintenances and the maintenances' updates. */
export interface MaintenanceLoaders {
  /** Windows by REST id; null when unknown or of another account. */
  windowById: DataLoader<number, RestMaintenanceWindow | null>;
  /** Every window of the account, by id: the whole offset list, read once per operation. */
  allWindows(): Promise<RestMaintenanceWindow[]>;
  /** Maintenances by `windowId:maintenanceId`; null when unknown or of another account. */
  maintenanceByKey: DataLoader<string, RestMaintenance | null>;
  /** A window's maintenances within `bounds`, by start (empty when the window is unknown); each window and bounds read once. */
  maintenancesOf(windowId: number, bounds: MaintenanceBounds): Promise<RestMaintenance[]>;
  /** A window's next `first` maintenances within `bounds`, by start, with one REST call (empty when the window is unknown); each window and bounds read once. */
  upcomingOf(windowId: number, bounds: UpcomingMaintenanceBounds): Promise<RestMaintenance[]>;
  /** Updates by `windowId:maintenanceId:updateId`; null when unknown or of another account. */
  updateByKey: DataLoader<string, RestMaintenanceUpdate | null>;
  /** A maintenance's updates by `windowId:maintenanceId`, newest first (empty when unknown); each read once. */
  updatesOf: DataLoader<string, RestMaintenanceUpdate[]>;
  /** The maintenance of a check by REST UUID (one `GET /v1/check-maintenance` per 100 checks); null when none, or the check is unknown. */
  checkMaintenance: DataLoader<string, RestCheckMaintenance | null>;
  /** Forgets everything read so far: a write may have changed any of it. */
  clearAll(): void;
}

const lower = (key: string) => key.toLowerCase();
const windowsPath = '/v1/maintenance-windows';

/** An offset list walked whole, or empty when its parent is unknown or another account's (404). */
async function walkOrEmpty<T>(rest: RestSession, path: string, limit: number, query: Record<string, string | undefined> = {}): Promise<T[]> {
  try {
    return await walkOffsetList<T>(rest, path, limit, query);
  } catch (err) {
    if (err instanceof RestError && err.status === 404) return [];
    throw err;
  }
}

/**
 * Loaders over routes without an `ids=` filter. One window by id is one GET; several are found in
 * one walk of the window list (one call per 100 windows), which also serves every service and page
 * asking which windows name it. A window's maintenances are read once per operation for each bounds
 * (one call per 50), a maintenance's updates once (one call per 100); both prime the by-id loaders,
 * so walking back from an update to its maintenance, or from a maintenance to its window, is free.
 */
export function createMaintenanceLoaders(rest: RestSession): MaintenanceLoaders {
  let windows: Promise<RestMaintenanceWindow[]> | undefined;

  const allWindows = () => {
    windows ??= walkOffsetList<RestMaintenanceWindow>(rest, windowsPath, WINDOW_PAGE).then((all) => {
      for (const w of all) windowById.prime(w.id, w);
      return all;
    });
    return windows;
  };

  const windowById = new DataLoader<number, RestMaintenanceWindow | null>(async (keys) => {
    const wanted = keys.filter((k) => isIntegerId(String(k)));
    if (wanted.length === 0) return keys.map(() => null);
    if (wanted.length === 1 && !windows) {
      const one = await getOrNull<RestMaintenanceWindow>(rest, `${windowsPath}/${wanted[0]}`);
      return keys.map((k) => (one && one.id === k ? one : null));
    }
    const byId = new Map((await allWindows()).map((w) => [w.id, w]));
    return keys.map((k) => byId.get(k) ?? null);
  }, { maxBatchSize: 100 });

  const maintenanceByKey = new DataLoader<string, RestMaintenance | null>((keys) => Promise.all(keys.map((key) => {
    const [windowId, maintenanceId] = key.split(':');
    if (!windowId || !maintenanceId || !isIntegerId(windowId) || !isUuid(maintenanceId)) return null;
    return getOrNull<RestMaintenance>(rest, `${windowsPath}/${windowId}/maintenances/${maintenanceId}`);
  })), { cacheKeyFn: lower });

  const maintenanceLists = new DataLoader<string, RestMaintenance[]>((keys) => Promise.all(keys.map(async (key) => {
    const [windowId, endsAfter, startsBefore] = JSON.parse(key) as [number, string | null, string | null];
    const all = await walkOrEmpty<RestMaintenance>(rest, `${windowsPath}/${windowId}/maintenances`, MAINTENANCE_PAGE, {
      'endsAt[gt]': endsAfter ?? undefined,
      'startsAt[lt]': startsBefore ?? undefined,
    });
    for (const m of all) maintenanceByKey.prime(lower(`${m.maintenanceWindowId}:${m.id}`), m);
    return all;
  })));

  // One page of at most `first` (≤ MAINTENANCE_PAGE): an open-ended window never costs more than one call.
  const upcomingLists = new DataLoader<string, RestMaintenance[]>((keys) => Promise.all(keys.map(async (key) => {
    const [windowId, from, to, first] = JSON.parse(key) as [number, string, string | null, number];
    try {
      const res = await rest.get<RestMaintenance[]>(`${windowsPath}/${windowId}/maintenances`, {
        page: 1, limit: Math.min(first, MAINTENANCE_PAGE), 'endsAt[gt]': from, 'startsAt[lt]': to ?? undefined,
      });
      for (const m of res.body) maintenanceByKey.prime(lower(`${m.maintenanceWindowId}:${m.id}`), m);
      return res.body;
    } catch (err) {
      if (err instanceof RestError && err.status === 404) return [];
      throw err;
    }
  })));

  const updateByKey = new DataLoader<string, RestMaintenanceUpdate | null>((keys) => Promise.all(keys.map((key) => {
    const [windowId, maintenanceId, updateId] = key.split(':');
    if (!windowId || !maintenanceId || !updateId || !isIntegerId(windowId) || !isUuid(maintenanceId) || !isUuid(updateId)) return null;
    return getOrNull<RestMaintenanceUpdate>(rest, `${windowsPath}/${windowId}/maintenances/${maintenanceId}/updates/${updateId}`);
  })), { cacheKeyFn: lower });

  const updatesOf = new DataLoader<string, RestMaintenanceUpdate[]>((keys) => Promise.all(keys.map(async (key) => {
    const [windowId, maintenanceId] = key.split(':');
    if (!windowId || !maintenanceId || !isIntegerId(windowId) || !isUuid(maintenanceId)) return [];
    const all = await walkOrEmpty<RestMaintenanceUpdate>(rest, `${windowsPath}/${windowId}/maintenances/${maintenanceId}/updates`, UPDATE_PAGE);
    for (const u of all) updateByKey.prime(lower(`${u.maintenanceWindowId}:${u.maintenanceId}:${u.id}`), u);
    return all;
  })), { cacheKeyFn: lower });

  const checkMaintenance = new DataLoader<string, RestCheckMaintenance | null>(async (keys) => {
    const wanted = keys.filter(isUuid);
    if (wanted.length === 0) return keys.map(() => null);
    const res = await rest.get<RestCheckMaintenanceState[]>('/v1/check-maintenance', { checkId: wanted.join(',') });
    const byCheck = new Map(res.body.map((s) => [lower(s.checkId), s.maintenance]));
    return keys.map((k) => byCheck.get(lower(k)) ?? null);
  }, { maxBatchSize: CHECK_BATCH, cacheKeyFn: lower });

  return {
    windowById,
    allWindows,
    checkMaintenance,
    maintenanceByKey,
    maintenancesOf: (windowId, { endsAfter, startsBefore }) => maintenanceLists.load(JSON.stringify([windowId, endsAfter ?? null, startsBefore ?? null])),
    upcomingOf: (windowId, { from, to, first }) => upcomingLists.load(JSON.stringify([windowId, from, to, first])),
    updateByKey,
    updatesOf,
    clearAll() {
      windows = undefined;
      windowById.clearAll();
      maintenanceByKey.clearAll();
      maintenanceLists.clearAll();
      upcomingLists.clearAll();
      updateByKey.clearAll();
      updatesOf.clearAll();
      checkMaintenance.clearAll();
    },
  };
}
