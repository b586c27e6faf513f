import { commandLineOwner } from './command-line-owner.js';
import { LookoutError } from '../domain/lookout-error.js';
import type { EventBus } from '../events/event-bus.js';
import { sandboxOffRefusal } from '../runner/sandbox/sandbox-off-refusal.js';
import type { SandboxSettings } from '../config.js';
import type { Store } from '../store/create-store.js';
import type { ServerFile } from '../store/data-dir-files.js';
import { createApiKeyService, type ApiKeyView } from './api-key-service.js';
import { createAccountWithKey } from './bootstrap.js';

/** What `lookout keys` and `lookout accounts` do, whether beside the server (store) or through it (REST). */
export interface AccountAdmin {
  createAccount(name: string): Promise<{ accountId: string; key: string }>;
  listKeys(accountId: string): Promise<ApiKeyView[]>;
  createKey(accountId: string, name: string): Promise<ApiKeyView & { key: string }>;
  revokeKey(accountId: string, keyId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Account administration on the database itself: a PostgreSQL shared with running servers (the bus,
 * Redis when set, tells them of revoked keys), or an embedded database no server holds.
 */
export function createStoreAccountAdmin(store: Store, bus: EventBus, sandbox: Pick<SandboxSettings, 'mode' | 'forceOff'>): AccountAdmin {
  const keys = createApiKeyService({ store, bus });
  const ownerOf = async (accountId: string) => {
    if (!(await store.accounts.get(accountId))) throw new LookoutError('NOT_FOUND', `Account ${accountId} not found`);
    return commandLineOwner(accountId, (await store.accounts.firstUser(accountId))?.id ?? null);
  };
  return {
    async createAccount(name) {
      // A server whose sandbox is off must stay single-account (see sandboxOffRefusal).
      const refusal = sandboxOffRefusal(sandbox, (await store.accounts.count()) + 1);
      if (refusal) throw new LookoutError('CONFLICT', refusal);
      const made = await createAccountWithKey(store, { name });
      return { accountId: made.accountId, key: made.apiKey };
    },
    listKeys: async (accountId) => keys.list(await ownerOf(accountId)),
    createKey: async (accountId, name) => keys.create(await ownerOf(accountId), { name, kind: 'service' }),
    revokeKey: async (accountId, keyId) => keys.revoke(await ownerOf(accountId), keyId),
    async close() {
      await bus.close();
      await store.close();
    },
  };
}

/** Account administration through a running server's `/v1/admin/...` routes, with the token of its server file. */
export function createRestAccountAdmin(server: ServerFile): AccountAdmin {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 204) return undefined as T;
    const answer = (await res.json().catch(() => ({}))) as { message?: string };
    if (!res.ok) throw new Error(`the server at ${server.url} answered ${res.status}: ${answer.message ?? res.statusText}`);
    return answer as T;
  };
  const keysOf = (accountId: string) => `/v1/admin/accounts/${encodeURIComponent(accountId)}/api-keys`;
  return {
    createAccount: (name) => call('POST', '/v1/admin/accounts', { name }),
    listKeys: (accountId) => call('GET', keysOf(accountId)),
    createKey: (accountId, name) => call('POST', keysOf(accountId), { name }),
    revokeKey: (accountId, keyId) => call('DELETE', `${keysOf(accountId)}/${encodeURIComponent(keyId)}`),
    close: async () => {},
  };
}
