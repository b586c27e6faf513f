import type { Logger } from 'pino';
import { codedError } from './errors.js';
import { createLoaders, type Loaders } from './loaders.js';
import type { RestClient, RestSession } from './rest-client.js';
import type { RestAccount } from './rest-types.js';

/** What every resolver receives: the operation's REST session and loaders. */
export interface GraphqlContext {
  rest: RestSession;
  loaders: Loaders;
  /** The caller's account, fetched once per operation. */
  viewer(): Promise<RestAccount>;
  logger: Logger;
}

/** Request headers (lower-case names), or graphql-ws connection params mapped to header names. */
export type IncomingHeaders = Record<string, string | string[] | undefined>;

/**
 * Builds the context of one operation from the caller's headers (and address, passed on to the
 * backend: see RestSessionOptions). Throws UNAUTHENTICATED when no Authorization is given: the
 * layer has no credentials of its own to fall back on.
 */
export function createContextFactory({ client, logger }: { client: RestClient; logger: Logger }) {
  return function contextFromHeaders(headers: IncomingHeaders, clientAddress?: string): GraphqlContext {
    if (!headers.authorization && !headers.cookie) {
      throw codedError('UNAUTHENTICATED', 'Missing Authorization header: expected "Bearer <API key>", or sign in to the console', { http: { status: 401 } });
    }
    const rest = client.session(headers, { clientAddress });
    let viewer: Promise<RestAccount> | undefined;
    return {
      rest,
      loaders: createLoaders(rest),
      viewer: () => (viewer ??= rest.get<RestAccount>('/v1/accounts/me').then((r) => r.body)),
      logger,
    };
  };
}
