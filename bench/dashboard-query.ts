/** The GraphQL operations bench/graphql.ts and bench/graphql-layer-cpu.ts measure, stated once. */

/**
 * The dashboard: every check with its group, status, latest results and alert channels. The REST
 * clients of the benchmarks and bench/graphql.ts's equivalence check follow it.
 */
export const DASHBOARD_QUERY = `query Dashboard {
  checks(first: 100) {
    totalCount
    nodes {
      checkId
      name
      checkType
      activated
      muted
      tags
      group { groupId name }
      status { health hasFailures isDegraded updatedAt }
      latestResults(count: 5) { resultId hasFailures isDegraded responseTime runLocation startedAt }
      alertChannels { alertChannelId type }
    }
  }
}`;

/** `check(id)`: the fields a check page header shows. */
export const CHECK_QUERY = 'query Check($id: ID!) { check(id: $id) { id checkId name checkType activated muted frequency locations tags groupId createdAt } }';
