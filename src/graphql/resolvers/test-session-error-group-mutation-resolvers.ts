import type { Resolvers } from '../__generated__/resolvers-types.js';
import { requireRestId, uuidRestId } from '../global-id.js';
import type { RestTestSessionErrorGroup } from '../rest-result-types.js';
import { withUserErrors } from '../user-errors.js';

/** Archiving test session error groups over REST; only the fields given are sent. */
export const testSessionErrorGroupMutationResolvers: Resolvers = {
  Mutation: {
    updateTestSessionErrorGroup: async (_root, { id, input }, ctx) => {
      const restId = requireRestId(uuidRestId(id, 'TestSessionErrorGroup'), 'Test session error group', id);
      const body = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
      const { value, userErrors } = await withUserErrors(async () =>
        (await ctx.rest.send<RestTestSessionErrorGroup>('PATCH', `/v1/test-session-error-groups/${restId}`, body)).body);
      return { testSessionErrorGroup: value, userErrors };
    },
  },
};
