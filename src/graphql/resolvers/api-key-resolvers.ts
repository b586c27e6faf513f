import type { ApiKeyInput, ApiKeyKind, Resolvers, Role } from '../__generated__/resolvers-types.js';
import type { components } from '../../contract/__generated__/openapi.js';
import { RestError } from '../errors.js';
import type { RestApiKey } from '../rest-types.js';
import { withUserErrors } from '../user-errors.js';

type RestCreatedApiKey = components['schemas']['CreatedApiKey'];

const PATH = '/v1/accounts/me/api-keys';

/**
 * The REST body of createApiKey: fields left out or null are not sent (REST gives them their
 * defaults, and refuses a null it would have to guess about), and the kind in REST's lower case.
 */
function restBodyOf(input: ApiKeyInput): Record<string, unknown> {
  return {
    name: input.name,
    ...(input.kind ? { kind: input.kind.toLowerCase() } : {}),
    ...(input.role ? { role: input.role } : {}),
    ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
  };
}

/** The account's API keys over /v1/accounts/me/api-keys: list, create (the key answered once) and revoke. */
export const apiKeyResolvers: Resolvers = {
  Query: {
    apiKeys: async (_root, _args, ctx) => (await ctx.rest.get<RestApiKey[]>(PATH)).body,
  },
  Mutation: {
    createApiKey: async (_root, { input }, ctx) => {
      const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestCreatedApiKey>('POST', PATH, restBodyOf(input))).body);
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
  ApiKey: {
    // Keys listed before kinds existed were all service keys; REST writes kinds in lower case.
    kind: (k): ApiKeyKind => (k.kind === 'personal' ? 'PERSONAL' : 'SERVICE'),
    role: (k) => (k.role ?? null) as Role | null,
    userId: (k) => k.userId ?? null,
    expiresAt: (k) => k.expiresAt ?? null,
  },
};
