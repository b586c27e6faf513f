import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import type { GraphqlContext } from '../context.js';
import { dashboardRestId } from '../dashboard-ids.js';
import type { RestDashboard } from '../dashboard-types.js';
import { requireRestId, toGlobalId } from '../global-id.js';
import { withUserErrors } from '../user-errors.js';

const DASHBOARDS = '/v1/dashboards';

/** The REST id a mutation acts on; an id that cannot be one names nothing the caller has (NOT_FOUND). */
const dashboardIdOf = (id: string) => requireRestId(dashboardRestId(id), 'Dashboard', id);

/** Whatever was read before a write may show what it changed: forgotten. */
function afterWrite(ctx: GraphqlContext): void {
  ctx.loaders.dashboards.clearAll();
}

/**
 * The input goes to REST as given (its fields are REST's, so userErrors need no mapping); a taken
 * customUrl or customDomain is REST's 409, a CONFLICT error.
 */
const mutation: MutationResolvers = {
  createDashboard: async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestDashboard>('POST', DASHBOARDS, input)).body);
    if (value) afterWrite(ctx);
    return { dashboard: value, userErrors };
  },
  updateDashboard: async (_root, { id, input }, ctx) => {
    const restId = dashboardIdOf(id);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestDashboard>('PUT', `${DASHBOARDS}/${restId}`, input)).body);
    if (value) afterWrite(ctx);
    return { dashboard: value, userErrors };
  },
  deleteDashboard: async (_root, { id }, ctx) => {
    const restId = dashboardIdOf(id);
    await ctx.rest.send('DELETE', `${DASHBOARDS}/${restId}`);
    afterWrite(ctx);
    return { deletedId: toGlobalId('Dashboard', restId), userErrors: [] };
  },
};

/** Dashboard mutations: create, update and delete. */
export const dashboardMutationResolvers: Resolvers = { Mutation: mutation };
