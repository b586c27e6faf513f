import { agenticResourceIssues } from '../domain/agentic-check-issues.js';
import { assertValid, LookoutError, notFound } from '../domain/lookout-error.js';
import { planDeployment, type DiffEntry } from '../domain/plan-deployment.js';
import type { Store } from '../store/create-store.js';
import { createProjectsRepository, type DeploymentRow } from '../store/projects-repository.js';
import { applyDeployment } from './project-deploy/apply-deployment.js';
import { toProjectView } from './project-view.js';

/** The deploy body of the CLI (`projectBundle.synthesize()` plus `repoInfo`). */
export interface DeployBody {
  project: { logicalId: string; name: string; repoUrl?: string | null };
  resources: { logicalId: string; type: string; member?: boolean; physicalId?: string | number | null; payload: unknown }[];
  /** Project files browser and multi-step checks import, named in their `dependencies` by index. */
  sharedFiles?: unknown[];
}

/** How the project service is set up. */
export interface ProjectServiceOptions {
  store: Store;
  publicUrl: string;
  agenticModelConfigured?: boolean;
  /** Folder of run assets and uploaded code bundles: a Playwright check suite naming a bundle never uploaded is refused (400). */
  assetsDir?: string;
}

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
export function createProjectService({ store, publicUrl, agenticModelConfigured = false, assetsDir }: ProjectServiceOptions) {
  const projects = createProjectsRepository(store.db);

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

  /**
   * `deploy --preview`: the deploy's own path (every resource through the services' rules) inside a
   * transaction that is always rolled back, so a preview refuses exactly what the deploy would and
   * writes nothing. Answers the diff the deploy would record.
   */
  async function preview(accountId: string, body: DeployBody, submitted: Parameters<typeof planDeployment>[1], preserveResources: boolean | undefined, sharedFiles: unknown[]) {
    let diff: DiffEntry[] = [];
    const rollback = new Error('deploy preview: rolled back');
    try {
      await store.db.transaction(async (tx) => {
        const repo = createProjectsRepository(tx);
        const existing = await repo.get(accountId, body.project.logicalId);
        const projectId = existing?.id ?? await repo.upsert(accountId, { logicalId: body.project.logicalId, name: body.project.name, repoUrl: body.project.repoUrl ?? null });
        const plan = planDeployment(await repo.resources(projectId), submitted, { preserveResources });
        diff = plan.diff;
        await applyDeployment(store, tx, plan, { accountId, projectId, publicUrl, diff, sharedFiles, agenticModelConfigured, assetsDir });
        throw rollback;
      });
    } catch (err) {
      if (err !== rollback) throw err;
    }
    // Physical ids given to new resources were never kept: the preview shows none.
    return { diff: diff.map((d) => (d.action === 'CREATE' ? { ...d, physicalId: null } : d)) };
  }

  return {
    /** A dry run answers `{ diff }` and writes nothing; else the finished deployment. */
    async deploy(accountId: string, body: DeployBody, opts: { dryRun?: boolean; preserveResources?: boolean }) {
      const { logicalId } = body.project;
      const project = await projects.get(accountId, logicalId);
      const stored = project ? await projects.resources(project.id) : [];
      const submitted = body.resources.map((r) => ({ type: r.type, logicalId: r.logicalId, payload: r.payload, member: r.member, physicalId: r.physicalId }));
      const plan = planDeployment(stored, submitted, { preserveResources: opts.preserveResources });
      assertValid([...plan.issues, ...agenticResourceIssues(submitted, agenticModelConfigured)].map((i) => ({ key: `resources.${i.key}`, message: i.message })));
      const sharedFiles = Array.isArray(body.sharedFiles) ? body.sharedFiles : [];
      if (opts.dryRun) return preview(accountId, body, submitted, opts.preserveResources, sharedFiles);
      const projectId = await projects.upsert(accountId, { logicalId, name: body.project.name, repoUrl: body.project.repoUrl ?? null });
      const deploymentId = await start(accountId, projectId, logicalId, 'DEPLOY');
      const removeIfNew = async () => { if (!project) await projects.delete(projectId); };
      return run(accountId, logicalId, deploymentId, plan.diff, removeIfNew, () => store.db.transaction(async (tx) => {
        // Re-read inside the transaction: the plan must apply to what is stored now.
        const current = await createProjectsRepository(tx).resources(projectId);
        const fresh = planDeployment(current, submitted, { preserveResources: opts.preserveResources });
        plan.diff.splice(0, plan.diff.length, ...fresh.diff);
        await applyDeployment(store, tx, fresh, { accountId, projectId, publicUrl, diff: plan.diff, sharedFiles, agenticModelConfigured, assetsDir });
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
        await applyDeployment(store, tx, plan, { accountId, projectId: project.id, publicUrl, diff: plan.diff, agenticModelConfigured, assetsDir });
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
