import type { ProjectRow } from '../store/projects-repository.js';

/** A project as the REST API answers it (the `Project` schema). */
export function toProjectView(row: ProjectRow): Record<string, any> {
  return {
    id: row.id,
    logicalId: row.logical_id,
    name: row.name,
    repoUrl: row.repo_url,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}
