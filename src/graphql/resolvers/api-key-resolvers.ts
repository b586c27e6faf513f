import type { Resolvers } from '../__generated__/resolvers-types.js';
import type { components } from '../../contract/__generated__/openapi.js';
import { RestError } from '../errors.js';
import { withUserErrors } from '../user-errors.js';

type RestApiKey = components['schemas']['ApiKey'];
type RestCreatedApiKey = components['schemas']['CreatedApiKey'];

const PATH = '/v1/accounts/me/api-keys';

/** The account's API keys over /v1/accounts/me/api-keys: list, create (the key answered once) and revoke. */
export const apiKeyResolvers: Resolvers = {
  Query: {
    apiKeys: async (_root, _args, ctx) => (await ctx.rest.get<RestApiKey[]>(PATH)).body,
  },
  Mutation: {
    createApiKey: async (_root, { input }, ctx) => {
      const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestCreatedApiKey>('POST', PATH, input)).body);
      if (!value) return { apiKey: null, key: null, userErrors };
      const { key, ...apiKey } = value;
      return { apiKey, key, userErrors };
    },
    revokeApiKey: async (_root, { id }, ctx) => {
      try {
        const { userErrors } = await withUserErrors(() => ctx.rest.send('DELETE', `${PATH}/${encodeURIComponent(id)}`));
        return { revokedId: userErrors.length ? null : id, userErrors };
      } catch (err) {
        // An unknown key and the account's last key are the caller's to fix: one userError on `id`.
        if (!(err instanceof RestError) || (err.status !== 404 && err.status !== 409)) throw err;
        const code = err.status === 404 ? 'NOT_FOUND' : 'LAST_API_KEY';
        return { revokedId: null, userErrors: [{ field: 'id', code, message: err.message }] };
      }
    },
  },
};
