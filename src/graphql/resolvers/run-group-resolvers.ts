import type { Resolvers } from '../__generated__/resolvers-types.js';
import { groupRestId, requireRestId } from '../global-id.js';
import type { RestGroupRunCheck } from '../rest-result-types.js';

/** `runGroup`: runs the group through `POST /v1/check-groups/{id}/run` (Read & Run and above). */
export const runGroupResolvers: Resolvers = {
  Mutation: {
    runGroup: async (_root, { id }, ctx) => {
      const groupId = requireRestId(groupRestId(id), 'CheckGroup', id);
      const checks = (await ctx.rest.send<{ checks: RestGroupRunCheck[] }>('POST', `/v1/check-groups/${groupId}/run`)).body.checks;
      for (const c of checks) for (const r of c.results) ctx.loaders.results.resultByKey.prime(`${r.checkId}:${r.id}`, r);
      return { group: await ctx.loaders.groupById.load(groupId), checks, userErrors: [] };
    },
  },
  GroupRunCheck: {
    check: (c, _args, ctx) => ctx.loaders.checkById.load(c.checkId),
    error: (c) => (c.error ? { field: null, code: c.error.code, message: c.error.message } : null),
  },
};
