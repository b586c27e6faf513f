import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';

const CheckProjectQuery = graphql(`
  query ConsoleCheckProject($id: ID!) { check(id: $id) { id project { logicalId type project { id name logicalId } } } }
`);
const GroupProjectQuery = graphql(`
  query ConsoleGroupProject($id: ID!) { checkGroup(id: $id) { id project { logicalId type project { id name logicalId } } } }
`);

/** The monitoring-as-code project managing a resource: its name and logical id, and the resource's logical id in it. */
export interface ManagingProject {
  name: string;
  projectLogicalId: string;
  resourceLogicalId: string;
}

/**
 * The project that deploys a check or a group (`checkly deploy`), if any: undefined while loading,
 * null when none does. A console edit of such a resource is undone by the project's next deploy.
 */
export function useManagingProject(of: { checkId: string } | { groupId: string } | null): ManagingProject | null | undefined {
  const checkId = of && 'checkId' in of ? of.checkId : null;
  const groupId = of && 'groupId' in of ? of.groupId : null;
  const [check] = useQuery({ query: CheckProjectQuery, variables: { id: checkId ?? '' }, pause: !checkId });
  const [group] = useQuery({ query: GroupProjectQuery, variables: { id: groupId ?? '' }, pause: !groupId });
  if (!of) return null;
  const membership = checkId ? check.data?.check?.project : group.data?.checkGroup?.project;
  const loaded = checkId ? check.data || check.error : group.data || group.error;
  if (!loaded) return undefined;
  return membership ? { name: membership.project.name, projectLogicalId: membership.project.logicalId, resourceLogicalId: membership.logicalId } : null;
}
