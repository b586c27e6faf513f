import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { isIntegerId, toGlobalId } from '../global-id.js';
import type { NodeType } from '../node-type.js';
import type { RestSnippet } from '../rest-config-types.js';
import { integerRestId, requireRestId } from '../global-id.js';
import { withUserErrors } from '../user-errors.js';

/** Node types of this module. */
export const snippetNodeTypes: NodeType[] = [{
  idType: 'Snippet',
  fetch: (ctx, restId) => (isIntegerId(restId) ? ctx.loaders.snippetById.load(Number(restId)) : Promise.resolve(null)),
  typeName: () => 'Snippet',
}];

/** The snippet a check or group names by REST id (`setupSnippetId`, untyped in the payload), through the batching loader; null when none. */
const snippetOf = (id: unknown, ctx: GraphqlContext) => (typeof id === 'number' ? ctx.loaders.snippetById.load(id) : null);

const snippetIdOf = (id: string) => requireRestId(integerRestId(id, 'Snippet'), 'Snippet', id);

const mutation: MutationResolvers = {
  createSnippet: async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestSnippet>('POST', '/v1/snippets', input)).body);
    return { snippet: value, userErrors };
  },
  updateSnippet: async (_root, { id, input }, ctx) => {
    const restId = snippetIdOf(id);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestSnippet>('PUT', `/v1/snippets/${restId}`, input)).body);
    return { snippet: value, userErrors };
  },
  deleteSnippet: async (_root, { id }, ctx) => {
    const restId = snippetIdOf(id);
    await ctx.rest.send('DELETE', `/v1/snippets/${restId}`);
    return { deletedId: toGlobalId('Snippet', restId), userErrors: [] };
  },
};

/** Snippets: the type, one by id, the list, as setup and teardown of API checks and groups, and create, update and delete. */
export const snippetResolvers: Resolvers = {
  Snippet: {
    id: (s) => toGlobalId('Snippet', s.id),
    snippetId: (s) => s.id,
    createdAt: (s) => s.created_at,
    updatedAt: (s) => s.updated_at,
  },
  Query: {
    snippet: (_root, { id }, ctx) => {
      const restId = integerRestId(id, 'Snippet');
      return restId === null ? null : ctx.loaders.snippetById.load(restId);
    },
    snippets: (_root, { first, after }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestSnippet[]>('/v1/snippets', { page, limit });
        for (const snippet of res.body) ctx.loaders.snippetById.prime(snippet.id, snippet);
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
  },
  // Batched: every check and group of an operation asks the same loader, which makes one `ids=` call.
  ApiCheck: {
    setupSnippet: (c, _args, ctx) => snippetOf(c.setupSnippetId, ctx),
    tearDownSnippet: (c, _args, ctx) => snippetOf(c.tearDownSnippetId, ctx),
  },
  CheckGroup: {
    setupSnippet: (g, _args, ctx) => snippetOf(g.setupSnippetId, ctx),
    tearDownSnippet: (g, _args, ctx) => snippetOf(g.tearDownSnippetId, ctx),
  },
  Mutation: mutation,
};
