import { apiKeyRecord, newApiKey } from '../domain/api-key.js';
import { LookoutError, notFound } from '../domain/lookout-error.js';
import type { EventBus } from '../events/event-bus.js';
import type { ApiKeyRow, KeyOwner as Principal } from '../store/accounts-repository.js';
import type { Store } from '../store/create-store.js';

/**
 * An API key as lists show it: never the key or its hash. `prefix` and `maskedKey` are its first
 * and last characters, so a person can match a key they hold to a row. Keys made before these were
 * stored have no prefix (null). A later `role` will be added here.
 */
export function toApiKeyView(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    maskedKey: row.masked_key,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
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
      return (await store.accounts.listKeys(principal.accountId)).map(toApiKeyView);
    },

    /** A new key of the caller's account, for the caller's user; `key` is the only time it is shown. */
    async create(principal: Principal, input: { name: string }): Promise<ApiKeyView & { key: string }> {
      const key = newApiKey();
      const row = await store.accounts.createKey({ accountId: principal.accountId, userId: principal.userId, name: input.name.trim(), ...apiKeyRecord(key) });
      logger?.info({ accountId: principal.accountId, keyId: row.id, by: principal.keyId }, 'api key created');
      return { ...toApiKeyView(row), key };
    },

    /**
     * Deletes one of the account's keys and tells every process to forget it. The account's last key
     * is kept (409): without one, nothing but the command line could reach the account again.
     */
    async revoke(principal: Principal, keyId: string): Promise<void> {
      const revoked = await store.transaction(async (repos) => {
        const row = await repos.accounts.deleteKey(principal.accountId, keyId);
        if (!row) throw notFound('API key', keyId);
        if ((await repos.accounts.countKeys(principal.accountId)) === 0) {
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
