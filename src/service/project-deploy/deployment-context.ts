import type { DiffEntry, StoredResource, SubmittedResource } from '../../domain/plan-deployment.js';
import type { Store } from '../../store/create-store.js';
import type { Repositories } from '../../store/repositories.js';
import { createAlertChannelService } from '../alert-channel-service.js';
import { createCheckGroupService } from '../check-group-service.js';
import { createCheckService } from '../check-service.js';
import { storageDirOf } from '../code-bundle-issues.js';
import { createDashboardService } from '../dashboard-service.js';
import { createMaintenanceWindowService } from '../maintenance-window-service.js';
import { createPrivateLocationService } from '../private-location-service.js';
import { createStatusPageIncidentService } from '../status-page-incident-service.js';
import { createStatusPagesService } from '../status-pages-service.js';

/** One deployment being applied inside its transaction: the services it writes through and what it learned so far. */
export interface DeploymentContext {
  accountId: string;
  repos: Repositories;
  /** The resource services, bound to the deploy's transaction so their rules run inside it. */
  services: ReturnType<typeof deploymentServices>;
  /** Project files browser and multi-step checks import, named in their `dependencies` by index. */
  sharedFiles: unknown[];
  /** Physical id of each resource the project already owns, by `type:logicalId`. */
  physical: Map<string, string>;
  /** Physical id of each resource known so far (numbers for groups and channels), by logical id: what `{ ref }` resolves to. */
  ids: Map<string, string | number>;
  /** Slug of each private location of the deploy (project's own or lent), by logical id: checks run in slugs. */
  slugOf: Map<string, string>;
  /** Records a resource the project now owns, with its id in `ids` and in the diff. */
  record(r: SubmittedResource, id: string | number | null): void;
  /** The resources the project owns after the deploy. */
  owned: StoredResource[];
}

/** A store whose `transaction` joins an already open one: the services' rules run inside the deploy's transaction. */
function joinedStore(store: Store, repos: Repositories): Store {
  return { ...repos, db: store.db, transaction: (fn) => fn(repos), close: () => store.close() };
}

function deploymentServices(store: Store, publicUrl: string, agenticModelConfigured = false, assetsDir?: string) {
  return {
    // The stored files only, so a suite whose code bundle was never uploaded is refused. Not
    // assetsDir: deleting a check would then read its assets outside the deploy's transaction
    // (a deadlock on one connection); removed checks' files are left to the orphan sweep.
    checks: createCheckService({ store, publicUrl, storageDir: assetsDir ? storageDirOf(assetsDir) : undefined, agenticModelConfigured }),
    groups: createCheckGroupService({ store }),
    channels: createAlertChannelService({ store }),
    // No bus: events would go out before the deploy commits; the public content version still moves,
    // and maintenance clocks look again within a minute.
    windows: createMaintenanceWindowService({ store }).windows,
    pageServices: createStatusPageIncidentService({ store }).services,
    pages: createStatusPagesService({ store }),
    dashboards: createDashboardService({ store, publicUrl }),
    privateLocations: createPrivateLocationService({ store }),
  };
}

/** The context of one deployment over `repos` (the deploy's transaction); `diff` gets the physical ids. */
export function createDeploymentContext(
  store: Store, repos: Repositories,
  options: { accountId: string; publicUrl: string; diff: DiffEntry[]; sharedFiles: unknown[]; agenticModelConfigured?: boolean; assetsDir?: string },
): DeploymentContext {
  const { diff } = options;
  const ids = new Map<string, string | number>();
  const owned: StoredResource[] = [];
  return {
    accountId: options.accountId,
    repos,
    services: deploymentServices(joinedStore(store, repos), options.publicUrl, options.agenticModelConfigured, options.assetsDir),
    sharedFiles: options.sharedFiles,
    physical: new Map(diff.filter((d) => d.physicalId != null).map((d) => [`${d.type}:${d.logicalId}`, d.physicalId!])),
    ids,
    slugOf: new Map(),
    owned,
    record(r, id) {
      if (id != null) ids.set(r.logicalId, id);
      owned.push({ type: r.type, logicalId: r.logicalId, physicalId: id == null ? null : String(id) });
      const entry = diff.find((d) => d.type === r.type && d.logicalId === r.logicalId);
      if (entry) entry.physicalId = id == null ? null : String(id);
    },
  };
}
