import { ManagedByProject } from './managed-by-project.js';
import { useManagingProject } from './use-managing-project.js';

/** The "Managed by project" marker of a check, when a project deploys it; nothing otherwise. */
export function CheckManagedMarker({ checkId }: { checkId: string }) {
  const project = useManagingProject({ checkId });
  return project ? <ManagedByProject project={project} noun="check" /> : null;
}
