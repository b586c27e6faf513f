import { randomBytes } from 'node:crypto';
import { apiKeyRecord, hashApiKey, newApiKey } from '../domain/api-key.js';
import type { Store } from '../store/create-store.js';
import { hashPassword } from './password-hash.js';

/** What bootstrapping did: an account and key exist; `apiKey` is set only when a key was made now. */
export interface BootstrapResult {
  accountId: string;
  apiKey?: string;
  created: boolean;
  /** The owner who signs in to the console, when bootstrapping made them sign in now; `password` only when it was generated. */
  owner?: { email: string; password?: string };
}

/**
 * Makes the account's first owner sign in to the console: on the first start, or on a later start
 * of an older installation when LOOKOUT_OWNER_PASSWORD is set and no owner signs in yet. Without a
 * password from the environment one is generated (answered once, for the key file).
 */
export async function bootstrapOwner(store: Store, accountId: string, env: { email: string; password?: string }, firstStart: boolean) {
  if (!firstStart && !env.password) return undefined;
  if (await store.people.hasSigningInOwner(accountId)) return undefined;
  if (await store.people.findByEmail(env.email)) return undefined;
  const password = env.password ?? randomBytes(15).toString('base64url');
  const passwordHash = await hashPassword(password);
  const first = await store.accounts.firstUser(accountId);
  if (first) {
    await store.people.enableSignIn(first.id, env.email, passwordHash);
  } else {
    await store.transaction(async (repos) => {
      const person = await repos.people.create({ email: env.email, name: 'Owner', passwordHash, accountId });
      await repos.people.upsertMembership(accountId, person.id, 'OWNER');
    });
  }
  return { email: env.email, ...(env.password ? {} : { password }) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Creates an account with a user and a fresh API key (the raw key is returned once, never stored). */
export async function createAccountWithKey(store: Store, input: { name: string; id?: string; apiKey?: string; keyName?: string }) {
  return store.transaction(async (repos) => {
    const account = await repos.accounts.create({ id: input.id, name: input.name });
    const user = await repos.accounts.createUser({ accountId: account.id, name: 'Admin', email: 'admin@localhost' });
    const apiKey = input.apiKey ?? newApiKey();
    await repos.accounts.createKey({ accountId: account.id, userId: user.id, name: input.keyName ?? 'bootstrap', ...apiKeyRecord(apiKey) });
    return { accountId: account.id, apiKey };
  });
}

/** Refuses malformed LOOKOUT_ACCOUNT_ID / LOOKOUT_API_KEY before anything starts. */
export function checkBootstrapSettings(env: { accountId?: string; apiKey?: string }): void {
  if (env.accountId && !UUID.test(env.accountId)) throw new Error('LOOKOUT_ACCOUNT_ID must be a UUID');
  if (env.apiKey && env.apiKey.length < 16) throw new Error('LOOKOUT_API_KEY must be at least 16 characters');
}

/**
 * Makes sure the embedded server has an account to use. With LOOKOUT_ACCOUNT_ID / LOOKOUT_API_KEY
 * given, that account and key exist afterwards; otherwise the first start creates an account and a key.
 */
export async function bootstrap(store: Store, env: { accountId?: string; apiKey?: string }): Promise<BootstrapResult> {
  checkBootstrapSettings(env);
  if (env.accountId || env.apiKey) {
    const accountId = env.accountId ?? (await store.db.query<{ id: string }>('SELECT id FROM accounts ORDER BY created_at LIMIT 1'))[0]?.id;
    if (!accountId || !(await store.accounts.get(accountId))) {
      const made = await createAccountWithKey(store, { id: accountId, name: 'Default account', apiKey: env.apiKey });
      return { accountId: made.accountId, created: true, ...(env.apiKey ? {} : { apiKey: made.apiKey }) };
    }
    if (env.apiKey) {
      const owner = await store.accounts.findKey(hashApiKey(env.apiKey));
      if (owner && owner.accountId !== accountId) throw new Error('LOOKOUT_API_KEY already belongs to another account');
      if (!owner) {
        const user = await store.accounts.firstUser(accountId);
        await store.accounts.createKey({ accountId, userId: user?.id ?? null, name: 'environment', ...apiKeyRecord(env.apiKey) });
      }
    }
    return { accountId, created: false };
  }
  if ((await store.accounts.count()) > 0) {
    const [first] = await store.db.query<{ id: string }>('SELECT id FROM accounts ORDER BY created_at LIMIT 1');
    return { accountId: first!.id, created: false };
  }
  const made = await createAccountWithKey(store, { name: 'Default account' });
  return { accountId: made.accountId, apiKey: made.apiKey, created: true };
}
