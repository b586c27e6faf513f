import type { Queryable } from './db.js';

/** A FINAL result waiting for alert evaluation. */
export interface AlertOutboxRow {
  id: string;
  account_id: string;
  check_id: string;
  result_id: string;
  sequence_id: string;
}

/**
 * The transactional outbox of alert evaluation (all accounts): the recorder adds a row in the
 * transaction storing a FINAL result, alerting removes it in the transaction storing what the
 * result changed. Ids are bigserial, so their order is the order results were stored in.
 */
export function createAlertOutboxRepository(db: Queryable) {
  return {
    /** Queues a stored FINAL result for evaluation; call in the transaction that stores it. */
    async add(row: { accountId: string; checkId: string; resultId: string; sequenceId: string }): Promise<void> {
      await db.query(
        'INSERT INTO alert_outbox (account_id, check_id, result_id, sequence_id) VALUES ($1, $2, $3, $4)',
        [row.accountId, row.checkId, row.resultId, row.sequenceId],
      );
    },

    /** Queues several stored FINAL results, in the order given (ids follow it). */
    async addMany(rows: readonly { accountId: string; checkId: string; resultId: string; sequenceId: string }[]): Promise<void> {
      if (rows.length === 0) return;
      await db.query(
        `INSERT INTO alert_outbox (account_id, check_id, result_id, sequence_id)
         SELECT account_id, check_id, result_id, sequence_id
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[]) WITH ORDINALITY AS r(account_id, check_id, result_id, sequence_id, ord)
         ORDER BY ord`,
        [rows.map((r) => r.accountId), rows.map((r) => r.checkId), rows.map((r) => r.resultId), rows.map((r) => r.sequenceId)],
      );
    },

    /**
     * Up to `limit` waiting rows, oldest first, leaving out `excluding` (the rows a consumer already
     * holds): unlike an id cursor this cannot skip a row whose transaction committed after a
     * higher id was read.
     */
    async waiting(limit: number, excluding: readonly string[] = []): Promise<AlertOutboxRow[]> {
      return db.query<AlertOutboxRow>(
        `SELECT id::text, account_id, check_id, result_id, sequence_id FROM alert_outbox
         WHERE NOT (id = ANY($2::bigint[])) ORDER BY id LIMIT $1`,
        [limit, excluding],
      );
    },

    /**
     * Removes rows and answers how many were still there. In a transaction, fewer than asked means
     * another consumer evaluated some of them already (its delete committed first, or this one
     * waited on its row locks): the caller must roll back rather than evaluate them again.
     */
    /** remove(), answering which of `ids` it removed. */
    async removeEach(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.query<{ id: string }>('DELETE FROM alert_outbox WHERE id = ANY($1::bigint[]) RETURNING id::text', [ids]);
      return new Set(rows.map((r) => r.id));
    },

    async remove(ids: readonly string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await db.query('DELETE FROM alert_outbox WHERE id = ANY($1::bigint[]) RETURNING id', [ids]);
      return rows.length;
    },

    /** How many rows wait (metrics, tests). */
    async count(): Promise<number> {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_outbox');
      return Number(row?.n ?? 0);
    },
  };
}
export type AlertOutboxRepository = ReturnType<typeof createAlertOutboxRepository>;
