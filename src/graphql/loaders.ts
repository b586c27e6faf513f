import DataLoader from 'dataloader';
import { isUuid } from './global-id.js';
import type { RestSession } from './rest-client.js';
import type { RestCheckGroup } from './rest-types.js';
import { createCheckLoader, type CheckLoader } from './create-check-loader.js';
import { loadByIds } from './load-by-ids.js';
import { createResultLoaders } from './result-loaders.js';
import type { RestErrorGroup } from './rest-result-types.js';
import type { RestAlertChannel, RestPrivateLocation, RestSnippet } from './rest-config-types.js';
import { createStatusPageIncidentLoaders, type StatusPageIncidentLoaders } from './status-page-incident-loaders.js';
import { createStatusPageLoaders, type StatusPageLoaders } from './status-page-loaders.js';
import { createMaintenanceLoaders, type MaintenanceLoaders } from './maintenance-loaders.js';
import { createDashboardLoaders, type DashboardLoaders } from './dashboard-loaders.js';
import { createProjectLoaders, type ProjectLoaders } from './project-loaders.js';

/** Per-operation loaders: each key is fetched at most once, and keys asked for together share one REST call. */
export interface Loaders {
  /** Checks by REST UUID, whole or with some REST fields (create-check-loader.ts); null when unknown or of another account. */
  checkById: CheckLoader;
  /** Groups by REST integer id; null when unknown or of another account. */
  groupById: DataLoader<number, RestCheckGroup | null>;
  /** Check error groups by REST UUID (one `ids=` call); null when unknown or of another account. */
  errorGroupById: DataLoader<string, RestErrorGroup | null>;
  /** Run data batched across checks: latest results, statuses, error groups, analytics summaries; single results. */
  results: ReturnType<typeof createResultLoaders>;
  /** Alert channels by REST integer id; null when unknown or of another account. */
  alertChannelById: DataLoader<number, RestAlertChannel | null>;
  /** Snippets by REST integer id (one `ids=` call); null when unknown or of another account. */
  snippetById: DataLoader<number, RestSnippet | null>;
  /** Private locations by slug, from one call of the unpaginated list; null when the account has none with that slug. */
  privateLocationBySlug: DataLoader<string, RestPrivateLocation | null>;
  /** Status page services, incidents and incident updates (status-page-incident-loaders.ts). */
  statusPageIncidents: StatusPageIncidentLoaders;
  /** Status pages, their subscribers and the account's checks (status-page-loaders.ts). */
  statusPages: StatusPageLoaders;
  /** Maintenance windows, maintenances and their updates (maintenance-loaders.ts). */
  maintenances: MaintenanceLoaders;
  /** Dashboards (dashboard-loaders.ts). */
  dashboards: DashboardLoaders;
  /** Projects, their resources and which project owns a resource (project-loaders.ts). */
  projects: ProjectLoaders;
}

/** Fresh loaders for one operation (never shared between callers: they cache per account). */
export function createLoaders(rest: RestSession): Loaders {
  return {
    errorGroupById: new DataLoader((keys) => loadByIds<string, RestErrorGroup>(rest, '/v1/error-groups', keys, isUuid), { maxBatchSize: 100 }),
    results: createResultLoaders(rest),
    checkById: createCheckLoader(rest),
    groupById: new DataLoader(
      (keys) => loadByIds<number, RestCheckGroup>(rest, '/v1/check-groups', keys, (k) => Number.isInteger(k) && k >= 1 && k <= 2_147_483_647),
      { maxBatchSize: 100 },
    ),
    alertChannelById: new DataLoader(
      (keys) => loadByIds<number, RestAlertChannel>(rest, '/v1/alert-channels', keys, (k) => Number.isInteger(k) && k >= 1 && k <= 2_147_483_647),
      { maxBatchSize: 100 },
    ),
    snippetById: new DataLoader(
      (keys) => loadByIds<number, RestSnippet>(rest, '/v1/snippets', keys, (k) => Number.isInteger(k) && k >= 1 && k <= 2_147_483_647),
      { maxBatchSize: 100 },
    ),
    privateLocationBySlug: privateLocationsBySlug(rest),
    statusPageIncidents: createStatusPageIncidentLoaders(rest),
    statusPages: createStatusPageLoaders(rest),
    maintenances: createMaintenanceLoaders(rest),
    dashboards: createDashboardLoaders(rest),
    projects: createProjectLoaders(rest),
  };
}

/**
 * The list route has no slug filter but answers every location of the account at once: it is
 * fetched once per operation, however many batches (list levels) ask for slugs.
 */
function privateLocationsBySlug(rest: RestSession): DataLoader<string, RestPrivateLocation | null> {
  let all: Promise<Map<string, RestPrivateLocation>> | undefined;
  return new DataLoader(async (slugs) => {
    all ??= rest.get<RestPrivateLocation[]>('/v1/private-locations').then((res) => new Map(res.body.map((l) => [l.slugName, l])));
    const bySlug = await all;
    return slugs.map((slug) => bySlug.get(slug) ?? null);
  });
}
