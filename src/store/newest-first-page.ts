import type { Queryable } from './db.js';

/** Where a cursor list goes on: the last row of the previous page. */
export interface NewestFirstCursor {
  createdAt: Date;
  id: string;
}

/**
 * One page of an account's rows of `table`, newest first, after `after` (keyset on
 * `(created_at, id)`, so pages stay stable while rows are added). `table` and `columns` are
 * constants of the calling repository, never input.
 */
export function newestFirstPage<T>(
  db: Queryable, table: string, columns: string, accountId: string, limit: number, after?: NewestFirstCursor,
): Promise<T[]> {
  if (!after) {
    return db.query<T>(`SELECT ${columns} FROM ${table} WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [accountId, limit]);
  }
  return db.query<T>(
    `SELECT ${columns} FROM ${table} WHERE account_id = $1 AND (created_at, id) < ($3, $4::uuid)
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    [accountId, limit, after.createdAt, after.id],
  );
}
