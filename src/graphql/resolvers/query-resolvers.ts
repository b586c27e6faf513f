import type { Resolvers } from '../__generated__/resolvers-types.js';
import { checkTypeName } from '../check-type-name.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { codedError } from '../errors.js';
import { checkRestId, fromGlobalId, groupRestId, isUuid, toGlobalId } from '../global-id.js';
import type { RestAccount, RestCheck, RestCheckGroup, RestLocation, RestRuntime } from '../rest-types.js';

type NodeValue = RestAccount | RestCheck | RestCheckGroup;

/**
 * The node behind a global id, or null when the id is malformed, unknown or another account's
 * (the REST API answers 404 to both, and so the graph cannot tell them apart either).
 */
async function resolveNode(ctx: GraphqlContext, id: string): Promise<NodeValue | null> {
  const g = fromGlobalId(id);
  if (!g) return null;
  if (g.type === 'Check') return isUuid(g.restId) ? ctx.loaders.checkById.load(g.restId) : null;
  if (g.type === 'CheckGroup') {
    const groupId = groupRestId(id);
    return groupId === null ? null : ctx.loaders.groupById.load(groupId);
  }
  if (g.type === 'Account') {
    const viewer = await ctx.viewer();
    return viewer.id === g.restId ? viewer : null;
  }
  return null;
}

/** Which GraphQL type a node payload is. */
function nodeTypeName(value: NodeValue): string | null {
  if ('checkType' in value && typeof value.checkType === 'string') return checkTypeName(value.checkType);
  if ('concurrency' in value) return 'CheckGroup';
  if ('planDisplayName' in value) return 'Account';
  return null;
}

/** Query root, Node and the small catalogue types. */
export const queryResolvers: Resolvers = {
  Node: { __resolveType: (value) => nodeTypeName(value as NodeValue) as never },
  Query: {
    viewer: (_root, _args, ctx) => ctx.viewer(),
    node: (_root, { id }, ctx) => resolveNode(ctx, id),
    nodes: (_root, { ids }, ctx) => {
      if (ids.length > 100) throw codedError('BAD_USER_INPUT', '"ids" holds at most 100 ids', { argumentName: 'ids' });
      return Promise.all(ids.map((id) => resolveNode(ctx, id)));
    },
    check: (_root, { id }, ctx) => {
      const restId = checkRestId(id);
      return restId ? ctx.loaders.checkById.load(restId) : null;
    },
    checks: (_root, { first, after, filter }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestCheck[]>('/v1/checks', {
          page, limit,
          tag: filter?.tags ?? undefined,
          checkType: filter?.checkType ?? undefined,
          groupId: filter?.groupId ?? undefined,
          activated: filter?.activated ?? undefined,
        });
        // Later `check(id)` / `node(id)` of the same operation need no call of their own.
        for (const c of res.body) ctx.loaders.checkById.prime(c.id, c);
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
    checkGroup: (_root, { id }, ctx) => {
      const restId = groupRestId(id);
      return restId === null ? null : ctx.loaders.groupById.load(restId);
    },
    checkGroups: (_root, { first, after }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestCheckGroup[]>('/v1/check-groups', { page, limit });
        for (const g of res.body) ctx.loaders.groupById.prime(g.id, g);
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
    locations: async (_root, _args, ctx) => (await ctx.rest.get<RestLocation[]>('/v1/locations')).body,
    runtimes: async (_root, _args, ctx) => (await ctx.rest.get<RestRuntime[]>('/v1/runtimes')).body,
  },
  Account: {
    id: (a) => toGlobalId('Account', a.id),
    accountId: (a) => a.id,
  },
  Runtime: { dependencies: (r) => r.dependencies ?? {} },
};
