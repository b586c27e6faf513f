import { createHash } from 'node:crypto';
import type { IncomingHeaders } from './context.js';
import { RestError } from './errors.js';
import type { RestClient } from './rest-client.js';

/** The headers that decide who a caller is: the key, and the account headers REST checks against it. */
const IDENTITY_HEADERS = ['authorization', 'x-lookout-account', 'x-service-account', 'x-checkly-account', 'cookie', 'x-lookout-csrf'] as const;

/** Options of createCallerVerifier. */
export interface CallerVerifierOptions {
  client: RestClient;
  /** How long an accepted caller is remembered; default 30 s. */
  ttlMs?: number;
  /** Callers remembered at most (the least recently accepted go first); default 5,000. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Resolves when the REST API accepts the caller's headers; rejects with its RestError (401, 403, 5xx)
 * otherwise. `forgetAll` drops every accepted caller (a key was revoked: its next request asks again).
 */
export type CallerVerifier = ((headers: IncomingHeaders) => Promise<void>) & { readonly size: number; forgetAll(): void };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || '';

/**
 * Checks a caller's credentials with `GET /v1/accounts/me` through the REST client, with exactly the
 * headers the operation's own REST calls would forward, so the layer accepts whom the backend accepts.
 * The call is made on a session of its own: it is not one of the operation's `restCalls`. Accepted
 * callers are remembered by a hash of those headers for `ttlMs` in a bounded map, and concurrent
 * checks of one caller share one call, so a busy client costs one call per TTL, far below the
 * route's rate limit. Refusals are not remembered: the REST API already caches unknown keys. A 429
 * counts as accepted: REST rate-limits per account, after authenticating the key.
 */
export function createCallerVerifier({ client, ttlMs = 30_000, maxEntries = 5000, now = Date.now }: CallerVerifierOptions): CallerVerifier {
  const accepted = new Map<string, number>();
  const inFlight = new Map<string, Promise<void>>();

  const remember = (key: string) => {
    accepted.delete(key);
    for (const oldest of accepted.keys()) {
      if (accepted.size < maxEntries) break;
      accepted.delete(oldest);
    }
    accepted.set(key, now() + ttlMs);
  };

  const ask = async (headers: IncomingHeaders) => {
    try {
      await client.session(headers, { budget: 1 }).get('/v1/accounts/me');
    } catch (err) {
      if (!(err instanceof RestError && err.status === 429)) throw err;
    }
  };

  const verify = (headers: IncomingHeaders): Promise<void> => {
    const key = createHash('sha256').update(JSON.stringify(IDENTITY_HEADERS.map((name) => first(headers[name])))).digest('base64');
    const until = accepted.get(key);
    if (until !== undefined && until > now()) return Promise.resolve();
    let pending = inFlight.get(key);
    if (!pending) {
      pending = ask(headers).then(() => remember(key)).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
  // Revocations are rare: forgetting everyone costs each caller one more look-up, and needs no key here.
  const forgetAll = () => accepted.clear();
  return Object.defineProperty(Object.assign(verify, { forgetAll }), 'size', { get: () => accepted.size }) as CallerVerifier;
}
