import { notFound } from '../domain/lookout-error.js';
import type { Store } from '../store/create-store.js';
import { createProjectsRepository } from '../store/projects-repository.js';
import { toProjectView } from './project-view.js';

/**
 * Reading projects as a graph: the paged list, one project, the resources a project owns, and the
 * reverse lookup from resources (by physical id) to the project owning them. Every read is scoped by
 * account, so another account's projects and resources read exactly like unknown ones.
 */
export function createProjectResourceService({ store }: { store: Store }) {
  const projects = createProjectsRepository(store.db);

  async function projectOf(accountId: string, logicalId: string) {
    const row = await projects.get(accountId, logicalId);
    if (!row) throw notFound('Project', logicalId);
    return row;
  }

  return {
    /** One offset page of the account's projects, oldest first, and their total. */
    async list(accountId: string, page: number, limit: number) {
      const { rows, total } = await projects.page(accountId, page, limit);
      return { items: rows.map(toProjectView), total };
    },

    /** One project by its logical id; NOT_FOUND when the account has none by that id. */
    async get(accountId: string, logicalId: string) {
      return toProjectView(await projectOf(accountId, logicalId));
    },

    /** The resources the project owns (optionally of one type), by type then logical id. */
    async resources(accountId: string, logicalId: string, type?: string) {
      const project = await projectOf(accountId, logicalId);
      const all = await projects.resources(project.id);
      return type === undefined ? all : all.filter((r) => r.type === type);
    },

    /**
     * For each of `physicalIds` of `type` a project of the account owns: the resource's logical id and
     * its project, in the order the ids were given (each once); ids no project owns are left out.
     */
    async owners(accountId: string, type: string, physicalIds: string[]) {
      const rows = await projects.owners(accountId, type, physicalIds);
      const byId = new Map(rows.map((r) => [r.physical_id.toLowerCase(), r]));
      const seen = new Set<string>();
      const out: Record<string, any>[] = [];
      for (const id of physicalIds) {
        const row = byId.get(id.toLowerCase());
        if (!row || seen.has(row.physical_id)) continue;
        seen.add(row.physical_id);
        out.push({ type, physicalId: row.physical_id, logicalId: row.resource_logical_id, project: toProjectView(row) });
      }
      return out;
    },
  };
}
export type ProjectResourceService = ReturnType<typeof createProjectResourceService>;
