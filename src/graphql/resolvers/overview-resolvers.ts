import type { Resolvers } from '../__generated__/resolvers-types.js';
import { checkConnection, checkListQuery } from '../check-connection.js';
import { totalOfContentRange } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import type { CheckFilter } from '../__generated__/resolvers-types.js';
import type { OverviewCounts } from '../overview-types.js';

/** How many checks match `filter`: the total the REST API reports for a page of one. */
async function countChecks(ctx: GraphqlContext, filter: CheckFilter): Promise<number> {
  const res = await ctx.rest.get<unknown[]>('/v1/checks', { page: 1, limit: 1, ...checkListQuery(filter) });
  return totalOfContentRange(res.headers['content-range']) ?? res.body.length;
}

/** Overview counts in five concurrent REST calls, whatever the number of checks. */
async function overviewCounts(ctx: GraphqlContext): Promise<OverviewCounts> {
  const [totalChecks, activatedChecks, passingChecks, failingChecks, degradedChecks] = await Promise.all([
    countChecks(ctx, {}),
    countChecks(ctx, { activated: true }),
    countChecks(ctx, { state: 'PASSING' }),
    countChecks(ctx, { state: 'FAILING' }),
    countChecks(ctx, { state: 'DEGRADED' }),
  ]);
  return {
    totalChecks, activatedChecks, passingChecks, failingChecks, degradedChecks,
    checksWithoutStatus: Math.max(0, totalChecks - passingChecks - failingChecks - degradedChecks),
  };
}

/** Combined views: the account overview and the failing checks. */
export const overviewResolvers: Resolvers = {
  Query: {
    accountOverview: (_root, _args, ctx) => overviewCounts(ctx),
    failingChecks: (_root, { first, after }, ctx) => checkConnection(ctx, first, after, { state: 'FAILING' }),
  },
  AccountOverview: {
    failing: (_o, { first, after }, ctx) => checkConnection(ctx, first, after, { state: 'FAILING' }),
    degraded: (_o, { first, after }, ctx) => checkConnection(ctx, first, after, { state: 'DEGRADED' }),
  },
};
