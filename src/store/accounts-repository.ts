import { randomUUID } from 'node:crypto';
import { DEFAULT_ALERT_SETTINGS, DEFAULT_RUNTIME_ID } from '../domain/catalog.js';
import type { Queryable } from './db.js';

export interface AccountRow {
  id: string;
  name: string;
  runtime_id: string;
  plan: string;
  plan_display_name: string;
  settings: Record<string, unknown>;
  alert_settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date | null;
}

export interface UserRow {
  id: string;
  account_id: string;
  name: string;
  email: string;
  created_at: Date;
}

/** An API key as stored: its hash and shown parts, never the key. */
export interface ApiKeyRow {
  id: string;
  account_id: string;
  user_id: string | null;
  name: string;
  key_hash: string;
  masked_key: string;
  prefix: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

/** Who a key authenticates. */
export interface KeyOwner {
  keyId: string;
  accountId: string;
  userId: string | null;
}

/** Accounts, their users and API keys (stored as hashes only). */
export function createAccountsRepository(db: Queryable) {
  return {
    async count(): Promise<number> {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts');
      return row?.n ?? 0;
    },

    async create(input: { id?: string; name: string; runtimeId?: string }): Promise<AccountRow> {
      const [row] = await db.query<AccountRow>(
        `INSERT INTO accounts (id, name, runtime_id, alert_settings) VALUES ($1, $2, $3, $4) RETURNING *`,
        [input.id ?? randomUUID(), input.name, input.runtimeId ?? DEFAULT_RUNTIME_ID, DEFAULT_ALERT_SETTINGS],
      );
      return row!;
    },

    async get(id: string): Promise<AccountRow | undefined> {
      const [row] = await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
      return row;
    },

    /** get() of several accounts in one statement; those that exist. */
    async getMany(ids: readonly string[]): Promise<AccountRow[]> {
      if (ids.length === 0) return [];
      return db.query<AccountRow>('SELECT * FROM accounts WHERE id = ANY($1::uuid[])', [ids]);
    },

    async update(id: string, patch: { name?: string; runtimeId?: string; alertSettings?: object; settings?: object }): Promise<AccountRow | undefined> {
      const [row] = await db.query<AccountRow>(
        `UPDATE accounts SET name = coalesce($2, name), runtime_id = coalesce($3, runtime_id),
           alert_settings = coalesce($4, alert_settings), settings = coalesce($5, settings), updated_at = now()
         WHERE id = $1 RETURNING *`,
        [id, patch.name ?? null, patch.runtimeId ?? null, patch.alertSettings ?? null, patch.settings ?? null],
      );
      return row;
    },

    async createUser(input: { accountId: string; name: string; email: string }): Promise<UserRow> {
      const [row] = await db.query<UserRow>(
        'INSERT INTO users (id, account_id, name, email) VALUES ($1, $2, $3, $4) RETURNING *',
        [randomUUID(), input.accountId, input.name, input.email],
      );
      return row!;
    },

    async getUser(id: string): Promise<UserRow | undefined> {
      const [row] = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
      return row;
    },

    /** The account's users, oldest first (the first is the one bootstrap made). */
    async users(accountId: string): Promise<UserRow[]> {
      return db.query<UserRow>('SELECT * FROM users WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
    },

    async firstUser(accountId: string): Promise<UserRow | undefined> {
      const [row] = await db.query<UserRow>('SELECT * FROM users WHERE account_id = $1 ORDER BY created_at LIMIT 1', [accountId]);
      return row;
    },

    /** Stores a key (by hash); a hash stored already is left as it is (the same key registered twice). */
    async createKey(input: { accountId: string; userId: string | null; name: string; keyHash: string; maskedKey: string; prefix?: string }): Promise<ApiKeyRow> {
      const [row] = await db.query<ApiKeyRow>(
        `INSERT INTO api_keys (id, account_id, user_id, name, key_hash, masked_key, prefix) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (key_hash) DO NOTHING RETURNING *`,
        [randomUUID(), input.accountId, input.userId, input.name, input.keyHash, input.maskedKey, input.prefix ?? null],
      );
      return row ?? (await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = $1', [input.keyHash]))[0]!;
    },

    /**
     * The key of this hash, if it exists, and marks it used. The mark is written at most once a
     * minute per key, so a busy key costs no write per request (callers cache look-ups anyway).
     */
    async findKey(keyHash: string): Promise<(KeyOwner & { name: string }) | undefined> {
      const [row] = await db.query<{ id: string; account_id: string; user_id: string | null; name: string; stale: boolean }>(
        `SELECT id, account_id, user_id, name, (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') AS stale
         FROM api_keys WHERE key_hash = $1`,
        [keyHash],
      );
      if (row?.stale) await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [row.id]);
      return row && { keyId: row.id, accountId: row.account_id, userId: row.user_id, name: row.name };
    },

    /** The account's keys, oldest first. */
    async listKeys(accountId: string): Promise<ApiKeyRow[]> {
      return db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
    },

    async countKeys(accountId: string): Promise<number> {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [accountId]);
      return row?.n ?? 0;
    },

    /** Deletes one of the account's keys; answers what was deleted (its hash tells caches to forget it), or undefined. */
    async deleteKey(accountId: string, keyId: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.query<ApiKeyRow>('DELETE FROM api_keys WHERE account_id = $1 AND id = $2 RETURNING *', [accountId, keyId]);
      return row;
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
