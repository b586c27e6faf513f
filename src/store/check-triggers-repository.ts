import { randomBytes } from 'node:crypto';
import type { Queryable } from './db.js';

/** A check's trigger token, which runs the check from a public URL. */
export interface CheckTriggerRow {
  id: number;
  account_id: string;
  check_id: string;
  token: string;
  called_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

/** Trigger tokens, one per check; every statement but `call` is scoped to one account. */
export function createCheckTriggersRepository(db: Queryable) {
  return {
    /** Creates the check's token, or keeps the existing one (touching `updated_at`). */
    async upsert(accountId: string, checkId: string): Promise<CheckTriggerRow> {
      const [row] = await db.query<CheckTriggerRow>(
        `INSERT INTO check_triggers (account_id, check_id, token) VALUES ($1, $2, $3)
         ON CONFLICT (check_id) DO UPDATE SET updated_at = now() RETURNING *`,
        [accountId, checkId, randomBytes(18).toString('base64url')],
      );
      return row!;
    },

    async get(accountId: string, checkId: string): Promise<CheckTriggerRow | undefined> {
      const [row] = await db.query<CheckTriggerRow>('SELECT * FROM check_triggers WHERE account_id = $1 AND check_id = $2', [accountId, checkId]);
      return row;
    },

    /** Whether a token was deleted. */
    async delete(accountId: string, checkId: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM check_triggers WHERE account_id = $1 AND check_id = $2 RETURNING id', [accountId, checkId]);
      return rows.length > 0;
    },

    /** Records a call of the public trigger URL; the account owning the token, or undefined for a wrong token. */
    async call(checkId: string, token: string): Promise<string | undefined> {
      const [row] = await db.query<{ account_id: string }>(
        'UPDATE check_triggers SET called_at = now() WHERE check_id = $1 AND token = $2 RETURNING account_id',
        [checkId, token],
      );
      return row?.account_id;
    },
  };
}
