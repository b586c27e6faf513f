import DataLoader from 'dataloader';
import type { RestDashboard } from './dashboard-types.js';
import { getOrNull } from './get-or-null.js';
import { isUuid } from './global-id.js';
import type { RestSession } from './rest-client.js';

/** Per-operation loaders of dashboards. */
export interface DashboardLoaders {
  /** Dashboards by REST UUID (lower-case); null when unknown or of another account. */
  dashboardById: DataLoader<string, RestDashboard | null>;
  /** Forgets everything read so far: a write may have changed any of it. */
  clearAll(): void;
}

const lower = (key: string) => key.toLowerCase();

/**
 * Dashboards by id are single GETs (the list route has no `ids=` filter and names its items
 * `dashboardId`), each made once per operation; the list connection primes them.
 */
export function createDashboardLoaders(rest: RestSession): DashboardLoaders {
  const dashboardById = new DataLoader<string, RestDashboard | null>(
    (keys) => Promise.all(keys.map((k) => (isUuid(k) ? getOrNull<RestDashboard>(rest, `/v1/dashboards/${k}`) : null))),
    { cacheKeyFn: lower },
  );
  return { dashboardById, clearAll: () => dashboardById.clearAll() };
}
