import type { Resolvers } from '../__generated__/resolvers-types.js';
import type { GraphqlContext } from '../context.js';
import { RestError } from '../errors.js';
import { groupRestId, requireRestId } from '../global-id.js';
import type { RestGroupRunCheck } from '../rest-result-types.js';

/** The group's trigger token; `created` when this call made it. */
async function groupToken(ctx: GraphqlContext, groupId: number): Promise<{ token: string; created: boolean }> {
  try {
    return { token: (await ctx.rest.get<{ token: string }>(`/v1/triggers/check-groups/${groupId}`)).body.token, created: false };
  } catch (err) {
    if (!(err instanceof RestError && err.status === 404)) throw err;
  }
  return { token: (await ctx.rest.send<{ token: string }>('POST', `/v1/triggers/check-groups/${groupId}`)).body.token, created: true };
}

/**
 * `runGroup`: REST runs a group only through its trigger URL, so the token is read (or made for this
 * run and deleted afterwards, leaving no public URL behind) and the URL called with it.
 */
export const runGroupResolvers: Resolvers = {
  Mutation: {
    runGroup: async (_root, { id }, ctx) => {
      const groupId = requireRestId(groupRestId(id), 'CheckGroup', id);
      const { token, created } = await groupToken(ctx, groupId);
      let checks: RestGroupRunCheck[];
      try {
        checks = (await ctx.rest.send<{ checks: RestGroupRunCheck[] }>('POST', `/check-groups/${groupId}/trigger/${encodeURIComponent(token)}`)).body.checks;
      } finally {
        if (created) await ctx.rest.send('DELETE', `/v1/triggers/check-groups/${groupId}`).catch(() => undefined);
      }
      for (const c of checks) for (const r of c.results) ctx.loaders.results.resultByKey.prime(`${r.checkId}:${r.id}`, r);
      return { group: await ctx.loaders.groupById.load(groupId), checks, userErrors: [] };
    },
  },
  GroupRunCheck: {
    check: (c, _args, ctx) => ctx.loaders.checkById.load(c.checkId),
    error: (c) => (c.error ? { field: null, code: c.error.code, message: c.error.message } : null),
  },
};
