import { randomUUID } from 'node:crypto';
import { DEFAULT_ALERT_SETTINGS, DEFAULT_RUNTIME_ID } from '../domain/catalog.js';
import type { Principal } from '../domain/principal.js';
import type { Role } from '../domain/roles.js';
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

/** A person. `account_id` is the account it was first made for (null for people who joined by invitation or single sign-on). */
export interface UserRow {
  id: string;
  account_id: string | null;
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
  kind: 'service' | 'personal';
  /** A service key's role; a personal key acts with its person's role (this column is then unused). */
  role: Role;
  expires_at: Date | null;
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

    /** A person made for an account, owning it (bootstrap). */
    async createUser(input: { accountId: string; name: string; email: string }): Promise<UserRow> {
      const [row] = await db.query<UserRow>(
        'INSERT INTO users (id, account_id, name, email) VALUES ($1, $2, $3, $4) RETURNING *',
        [randomUUID(), input.accountId, input.name, input.email],
      );
      await db.query(`INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, 'OWNER')`, [input.accountId, row!.id]);
      return row!;
    },

    async getUser(id: string): Promise<UserRow | undefined> {
      const [row] = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
      return row;
    },

    /** The account's first owner (the one bootstrap made, unless it left). */
    async firstUser(accountId: string): Promise<UserRow | undefined> {
      const [row] = await db.query<UserRow>(
        `SELECT u.* FROM users u JOIN memberships m ON m.user_id = u.id WHERE m.account_id = $1
         ORDER BY (m.role = 'OWNER') DESC, m.created_at, u.id LIMIT 1`,
        [accountId],
      );
      return row;
    },

    /** Stores a key (by hash); a hash stored already is left as it is (the same key registered twice). */
    async createKey(input: {
      accountId: string; userId: string | null; name: string; keyHash: string; maskedKey: string; prefix?: string;
      kind?: 'service' | 'personal'; role?: Role; expiresAt?: Date | null;
    }): Promise<ApiKeyRow> {
      const [row] = await db.query<ApiKeyRow>(
        `INSERT INTO api_keys (id, account_id, user_id, name, key_hash, masked_key, prefix, kind, role, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (key_hash) DO NOTHING RETURNING *`,
        [randomUUID(), input.accountId, input.userId, input.name, input.keyHash, input.maskedKey, input.prefix ?? null,
          input.kind ?? 'service', input.role ?? 'OWNER', input.expiresAt ?? null],
      );
      return row ?? (await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = $1', [input.keyHash]))[0]!;
    },

    /**
     * The key of this hash, if it exists, and marks it used. The mark is written at most once a
     * minute per key, so a busy key costs no write per request (callers cache look-ups anyway).
     */
    async findKey(keyHash: string): Promise<Principal | undefined> {
      // A personal key acts with its person's role now; one whose person left the account is unknown.
      const [row] = await db.query<{ id: string; account_id: string; user_id: string | null; name: string; kind: string; role: Role | null; email: string | null; stale: boolean }>(
        `SELECT k.id, k.account_id, k.user_id, k.name, k.kind, u.email,
                CASE WHEN k.kind = 'personal' THEN m.role ELSE k.role END AS role,
                (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS stale
         FROM api_keys k LEFT JOIN memberships m ON m.account_id = k.account_id AND m.user_id = k.user_id
           LEFT JOIN users u ON u.id = k.user_id
         WHERE k.key_hash = $1 AND (k.expires_at IS NULL OR k.expires_at > now())`,
        [keyHash],
      );
      if (!row?.role) return undefined;
      if (row.stale) await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [row.id]);
      // Service keys of older versions name their account's first user; they act for the account, not as a person.
      const personal = row.kind === 'personal';
      const label = personal ? `${row.email} (key ${row.name})` : `key ${row.name}`;
      return { keyId: row.id, accountId: row.account_id, userId: personal ? row.user_id : null, sessionId: null, role: row.role, label };
    },

    /** The account's keys, oldest first. */
    async listKeys(accountId: string): Promise<ApiKeyRow[]> {
      return db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
    },

    async getKey(accountId: string, keyId: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE account_id = $1 AND id = $2', [accountId, keyId]);
      return row;
    },

    /**
     * The account's keys that still give owner rights: owner service keys and personal keys of its
     * owners, unexpired. Revoking the last one would lock the account (only the command line reaches it).
     */
    async countOwnerKeys(accountId: string): Promise<number> {
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM api_keys k LEFT JOIN memberships m ON m.account_id = k.account_id AND m.user_id = k.user_id
         WHERE k.account_id = $1 AND (k.expires_at IS NULL OR k.expires_at > now())
           AND (CASE WHEN k.kind = 'personal' THEN m.role ELSE k.role END) = 'OWNER'`,
        [accountId],
      );
      return row?.n ?? 0;
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
