import type { Queryable } from './db.js';

/** A key of a private location: only its hash and masked form are stored. */
export interface PrivateLocationKeyRow {
  id: string;
  maskedKey: string;
  created_at: string;
  updated_at: string | null;
}

export interface PrivateLocationRow {
  id: string;
  account_id: string;
  name: string;
  slug_name: string;
  icon: string | null;
  proxy_url: string | null;
  last_seen: Date | null;
  /** Agents that reported in the last 15 s (AGENT_LIVE_MS). */
  agent_count?: number;
  created_at: Date;
  updated_at: Date | null;
  keys: PrivateLocationKeyRow[];
}

/** The editable fields of a private location. */
export interface PrivateLocationInput {
  name: string;
  slugName: string;
  icon: string | null;
  proxyUrl: string | null;
}

const KEYS = `coalesce((
    SELECT json_agg(json_build_object('id', k.id, 'maskedKey', k.masked_key, 'created_at', k.created_at,
                                      'updated_at', k.updated_at) ORDER BY k.created_at, k.id)
    FROM private_location_keys k WHERE k.private_location_id = p.id), '[]'::json) AS keys,
  (SELECT count(*)::int FROM agents a WHERE a.private_location_id = p.id AND a.left_at IS NULL
     AND a.last_seen > now() - interval '15 seconds') AS agent_count`;

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === UNIQUE_VIOLATION;
}

/** Private locations and their keys, scoped to one account in every statement. */
export function createPrivateLocationsRepository(db: Queryable) {
  return {
    async list(accountId: string): Promise<PrivateLocationRow[]> {
      return db.query<PrivateLocationRow>(
        `SELECT p.*, ${KEYS} FROM private_locations p WHERE p.account_id = $1 ORDER BY p.created_at, p.id`,
        [accountId],
      );
    },

    async get(accountId: string, id: string): Promise<PrivateLocationRow | undefined> {
      const [row] = await db.query<PrivateLocationRow>(
        `SELECT p.*, ${KEYS} FROM private_locations p WHERE p.account_id = $1 AND p.id = $2`,
        [accountId, id],
      );
      return row;
    },

    /** Inserts a location; false when its slug is already taken in the account. */
    async insert(accountId: string, id: string, input: PrivateLocationInput): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO private_locations (id, account_id, name, slug_name, icon, proxy_url) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id, slug_name) DO NOTHING RETURNING id`,
        [id, accountId, input.name, input.slugName, input.icon, input.proxyUrl],
      );
      return rows.length > 0;
    },

    /** Updates a location; 'conflict' when the new slug is already taken in the account. */
    async update(accountId: string, id: string, input: PrivateLocationInput): Promise<'updated' | 'missing' | 'conflict'> {
      try {
        const rows = await db.query(
          `UPDATE private_locations SET name = $3, slug_name = $4, icon = $5, proxy_url = $6, updated_at = now()
           WHERE account_id = $1 AND id = $2 RETURNING id`,
          [accountId, id, input.name, input.slugName, input.icon, input.proxyUrl],
        );
        return rows.length > 0 ? 'updated' : 'missing';
      } catch (err) {
        if (isUniqueViolation(err)) return 'conflict';
        throw err;
      }
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM private_locations WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    /** Adds a key to a location of the account; undefined when there is no such location. */
    async addKey(
      accountId: string,
      locationId: string,
      key: { id: string; keyHash: string; maskedKey: string },
    ): Promise<PrivateLocationKeyRow | undefined> {
      const [row] = await db.query<{ id: string; masked_key: string; created_at: Date; updated_at: Date | null }>(
        `INSERT INTO private_location_keys (id, private_location_id, key_hash, masked_key)
         SELECT $3, p.id, $4, $5 FROM private_locations p WHERE p.account_id = $1 AND p.id = $2
         RETURNING id, masked_key, created_at, updated_at`,
        [accountId, locationId, key.id, key.keyHash, key.maskedKey],
      );
      return row && {
        id: row.id,
        maskedKey: row.masked_key,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at ? row.updated_at.toISOString() : null,
      };
    },

    async deleteKey(accountId: string, locationId: string, keyId: string): Promise<boolean> {
      const rows = await db.query(
        `DELETE FROM private_location_keys k USING private_locations p
         WHERE k.private_location_id = p.id AND p.account_id = $1 AND p.id = $2 AND k.id = $3 RETURNING k.id`,
        [accountId, locationId, keyId],
      );
      return rows.length > 0;
    },
  };
}
export type PrivateLocationsRepository = ReturnType<typeof createPrivateLocationsRepository>;
