import { createHash } from 'node:crypto';
import { Dispatcher, Pool } from 'undici';

/** The account a `connection_init` payload authenticates as; null when the service refuses the credentials. */
export type ConnectionAuthenticator = (headers: Record<string, string>) => Promise<{ accountId: string } | null>;

/** Account headers the REST API accepts (conventions.md), which a payload may also carry as keys. */
const ACCOUNT_HEADERS = ['x-lookout-account', 'x-service-account', 'x-checkly-account'] as const;

/**
 * The headers a `connection_init` payload stands for, forwarded to REST as they are so the same key
 * and account header rules apply: `authorization`, and `accountId` or any REST account header. A
 * console session's socket (no authorization) carries the upgrade's cookie only with the session's
 * `csrfToken` in the payload, which another site's page cannot know: a cookie alone opens nothing.
 */
export function connectionHeaders(params: Readonly<Record<string, unknown>> | undefined, cookie?: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const lower = Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  if (typeof lower.authorization === 'string') headers.authorization = lower.authorization;
  else if (cookie && typeof lower.csrftoken === 'string' && lower.csrftoken !== '') {
    headers.cookie = cookie;
    headers['x-lookout-csrf'] = lower.csrftoken;
  }
  if (typeof lower.accountid === 'string' && lower.accountid !== '') headers['x-lookout-account'] = lower.accountid;
  for (const name of ACCOUNT_HEADERS) {
    const value = lower[name];
    if (typeof value === 'string' && value !== '' && !(name === 'x-lookout-account' && headers[name])) headers[name] = value;
  }
  return headers;
}

const CACHE_MAX = 10_000;

/**
 * Authenticates sockets through the REST service (`GET /v1/accounts/me` with the caller's headers),
 * so the layer accepts exactly what the backend accepts, whether it runs in this process or not.
 * `backend` is the service's URL (or a function giving it), reached over HTTP, or a dispatcher
 * serving requests itself (this process's service in-process), which the caller closes. Accepted
 * credentials are remembered for `cacheMs` (default 10 s, as long as the service caches keys), so a
 * reconnecting fleet of sockets costs one REST call, not one each.
 */
export function createRestAuthenticator(
  backend: string | (() => string) | Dispatcher,
  options: { cacheMs?: number } = {},
): ConnectionAuthenticator & { forgetAll(): void; close(): Promise<void> } {
  const cacheMs = options.cacheMs ?? 10_000;
  const cache = new Map<string, { accountId: string; until: number }>();
  let pool: Pool | null = null;
  let origin = '';
  const poolFor = (): { pool: Dispatcher; base: string } => {
    if (backend instanceof Dispatcher) return { pool: backend, base: '' };
    const url = new URL(typeof backend === 'function' ? backend() : backend);
    if (!pool || origin !== url.origin) {
      void pool?.close();
      origin = url.origin;
      pool = new Pool(url.origin, { connections: 16 });
    }
    return { pool, base: url.pathname.replace(/\/$/, '') };
  };
  const authenticate = async (headers: Record<string, string>) => {
    if (!headers.authorization && !headers['x-lookout-csrf']) return null;
    const key = createHash('sha256').update(JSON.stringify(Object.entries(headers).sort())).digest('base64');
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return { accountId: hit.accountId };
    const who = await ask(headers);
    if (who && cacheMs > 0) {
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(key, { accountId: who.accountId, until: Date.now() + cacheMs });
    }
    return who;
  };
  const ask = async (headers: Record<string, string>) => {
    const { pool: p, base } = poolFor();
    const res = await p.request({ method: 'GET', path: `${base}/v1/accounts/me`, headers: { ...headers, accept: 'application/json' } });
    if (res.statusCode === 401 || res.statusCode === 403) {
      await res.body.dump();
      return null;
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new Error(`the backend answered ${res.statusCode} to GET /v1/accounts/me`);
    }
    const account = (await res.body.json()) as { id?: unknown };
    if (typeof account.id !== 'string') throw new Error('the backend answered GET /v1/accounts/me without an account id');
    return { accountId: account.id };
  };
  return Object.assign(authenticate, {
    /** Forgets every accepted credential (a key was revoked: the next socket asks the service again). */
    forgetAll() {
      cache.clear();
    },
    async close() {
      await pool?.close();
      pool = null;
    },
  });
}
