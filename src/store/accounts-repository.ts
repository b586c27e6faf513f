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

    async createKey(input: { accountId: string; userId: string | null; name: string; keyHash: string; maskedKey: string }): Promise<{ id: string }> {
      const id = randomUUID();
      await db.query(
        'INSERT INTO api_keys (id, account_id, user_id, name, key_hash, masked_key) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key_hash) DO NOTHING',
        [id, input.accountId, input.userId, input.name, input.keyHash, input.maskedKey],
      );
      return { id };
    },

    async findKey(keyHash: string): Promise<KeyOwner | undefined> {
      const [row] = await db.query<{ id: string; account_id: string; user_id: string | null }>(
        'SELECT id, account_id, user_id FROM api_keys WHERE key_hash = $1',
        [keyHash],
      );
      return row && { keyId: row.id, accountId: row.account_id, userId: row.user_id };
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
