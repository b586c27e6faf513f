import { randomUUID } from 'node:crypto';
import type { DiffEntry, StoredResource } from '../domain/plan-deployment.js';
import type { Queryable } from './db.js';

export interface ProjectRow {
  id: number;
  logical_id: string;
  name: string;
  repo_url: string | null;
  created_at: Date;
  updated_at: Date | null;
}

export interface DeploymentRow {
  id: string;
  project_logical_id: string;
  kind: string;
  status: string;
  diff: DiffEntry[];
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const DEPLOYMENT_COLUMNS = 'id, project_logical_id, kind, status, diff, error, created_at, finished_at';

/** Projects, the resources each owns by logical id, and their deployments. */
export function createProjectsRepository(q: Queryable) {
  return {
    async get(accountId: string, logicalId: string): Promise<ProjectRow | undefined> {
      const [row] = await q.query<ProjectRow>('SELECT * FROM projects WHERE account_id = $1 AND logical_id = $2', [accountId, logicalId]);
      return row;
    },

    list: (accountId: string) => q.query<ProjectRow>('SELECT * FROM projects WHERE account_id = $1 ORDER BY id', [accountId]),

    /** Creates the project or renames it; answers its id. */
    async upsert(accountId: string, p: { logicalId: string; name: string; repoUrl: string | null }): Promise<number> {
      const [row] = await q.query<{ id: number }>(
        `INSERT INTO projects (account_id, logical_id, name, repo_url) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, logical_id) DO UPDATE SET name = EXCLUDED.name, repo_url = EXCLUDED.repo_url, updated_at = now()
         RETURNING id`,
        [accountId, p.logicalId, p.name, p.repoUrl],
      );
      return row!.id;
    },

    /** One offset page of the account's projects, oldest first, and how many there are. */
    async page(accountId: string, page: number, limit: number): Promise<{ rows: ProjectRow[]; total: number }> {
      const rows = await q.query<ProjectRow & { total: number }>(
        'SELECT *, count(*) OVER ()::int AS total FROM projects WHERE account_id = $1 ORDER BY id LIMIT $2 OFFSET $3',
        [accountId, limit, (page - 1) * limit],
      );
      if (rows.length > 0) return { rows: rows.map(({ total: _t, ...row }) => row), total: rows[0]!.total };
      const [count] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE account_id = $1', [accountId]);
      return { rows: [], total: count?.n ?? 0 };
    },

    /**
     * Which project of the account owns each of `physicalIds` of `type` (ids owned by none are absent).
     * Matched without regard to case: uuids are stored lower-case but may be asked for in any case.
     */
    async owners(accountId: string, type: string, physicalIds: string[]): Promise<(ProjectRow & { physical_id: string; resource_logical_id: string })[]> {
      return q.query<ProjectRow & { physical_id: string; resource_logical_id: string }>(
        `SELECT DISTINCT ON (lower(r.physical_id)) p.*, r.physical_id, r.logical_id AS resource_logical_id
         FROM project_resources r JOIN projects p ON p.id = r.project_id
         WHERE p.account_id = $1 AND r.resource_type = $2 AND lower(r.physical_id) = ANY($3::text[])
         ORDER BY lower(r.physical_id), p.id`,
        [accountId, type, physicalIds.map((id) => id.toLowerCase())],
      );
    },

    delete: async (projectId: number) => { await q.query('DELETE FROM projects WHERE id = $1', [projectId]); },

    async resources(projectId: number): Promise<StoredResource[]> {
      const rows = await q.query<{ resource_type: string; logical_id: string; physical_id: string | null }>(
        'SELECT resource_type, logical_id, physical_id FROM project_resources WHERE project_id = $1 ORDER BY resource_type, logical_id', [projectId],
      );
      return rows.map((r) => ({ type: r.resource_type, logicalId: r.logical_id, physicalId: r.physical_id }));
    },

    async replaceResources(projectId: number, resources: StoredResource[]): Promise<void> {
      await q.query('DELETE FROM project_resources WHERE project_id = $1', [projectId]);
      for (const r of resources) {
        await q.query('INSERT INTO project_resources (project_id, resource_type, logical_id, physical_id) VALUES ($1, $2, $3, $4)', [projectId, r.type, r.logicalId, r.physicalId]);
      }
    },

    /**
     * Starts a deployment of the project; when one already runs, answers that one's id instead
     * (the partial unique index makes this safe against concurrent callers).
     */
    async start(accountId: string, projectId: number, projectLogicalId: string, kind: string): Promise<{ id: string; started: boolean }> {
      const id = randomUUID();
      const rows = await q.query<{ id: string }>(
        `INSERT INTO deployments (id, account_id, project_id, project_logical_id, kind, status) VALUES ($1, $2, $3, $4, $5, 'RUNNING')
         ON CONFLICT (project_id) WHERE status = 'RUNNING' DO NOTHING RETURNING id`,
        [id, accountId, projectId, projectLogicalId, kind],
      );
      if (rows.length) return { id, started: true };
      const [running] = await q.query<{ id: string }>("SELECT id FROM deployments WHERE project_id = $1 AND status = 'RUNNING'", [projectId]);
      return { id: running!.id, started: false };
    },

    async finish(id: string, status: 'SUCCEEDED' | 'FAILED' | 'CANCELLED', diff: DiffEntry[], error: string | null): Promise<void> {
      await q.query('UPDATE deployments SET status = $2, diff = $3, error = $4, finished_at = now() WHERE id = $1', [id, status, JSON.stringify(diff), error]);
    },

    async getDeployment(accountId: string, projectLogicalId: string, id: string): Promise<DeploymentRow | undefined> {
      const [row] = await q.query<DeploymentRow>(
        `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments WHERE account_id = $1 AND project_logical_id = $2 AND id::text = $3`,
        [accountId, projectLogicalId, id],
      );
      return row;
    },
  };
}
export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
