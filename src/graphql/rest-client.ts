import { Dispatcher, Pool } from 'undici';
import { CLIENT_ADDRESS_HEADER } from './create-in-process-dispatcher.js';
import { codedError, RestError } from './errors.js';
import type { RestErrorBody } from './rest-types.js';

/** Request headers the layer forwards to the backend: the caller's own credentials, nothing privileged. */
export const FORWARDED_HEADERS = [
  'authorization', 'x-lookout-account', 'x-service-account', 'x-checkly-account', 'x-request-id',
  // The console's session: its cookie, the CSRF token its writes carry, and the audit log's source.
  'cookie', 'x-lookout-csrf', 'x-lookout-via',
] as const;

/** A successful REST answer. */
export interface RestResponse<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

/** Query values: arrays repeat the key; undefined values are left out. */
export type RestQuery = Record<string, string | number | boolean | string[] | undefined>;

/** The REST calls of one GraphQL operation, made with the caller's headers and held to a budget. */
export interface RestSession {
  get<T>(path: string, query?: RestQuery): Promise<RestResponse<T>>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<RestResponse<T>>;
  /** REST calls made so far (including those that failed). */
  readonly calls: number;
  readonly budget: number;
  /** List endpoints (paths) that rejected or ignored an `ids=` filter on this backend. */
  readonly idsUnsupported: Set<string>;
}

/** Options of one RestSession. */
export interface RestSessionOptions {
  /** REST calls allowed; default the client's budget. */
  budget?: number;
  /**
   * The caller's address as the layer sees it. The backend is told it so that the audit log and
   * per-address limits see the caller, not the layer: in-process it is the request's address; over
   * HTTP it goes as X-Forwarded-For, which the backend believes only from proxies it trusts
   * (LOOKOUT_TRUST_PROXY naming the layer).
   */
  clientAddress?: string;
}

/** Pools to the backend, shared by all operations. */
export interface RestClient {
  /** A session for one operation with the caller's headers. */
  session(headers: Record<string, string | string[] | undefined>, options?: RestSessionOptions): RestSession;
  close(): Promise<void>;
}

/** Options of createRestClient. */
export interface RestClientOptions {
  /**
   * Where the REST service is: a function giving its base URL (reached over HTTP, one keep-alive Pool
   * per origin), or a dispatcher serving requests itself (createInProcessDispatcher), closed with the client.
   */
  backend: (() => string) | Dispatcher;
  /** Default REST calls per operation. */
  budget: number;
  /** Sockets per backend origin. */
  connections?: number;
  /** Invalid keys of a REST 400 kept at most (`LOOKOUT_MAX_ERROR_ISSUES`). */
  maxErrorIssues?: number;
}

function queryString(query: RestQuery | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function retryAfterOf(value: string | string[] | undefined): number | undefined {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * REST client over one keep-alive undici Pool per backend origin, or over one dispatcher. Each
 * operation gets a session that forwards the caller's Authorization and account headers, counts its
 * calls and refuses calls past its budget with REST_BUDGET_EXCEEDED (only the fields needing those
 * calls fail).
 */
export function createRestClient({ backend: target, budget: defaultBudget, connections = 64, maxErrorIssues }: RestClientOptions): RestClient {
  const pools = new Map<string, Pool>();
  const idsUnsupported = new Map<string, Set<string>>();
  const own = target instanceof Dispatcher ? { pool: target, prefix: '', unsupported: new Set<string>() } : undefined;

  function backend(): { pool: Dispatcher; prefix: string; unsupported: Set<string> } {
    if (own) return own;
    const url = new URL((target as () => string)());
    let pool = pools.get(url.origin);
    if (!pool) {
      pool = new Pool(url.origin, { connections, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });
      pools.set(url.origin, pool);
    }
    let unsupported = idsUnsupported.get(url.origin);
    if (!unsupported) idsUnsupported.set(url.origin, (unsupported = new Set()));
    return { pool, prefix: url.pathname.replace(/\/+$/, ''), unsupported };
  }

  return {
    session(incoming, { budget = defaultBudget, clientAddress }: RestSessionOptions = {}) {
      // The audit log says a change came through GraphQL, or through the console when the console sent the operation.
      const headers: Record<string, string> = { accept: 'application/json', 'x-lookout-via': incoming['x-lookout-via'] === 'console' ? 'console' : 'graphql' };
      for (const name of FORWARDED_HEADERS) {
        const value = incoming[name];
        const v = Array.isArray(value) ? value[0] : value;
        if (v) headers[name] = v;
      }
      if (clientAddress) headers[own ? CLIENT_ADDRESS_HEADER : 'x-forwarded-for'] = clientAddress;
      let calls = 0;
      const { pool, prefix, unsupported } = backend();

      async function call<T>(method: string, path: string, body?: unknown): Promise<RestResponse<T>> {
        if (calls >= budget) {
          throw codedError('REST_BUDGET_EXCEEDED', `This operation used its budget of ${budget} REST calls`, { budget });
        }
        calls++;
        let res;
        let text;
        try {
          res = await pool.request({
            method: method as 'GET',
            path: prefix + path,
            headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          text = await res.body.text();
        } catch {
          // A refused socket, an in-process dispatch the app could not take, or an answer cut short.
          throw new RestError(0, undefined);
        }
        let parsed: unknown;
        if (text && String(res.headers['content-type'] ?? '').includes('json')) {
          try {
            parsed = JSON.parse(text);
          } catch {
            throw new RestError(502, undefined);
          }
        }
        if (res.statusCode >= 400) {
          throw new RestError(res.statusCode, parsed as RestErrorBody | undefined, retryAfterOf(res.headers['retry-after']), { maxIssues: maxErrorIssues });
        }
        // Non-JSON answers (SVG badges) come back as their text.
        return { status: res.statusCode, body: (parsed ?? (text || undefined)) as T, headers: res.headers };
      }

      return {
        get: (path, query) => call(`GET`, path + queryString(query)),
        send: (method, path, body) => call(method, path, body),
        get calls() {
          return calls;
        },
        budget,
        idsUnsupported: unsupported,
      };
    },
    async close() {
      await Promise.all([...pools.values()].map((p) => p.close()));
      pools.clear();
      await own?.pool.close();
    },
  };
}
