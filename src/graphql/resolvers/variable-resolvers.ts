import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import { getOrNull } from '../get-or-null.js';
import type { RestVariable } from '../rest-config-types.js';
import { withUserErrors } from '../user-errors.js';

const path = (key: string) => `/v1/variables/${encodeURIComponent(key)}`;

const mutation: MutationResolvers = {
  createEnvironmentVariable: async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestVariable>('POST', '/v1/variables', input)).body);
    return { environmentVariable: value, userErrors };
  },
  updateEnvironmentVariable: async (_root, { key, input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestVariable>('PUT', path(key), input)).body);
    return { environmentVariable: value, userErrors };
  },
  deleteEnvironmentVariable: async (_root, { key }, ctx) => {
    const { userErrors } = await withUserErrors(() => ctx.rest.send('DELETE', path(key)));
    return { deletedKey: userErrors.length ? null : key, userErrors };
  },
};

/** Account environment variables: list, one by key, create, update and delete. Secret values read as null. */
export const variableResolvers: Resolvers = {
  EnvironmentVariable: {
    createdAt: (v) => (v as RestVariable).created_at ?? null,
    updatedAt: (v) => (v as RestVariable).updated_at ?? null,
  },
  Query: {
    environmentVariables: (_root, { first, after }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestVariable[]>('/v1/variables', { page, limit });
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
    environmentVariable: (_root, { key }, ctx) => getOrNull<RestVariable>(ctx.rest, path(key)),
  },
  Mutation: mutation,
};
