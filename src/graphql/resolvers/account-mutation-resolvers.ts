import type { Resolvers } from '../__generated__/resolvers-types.js';
import type { RestAccount } from '../rest-types.js';
import { withUserErrors } from '../user-errors.js';

/** The caller's account settings over PUT /v1/accounts/me; only the fields given are sent, REST's 400s become userErrors. */
export const accountMutationResolvers: Resolvers = {
  Mutation: {
    updateAccountSettings: async (_root, { input }, ctx) => {
      const body = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
      const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestAccount>('PUT', '/v1/accounts/me', body)).body);
      return { account: value, userErrors };
    },
  },
};
