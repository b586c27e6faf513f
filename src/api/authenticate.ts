import type { FastifyRequest } from 'fastify';
import { hashApiKey } from '../domain/api-key.js';
import { LookoutError } from '../domain/lookout-error.js';
import type { EventBus } from '../events/event-bus.js';
import type { Principal as RequestPrincipal } from '../domain/principal.js';
import type { KeyOwner } from '../store/accounts-repository.js';
import type { Store } from '../store/create-store.js';

/** Account headers accepted, canonical first (conventions.md). */
export const ACCOUNT_HEADERS = ['x-lookout-account', 'x-service-account', 'x-checkly-account'] as const;

/** Who made a request: a key until people and sessions arrive (issue 29), so the key is always there. */
export type Principal = RequestPrincipal & KeyOwner;
type NamedKey = KeyOwner & { name: string };

const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 10_000;

/** Checks a request's key; `forget` drops a revoked key's cached look-up, `close` stops listening for revocations. */
export type Authenticator = ((req: FastifyRequest) => Promise<Principal>) & { forget(keyHash: string): void; close(): void };

/**
 * Resolves `Authorization: Bearer <key>` to its account. Key look-ups are cached for a few seconds
 * (by hash), which keeps the hot read path to one query. With a bus, a key revoked in any process
 * (`apiKeyRevoked`) is forgotten at once.
 */
export function createAuthenticator(store: Store, bus?: EventBus): Authenticator {
  const cache = new Map<string, { owner: NamedKey | null; until: number }>();

  async function owner(keyHash: string): Promise<NamedKey | null> {
    const now = Date.now();
    const hit = cache.get(keyHash);
    if (hit && hit.until > now) return hit.owner;
    const found = (await store.accounts.findKey(keyHash)) ?? null;
    if (cache.size >= CACHE_MAX) cache.clear();
    // Unknown keys are cached briefly too, so guessing costs no database work.
    cache.set(keyHash, { owner: found, until: now + CACHE_TTL_MS });
    return found;
  }

  const authenticate = async (req: FastifyRequest): Promise<Principal> => {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new LookoutError('UNAUTHENTICATED', 'Missing or malformed Authorization header: expected "Bearer <API key>"');
    const found = await owner(hashApiKey(match[1]!));
    if (!found) throw new LookoutError('UNAUTHENTICATED', 'Unknown API key');
    for (const name of ACCOUNT_HEADERS) {
      const value = req.headers[name];
      if (value === undefined || value === '') continue;
      if (value !== found.accountId) {
        throw new LookoutError('FORBIDDEN', `This API key does not give access to account "${String(value)}"`);
      }
    }
    // Every key acts as an owner until roles arrive (issue 29).
    return { accountId: found.accountId, role: 'OWNER', userId: found.userId, keyId: found.keyId, sessionId: null, label: `key ${found.name}` };
  };
  const forget = (keyHash: string) => {
    cache.delete(keyHash);
  };
  const unsubscribe = bus?.subscribe('apiKeyRevoked', (event) => forget(event.keyHash)) ?? (() => {});
  return Object.assign(authenticate, { forget, close: unsubscribe });
}
