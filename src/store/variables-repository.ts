import type { Queryable } from './db.js';

/** A stored environment variable, value included (secret or not). */
export interface VariableRow {
  key: string;
  value: string;
  locked: boolean;
  secret: boolean;
  created_at: Date;
  updated_at: Date | null;
  total?: number;
}

/** What a variable is written with. */
export interface VariableWrite {
  value: string;
  locked: boolean;
  secret: boolean;
}

const COLUMNS = 'key, value, locked, secret, created_at, updated_at';

/** Account-level environment variables, scoped to one account in every statement. */
export function createVariablesRepository(db: Queryable) {
  return {
    async get(accountId: string, key: string): Promise<VariableRow | undefined> {
      const [row] = await db.query<VariableRow>(`SELECT ${COLUMNS} FROM environment_variables WHERE account_id = $1 AND key = $2`, [accountId, key]);
      return row;
    },

    async list(accountId: string, page: number, limit: number): Promise<{ rows: VariableRow[]; total: number }> {
      const rows = await db.query<VariableRow>(
        `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM environment_variables WHERE account_id = $1
         ORDER BY created_at, key LIMIT $2 OFFSET $3`,
        [accountId, limit, (page - 1) * limit],
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM environment_variables WHERE account_id = $1', [accountId]);
      return { rows, total: count?.n ?? 0 };
    },

    /** Inserts the variable; undefined when the account already has one with this key. */
    async insert(accountId: string, key: string, v: VariableWrite): Promise<VariableRow | undefined> {
      const [row] = await db.query<VariableRow>(
        `INSERT INTO environment_variables (account_id, key, value, locked, secret) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id, key) DO NOTHING RETURNING ${COLUMNS}`,
        [accountId, key, v.value, v.locked, v.secret],
      );
      return row;
    },

    async update(accountId: string, key: string, v: VariableWrite): Promise<VariableRow | undefined> {
      const [row] = await db.query<VariableRow>(
        `UPDATE environment_variables SET value = $3, locked = $4, secret = $5, updated_at = now()
         WHERE account_id = $1 AND key = $2 RETURNING ${COLUMNS}`,
        [accountId, key, v.value, v.locked, v.secret],
      );
      return row;
    },

    async delete(accountId: string, key: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM environment_variables WHERE account_id = $1 AND key = $2 RETURNING key', [accountId, key]);
      return rows.length > 0;
    },
  };
}
export type VariablesRepository = ReturnType<typeof createVariablesRepository>;
