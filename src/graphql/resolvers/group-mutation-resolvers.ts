import type { CheckGroupInput, MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import type { GraphqlContext } from '../context.js';
import { groupRestId, toGlobalId } from '../global-id.js';
import { requireRestId } from '../global-id.js';
import { withRestReferences } from '../rest-references.js';
import type { RestCheckGroup } from '../rest-types.js';
import { withUserErrors, type UserError } from '../user-errors.js';

function remember(ctx: GraphqlContext, group: RestCheckGroup | null): RestCheckGroup | null {
  if (group) ctx.loaders.groupById.clear(group.id).prime(group.id, group);
  return group;
}

/**
 * The REST body of a group input: `retryStrategyFallback: true` is the REST `retryStrategy: "FALLBACK"`
 * (a string the typed input cannot hold). Giving both is contradictory and answered before any call,
 * as are ids of snippets and channels that can be neither global ids nor REST ids (withRestReferences).
 */
function restBody(input: CheckGroupInput): { body: Record<string, unknown> } | { userErrors: UserError[] } {
  const { retryStrategyFallback, ...fields } = input;
  const { body, userErrors } = withRestReferences(fields);
  if (userErrors.length > 0) return { userErrors };
  if (retryStrategyFallback === true) {
    if (body.retryStrategy !== undefined) {
      return { userErrors: [{ field: 'retryStrategyFallback', code: 'BAD_USER_INPUT', message: '"retryStrategyFallback" and "retryStrategy" cannot both be given' }] };
    }
    return { body: { ...body, retryStrategy: 'FALLBACK' } };
  }
  return { body };
}

const mutation: MutationResolvers = {
  createCheckGroup: async (_root, { input, autoAssignAlerts }, ctx) => {
    const prepared = restBody(input);
    if ('userErrors' in prepared) return { checkGroup: null, userErrors: prepared.userErrors };
    const query = autoAssignAlerts == null ? '' : `?autoAssignAlerts=${autoAssignAlerts}`;
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestCheckGroup>('POST', `/v1/check-groups${query}`, prepared.body)).body);
    return { checkGroup: remember(ctx, value), userErrors };
  },
  updateCheckGroup: async (_root, { id, input }, ctx) => {
    const restId = requireRestId(groupRestId(id), 'Check group', id);
    const prepared = restBody(input);
    if ('userErrors' in prepared) return { checkGroup: null, userErrors: prepared.userErrors };
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestCheckGroup>('PUT', `/v1/check-groups/${restId}`, prepared.body)).body);
    return { checkGroup: remember(ctx, value), userErrors };
  },
  deleteCheckGroup: async (_root, { id }, ctx) => {
    const restId = requireRestId(groupRestId(id), 'Check group', id);
    await ctx.rest.send('DELETE', `/v1/check-groups/${restId}`);
    ctx.loaders.groupById.clear(restId);
    return { deletedId: toGlobalId('CheckGroup', restId), userErrors: [] };
  },
};

/** Check group mutations: create, update (merge) and delete. */
export const groupMutationResolvers: Resolvers = { Mutation: mutation };
