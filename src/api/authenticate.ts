import type { FastifyRequest } from 'fastify';
import { hashApiKey } from '../domain/api-key.js';
import { isUuid } from '../domain/is-uuid.js';
import { LookoutError } from '../domain/lookout-error.js';
import type { Principal } from '../domain/principal.js';
import { CSRF_HEADER, SESSION_COOKIE, checkCsrf, hashToken } from '../domain/session-token.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';

/** Account headers accepted, canonical first (conventions.md). */
export const ACCOUNT_HEADERS = ['x-lookout-account', 'x-service-account', 'x-checkly-account'] as const;

export type { Principal };

const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 10_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A UUID no account has: what a malformed account header is looked up as. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/** Checks a request's key or session; `forget` drops a revoked key's cached look-up, `close` stops listening for revocations. */
export type Authenticator = ((req: FastifyRequest) => Promise<Principal>) & { forget(keyHash: string): void; close(): void };

/** The account a request names in one of the account headers, if any. */
export function requestedAccount(req: Pick<FastifyRequest, 'headers'>): string | undefined {
  for (const name of ACCOUNT_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The session cookie's token of a request, if it carries one. */
export function sessionTokenOf(req: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) return decodeURIComponent(part.slice(at + 1).trim()) || undefined;
  }
  return undefined;
}

/**
 * Resolves a request to its principal: `Authorization: Bearer <key>` (service and personal keys) or
 * the console's session cookie. Key look-ups are cached for a few seconds (by hash), which keeps the
 * hot read path to one query; with a bus, a revoked key (`apiKeyRevoked`) or changed access
 * (`accessChanged`: a role changed, a member left) is forgotten at once in every process. A session
 * is read on each request, so signing out takes effect at once. Cookie-authenticated writes must
 * carry the session's CSRF token in `x-lookout-csrf` (and a token sent on a read must be right):
 * a cookie alone never changes anything.
 */
export function createAuthenticator(store: Store, bus?: EventBus): Authenticator {
  const cache = new Map<string, { owner: Principal | null; until: number }>();

  async function keyOwner(keyHash: string): Promise<Principal | null> {
    const now = Date.now();
    const hit = cache.get(keyHash);
    if (hit && hit.until > now) return hit.owner;
    const found = (await store.accounts.findKey(keyHash)) ?? null;
    if (cache.size >= CACHE_MAX) cache.clear();
    // Unknown keys are cached briefly too, so guessing costs no database work.
    cache.set(keyHash, { owner: found, until: now + CACHE_TTL_MS });
    return found;
  }

  async function byKey(req: FastifyRequest, header: string): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new LookoutError('UNAUTHENTICATED', 'Malformed Authorization header: expected "Bearer <API key>"');
    const found = await keyOwner(hashApiKey(match[1]!));
    if (!found) throw new LookoutError('UNAUTHENTICATED', 'Unknown API key (revoked, expired or never made)');
    const asked = requestedAccount(req);
    if (asked !== undefined && asked !== found.accountId) {
      throw new LookoutError('FORBIDDEN', `This API key does not give access to account "${asked}"`);
    }
    return found;
  }

  async function bySession(req: FastifyRequest, token: string): Promise<Principal> {
    const asked = requestedAccount(req);
    // An account header that is no UUID names no account the person could belong to.
    const session = await store.sessions.findWithAccess(hashToken(token), asked !== undefined && isUuid(asked) ? asked : asked === undefined ? null : NO_ACCOUNT);
    if (!session) throw new LookoutError('UNAUTHENTICATED', 'Your session has ended: sign in again', { attributes: { code: 'SESSION_ENDED' } });
    const csrf = req.headers[CSRF_HEADER];
    // A token sent on a read is checked too: graphql-ws sockets prove theirs that way.
    if (!SAFE_METHODS.has(req.method) || csrf !== undefined) checkCsrf(csrf, session.csrf_token);
    const accountId = session.access_account_id;
    if (!accountId) throw new LookoutError('FORBIDDEN', 'You belong to no account yet: ask an admin for an invitation', { attributes: { code: 'NO_ACCOUNT' } });
    if (!session.role) throw new LookoutError('FORBIDDEN', `You are not a member of account "${asked ?? accountId}"`);
    return { accountId, role: session.role, userId: session.user_id, keyId: null, sessionId: session.id, label: session.email };
  }

  const authenticate = async (req: FastifyRequest): Promise<Principal> => {
    const header = req.headers.authorization;
    if (typeof header === 'string' && header !== '') return byKey(req, header);
    const token = sessionTokenOf(req);
    if (token) return bySession(req, token);
    throw new LookoutError('UNAUTHENTICATED', 'Missing Authorization header: expected "Bearer <API key>", or sign in to the console');
  };
  const forget = (keyHash: string) => {
    cache.delete(keyHash);
  };
  const unsubscribers = bus
    ? [bus.subscribe('apiKeyRevoked', (event) => forget(event.keyHash)), bus.subscribe('accessChanged', () => cache.clear())]
    : [];
  return Object.assign(authenticate, { forget, close: () => unsubscribers.forEach((stop) => stop()) });
}
