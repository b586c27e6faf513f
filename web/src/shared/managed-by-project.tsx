import type { ManagingProject } from './use-managing-project.js';

/**
 * "Managed by project X — edit in code": shown on resources `checkly deploy` manages, whose console
 * edits the project's next deploy would undo (the API still takes them, as Checkly's does).
 */
export function ManagedByProject({ project, noun }: { project: ManagingProject; noun: 'check' | 'group' }) {
  return (
    <p className="managed-marker" role="note" data-project={project.projectLogicalId}>
      <strong>Managed by project {project.name}</strong> — edit in code. <span className="muted">This {noun} is <code>{project.resourceLogicalId}</code> in
        project <code>{project.projectLogicalId}</code>; the next <code>checkly deploy</code> overwrites changes made here.</span>
    </p>
  );
}
