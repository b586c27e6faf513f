import { randomBytes } from 'node:crypto';
import type { Queryable } from './db.js';

/** A check group's trigger token, which runs the group's checks from a public URL. */
export interface CheckGroupTriggerRow {
  id: number;
  account_id: string;
  group_id: number;
  token: string;
  called_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

/** A check of a group as a group run sees it. */
export interface GroupCheckRow {
  id: string;
  name: string;
  check_type: string;
  activated: boolean;
}

/** Trigger tokens, one per group; every statement but `call` is scoped to one account. */
export function createCheckGroupTriggersRepository(db: Queryable) {
  return {
    /** Creates the group's token, or keeps the existing one (touching `updated_at`). */
    async upsert(accountId: string, groupId: number): Promise<CheckGroupTriggerRow> {
      const [row] = await db.query<CheckGroupTriggerRow>(
        `INSERT INTO check_group_triggers (account_id, group_id, token) VALUES ($1, $2, $3)
         ON CONFLICT (group_id) DO UPDATE SET updated_at = now() RETURNING *`,
        [accountId, groupId, randomBytes(18).toString('base64url')],
      );
      return row!;
    },

    async get(accountId: string, groupId: number): Promise<CheckGroupTriggerRow | undefined> {
      const [row] = await db.query<CheckGroupTriggerRow>('SELECT * FROM check_group_triggers WHERE account_id = $1 AND group_id = $2', [accountId, groupId]);
      return row;
    },

    /** Whether a token was deleted. */
    async delete(accountId: string, groupId: number): Promise<boolean> {
      const rows = await db.query('DELETE FROM check_group_triggers WHERE account_id = $1 AND group_id = $2 RETURNING id', [accountId, groupId]);
      return rows.length > 0;
    },

    /** Records a call of the public trigger URL; the account owning the token, or undefined for a wrong token. */
    async call(groupId: number, token: string): Promise<string | undefined> {
      const [row] = await db.query<{ account_id: string }>(
        'UPDATE check_group_triggers SET called_at = now() WHERE group_id = $1 AND token = $2 RETURNING account_id',
        [groupId, token],
      );
      return row?.account_id;
    },

    /** The group's checks in run order: groupOrder first (unset last), then creation. */
    async checksOf(accountId: string, groupId: number): Promise<GroupCheckRow[]> {
      return db.query<GroupCheckRow>(
        `SELECT id, name, check_type, activated FROM checks WHERE account_id = $1 AND group_id = $2
         ORDER BY CASE WHEN jsonb_typeof(data->'groupOrder') = 'number' THEN (data->>'groupOrder')::numeric END NULLS LAST, created_at, id`,
        [accountId, groupId],
      );
    },
  };
}
export type CheckGroupTriggersRepository = ReturnType<typeof createCheckGroupTriggersRepository>;
