import type { Resolvers } from '../__generated__/resolvers-types.js';
import { checkConnection } from '../check-connection.js';
import { checkTypeName } from '../check-type-name.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { codedError } from '../errors.js';
import { checkRestId, fromGlobalId, groupRestId, isIntegerId, isUuid, toGlobalId } from '../global-id.js';
import { markNodeType, nodeTypeOf, type NodeType } from '../node-type.js';
import { restCheckFields } from '../rest-check-fields.js';
import type { RestCheck, RestCheckGroup, RestLocation, RestRuntime } from '../rest-types.js';

/** Node types of this module: accounts, checks and groups. */
export const coreNodeTypes: NodeType[] = [
  {
    idType: 'Check',
    fetch: (ctx, restId) => (isUuid(restId) ? ctx.loaders.checkById.load(restId) : Promise.resolve(null)),
    typeName: (value) => checkTypeName((value as RestCheck).checkType),
  },
  {
    idType: 'CheckGroup',
    fetch: (ctx, restId) => (isIntegerId(restId) ? ctx.loaders.groupById.load(Number(restId)) : Promise.resolve(null)),
    typeName: () => 'CheckGroup',
  },
  {
    idType: 'Account',
    fetch: async (ctx, restId) => {
      const viewer = await ctx.viewer();
      return viewer.id === restId ? viewer : null;
    },
    typeName: () => 'Account',
  },
];

/**
 * The node behind a global id, or null when the id is malformed, unknown or another account's
 * (the REST API answers 404 to both, and so the graph cannot tell them apart either).
 */
async function resolveNode(nodeTypes: Map<string, NodeType>, ctx: GraphqlContext, id: string): Promise<unknown> {
  const g = fromGlobalId(id);
  const nodeType = g ? nodeTypes.get(g.type) : undefined;
  if (!g || !nodeType) return null;
  const value = await nodeType.fetch(ctx, g.restId);
  return value ? markNodeType(value, nodeType.typeName(value)) : null;
}

/** Query root (with `node`/`nodes` over the given node types), Node and the small catalogue types. */
export function createQueryResolvers(nodeTypeList: NodeType[]): Resolvers {
  const nodeTypes = new Map(nodeTypeList.map((t) => [t.idType, t]));
  return {
    Node: { __resolveType: (value) => nodeTypeOf(value) as never },
    Query: {
      viewer: (_root, _args, ctx) => ctx.viewer(),
      node: (_root, { id }, ctx) => resolveNode(nodeTypes, ctx, id) as never,
      nodes: (_root, { ids }, ctx) => {
        if (ids.length > 100) throw codedError('BAD_USER_INPUT', '"ids" holds at most 100 ids', { argumentName: 'ids' });
        return Promise.all(ids.map((id) => resolveNode(nodeTypes, ctx, id))) as never;
      },
      check: (_root, { id }, ctx, info) => {
        const restId = checkRestId(id);
        return restId ? ctx.loaders.checkById.load(restId, restCheckFields(info, false)) : null;
      },
      checks: (_root, { first, after, filter }, ctx, info) => checkConnection(ctx, first, after, filter, restCheckFields(info, true)),
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
}
