import type { Queryable } from './db.js';

/** A stored error group of a check. */
export interface ErrorGroupRow {
  id: string;
  account_id: string;
  check_id: string;
  error_hash: string;
  raw_error_message: string | null;
  cleaned_error_message: string;
  first_seen: Date;
  last_seen: Date;
  archived_until_next_event: boolean;
  archived_forever: boolean;
  created_at: Date;
  total?: number;
}

/** One more occurrence of an error on a check. */
export interface ErrorOccurrence {
  /** Used when the group is new. */
  id: string;
  hash: string;
  raw: string;
  cleaned: string;
  seenAt: Date;
}

/** Error groups of checks, scoped to one account in every statement. */
export function createErrorGroupsRepository(db: Queryable) {
  return {
    /**
     * Records an occurrence: a new group for a new hash, else the group's lastSeen and raw message
     * move on and an archived-until-next-event group comes back (archived for ever stays archived).
     * Returns the group's id.
     */
    async recordOccurrence(accountId: string, checkId: string, o: ErrorOccurrence): Promise<string> {
      const [row] = await db.query<{ id: string }>(
        `INSERT INTO error_groups (id, account_id, check_id, error_hash, raw_error_message, cleaned_error_message, first_seen, last_seen)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (check_id, error_hash) DO UPDATE SET
           first_seen = LEAST(error_groups.first_seen, EXCLUDED.first_seen),
           last_seen = GREATEST(error_groups.last_seen, EXCLUDED.last_seen),
           raw_error_message = CASE WHEN EXCLUDED.last_seen >= error_groups.last_seen
             THEN EXCLUDED.raw_error_message ELSE error_groups.raw_error_message END,
           archived_until_next_event = false
         WHERE error_groups.account_id = EXCLUDED.account_id
         RETURNING id`,
        [o.id, accountId, checkId, o.hash, o.raw, o.cleaned, o.seenAt],
      );
      if (!row) throw new Error(`check ${checkId} is not in account ${accountId}`);
      return row.id;
    },

    async get(accountId: string, id: string): Promise<ErrorGroupRow | undefined> {
      const [row] = await db.query<ErrorGroupRow>('SELECT * FROM error_groups WHERE account_id = $1 AND id = $2', [accountId, id]);
      return row;
    },

    /** A page of the account's error groups (of one check when `checkId` is given), most recently seen first. */
    async list(accountId: string, page: number, limit: number, checkId?: string): Promise<{ rows: ErrorGroupRow[]; total: number }> {
      const params: unknown[] = [accountId];
      let where = 'account_id = $1';
      if (checkId) {
        params.push(checkId);
        where += ' AND check_id = $2';
      }
      const rows = await db.query<ErrorGroupRow>(
        `SELECT *, count(*) OVER ()::int AS total FROM error_groups WHERE ${where}
         ORDER BY last_seen DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, (page - 1) * limit],
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM error_groups WHERE ${where}`, params);
      return { rows, total: count?.n ?? 0 };
    },

    async setArchived(accountId: string, id: string, flags: { untilNextEvent: boolean; forever: boolean }): Promise<ErrorGroupRow | undefined> {
      const [row] = await db.query<ErrorGroupRow>(
        `UPDATE error_groups SET archived_until_next_event = $3, archived_forever = $4
         WHERE account_id = $1 AND id = $2 RETURNING *`,
        [accountId, id, flags.untilNextEvent, flags.forever],
      );
      return row;
    },
  };
}
export type ErrorGroupsRepository = ReturnType<typeof createErrorGroupsRepository>;
