import { apiKeyRecord, newApiKey } from '../domain/api-key.js';
import { LookoutError, notFound } from '../domain/lookout-error.js';
import type { Principal } from '../domain/principal.js';
import { ROLE_NAMES, canGrant, type Role } from '../domain/roles.js';
import type { EventBus } from '../events/event-bus.js';
import type { ApiKeyRow } from '../store/accounts-repository.js';
import type { Store } from '../store/create-store.js';
import { personOf } from './person-service.js';

/**
 * An API key as lists show it: never the key or its hash. `prefix` and `maskedKey` are its first
 * and last characters, so a person can match a key they hold to a row. Keys made before these were
 * stored have no prefix (null). A personal key's `role` is its person's role in the account now
 * (null once they left it: the key no longer works).
 */
export function toApiKeyView(row: ApiKeyRow, personRole?: Role | null) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    role: row.kind === 'personal' ? personRole ?? null : row.role,
    userId: row.kind === 'personal' ? row.user_id : null,
    prefix: row.prefix,
    maskedKey: row.masked_key,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
  };
}
export type ApiKeyView = ReturnType<typeof toApiKeyView>;

/** Options of createApiKeyService. */
export interface ApiKeyServiceOptions {
  store: Store;
  bus: EventBus;
  /** Where creations and revocations are logged (at info). */
  logger?: { info(details: object, message: string): void };
  /** Drops a revoked key from this process's caches before the revocation is answered (the bus tells the other processes). */
  forget?: (keyHash: string) => void;
}

/** The caller's account's API keys: list, create (the key is answered once) and revoke. */
export function createApiKeyService({ store, bus, logger, forget }: ApiKeyServiceOptions) {
  return {
    async list(principal: Principal): Promise<ApiKeyView[]> {
      const [rows, members] = await Promise.all([store.accounts.listKeys(principal.accountId), store.people.members(principal.accountId)]);
      const roles = new Map(members.map((m) => [m.user_id, m.role]));
      return rows.map((row) => toApiKeyView(row, row.user_id ? roles.get(row.user_id) ?? null : null));
    },

    /**
     * A new key of the caller's account; `key` is the only time it is shown. A personal key acts as
     * the caller's person (any role may make one for themselves); a service key carries a role,
     * which only managers give, and at most their own (the caller's role when not said). Unsaid, a
     * person gets a personal key unless they name a role; a service key makes service keys.
     */
    async create(principal: Principal, input: { name: string; kind?: 'service' | 'personal'; role?: Role; expiresAt?: string }): Promise<ApiKeyView & { key: string }> {
      // A person asking for a key without saying gets their own; a role asked for means a service key.
      const kind = input.kind ?? (principal.userId && !input.role ? 'personal' : 'service');
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now()) {
        throw new LookoutError('VALIDATION', '"expiresAt" must be in the future', { issues: [{ key: 'expiresAt', message: 'must be in the future' }], source: 'payload' });
      }
      if (kind === 'personal' && input.role) {
        throw new LookoutError('VALIDATION', '"role" is for service keys: a personal key acts with its person\'s role', { issues: [{ key: 'role', message: 'is for service keys only' }], source: 'payload' });
      }
      const role = input.role ?? principal.role;
      if (kind === 'service' && !canGrant(principal.role, role)) {
        throw new LookoutError('FORBIDDEN', `Your role (${ROLE_NAMES[principal.role]}) may not make a ${ROLE_NAMES[role]} service key`, { attributes: { code: 'ROLE_FORBIDS' } });
      }
      const userId = kind === 'personal' ? personOf(principal) : principal.userId;
      const key = newApiKey();
      const row = await store.accounts.createKey({ accountId: principal.accountId, userId, name: input.name.trim(), kind, role, expiresAt, ...apiKeyRecord(key) });
      logger?.info({ accountId: principal.accountId, keyId: row.id, kind, role: kind === 'service' ? role : undefined, by: principal.label }, 'api key created');
      return { ...toApiKeyView(row, kind === 'personal' ? principal.role : null), key };
    },

    /**
     * Deletes one of the account's keys and tells every process to forget it. The account's last key
     * is kept (409) unless an owner can sign in: otherwise nothing but the command line could reach
     * the account again.
     */
    async revoke(principal: Principal, keyId: string): Promise<void> {
      const target = await store.accounts.getKey(principal.accountId, keyId);
      if (!target) throw notFound('API key', keyId);
      // One's own personal key, and the key one is using, may always go; other keys are managers' business.
      const own = (target.kind === 'personal' && target.user_id === principal.userId) || target.id === principal.keyId;
      if (!own && !canGrant(principal.role, target.kind === 'service' ? target.role : 'READ_ONLY')) {
        throw new LookoutError('FORBIDDEN', `Your role (${ROLE_NAMES[principal.role]}) may not revoke this key`, { attributes: { code: 'ROLE_FORBIDS' } });
      }
      const revoked = await store.transaction(async (repos) => {
        const row = await repos.accounts.deleteKey(principal.accountId, keyId);
        if (!row) throw notFound('API key', keyId);
        if ((await repos.accounts.countKeys(principal.accountId)) === 0 && !(await repos.people.hasSigningInOwner(principal.accountId))) {
          throw new LookoutError('CONFLICT', 'This is the account\'s last API key: create another before revoking it', {
            attributes: { code: 'LAST_API_KEY' },
          });
        }
        return row;
      });
      forget?.(revoked.key_hash);
      await bus.publish({ type: 'apiKeyRevoked', accountId: principal.accountId, keyId: revoked.id, keyHash: revoked.key_hash });
      logger?.info({ accountId: principal.accountId, keyId: revoked.id, by: principal.keyId }, 'api key revoked');
    },
  };
}
export type ApiKeyService = ReturnType<typeof createApiKeyService>;
