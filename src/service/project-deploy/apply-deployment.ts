import type { DiffEntry, StoredResource, SubmittedResource } from '../../domain/plan-deployment.js';
import type { Store } from '../../store/create-store.js';
import type { Queryable } from '../../store/db.js';
import { createProjectsRepository } from '../../store/projects-repository.js';
import { repositories } from '../../store/repositories.js';
import { assignPrivateLocations } from './assign-private-locations.js';
import { createDeploymentContext } from './deployment-context.js';
import { lendOutsideResources } from './lend-outside-resources.js';
import { removeProjectResources } from './remove-project-resources.js';
import { subscribeProjectResources } from './subscribe-project-resources.js';
import { UPSERTED_KINDS, upsertPrivateLocation, upsertProjectResource } from './upsert-project-resource.js';

/** What a deploy applies: the project's resources in dependency order, resources it references from outside, and removals. */
export interface DeploymentPlan {
  order: SubmittedResource[];
  outside: SubmittedResource[];
  deletes: StoredResource[];
}

/** Options of applyDeployment. */
export interface ApplyDeploymentOptions {
  accountId: string;
  projectId: number;
  publicUrl: string;
  /** The plan's diff: each entry gets the physical id of what it created. */
  diff: DiffEntry[];
  sharedFiles?: unknown[];
  /** Whether this server has a model for agentic checks (AGENTIC checks are refused without one). */
  agenticModelConfigured?: boolean;
  /** Folder of run assets and uploaded code bundles: Playwright check suites must name an uploaded bundle. */
  assetsDir?: string;
}

/**
 * Applies a deployment inside `tx` through the resource services (their rules apply as for REST
 * writes): ids lent by outside resources, private locations, assignments, each kind in dependency
 * order, subscriptions, removals; then records what the project owns.
 */
export async function applyDeployment(store: Store, tx: Queryable, plan: DeploymentPlan, options: ApplyDeploymentOptions): Promise<void> {
  const ctx = createDeploymentContext(store, repositories(tx), {
    accountId: options.accountId, publicUrl: options.publicUrl, diff: options.diff, sharedFiles: options.sharedFiles ?? [],
    agenticModelConfigured: options.agenticModelConfigured, assetsDir: options.assetsDir,
  });
  const ofType = (type: string) => plan.order.filter((r) => r.type === type);
  await lendOutsideResources(ctx, plan.outside);
  for (const r of ofType('private-location')) await upsertPrivateLocation(ctx, r);
  const runsIn = assignPrivateLocations(ctx, ofType);
  for (const kind of UPSERTED_KINDS) for (const r of ofType(kind)) await upsertProjectResource(ctx, kind, r, runsIn);
  await subscribeProjectResources(ctx, ofType);
  await removeProjectResources(ctx, plan.deletes);
  await createProjectsRepository(tx).replaceResources(options.projectId, ctx.owned);
}
