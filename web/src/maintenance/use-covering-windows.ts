import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import type { CoveringWindowLike } from './check-maintenance.js';

/**
 * Windows read for the checks pages' maintenance state. Each window's upcoming maintenances cost one
 * REST call, so the first 40 windows are read: within the operation's REST budget (50 by default).
 */
export const COVERING_WINDOWS_READ = 40;

const CoveringWindowsQuery = graphql(`
  query ConsoleCoveringWindows($first: Int!) {
    maintenanceWindows(first: $first) {
      nodes {
        id name tags pauseAllChecks silenceAlertsTags silenceAllAlerts
        upcomingMaintenances(first: 3) { id status startsAt endsAt }
      }
    }
  }
`);

/** The account's maintenance windows with their next maintenances (empty while loading or on error: the state is an addition). */
export function useCoveringWindows(): readonly CoveringWindowLike[] {
  const [{ data }] = useQuery({ query: CoveringWindowsQuery, variables: { first: COVERING_WINDOWS_READ }, requestPolicy: 'cache-and-network' });
  return data?.maintenanceWindows.nodes ?? [];
}
