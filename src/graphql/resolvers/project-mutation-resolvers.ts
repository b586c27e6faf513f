import type { Resolvers } from '../__generated__/resolvers-types.js';
import { withUserErrors } from '../user-errors.js';

/** The query string of a deploy or destroy. */
const flags = (dryRun: boolean | null | undefined, preserveResources: boolean | null | undefined) =>
  new URLSearchParams({ dryRun: String(dryRun ?? false), preserveResources: String(preserveResources ?? false) }).toString();

/** Project deploy and destroy over REST: the bundle goes as sent, REST's answer comes back as it is, its 400s as userErrors. */
export const projectMutationResolvers: Resolvers = {
  Mutation: {
    deployProject: async (_root, { input, dryRun, preserveResources }, ctx) => {
      const { value, userErrors } = await withUserErrors(async () =>
        (await ctx.rest.send<Record<string, any>>('POST', `/v1/projects/deploy?${flags(dryRun, preserveResources)}`, input)).body);
      return { result: value, userErrors };
    },
    destroyProject: async (_root, { logicalId, dryRun, preserveResources }, ctx) => {
      const { value, userErrors } = await withUserErrors(async () =>
        (await ctx.rest.send<Record<string, any>>('DELETE', `/v1/projects/${encodeURIComponent(logicalId)}?${flags(dryRun, preserveResources)}`)).body);
      return { result: value, userErrors };
    },
  },
};
