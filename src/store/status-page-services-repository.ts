import type { Queryable } from './db.js';
import { newestFirstPage, type NewestFirstCursor } from './newest-first-page.js';

/** A stored status page service. */
export interface StatusPageServiceRow {
  id: string;
  account_id: string;
  name: string;
  created_at: Date;
  updated_at: Date | null;
}

const COLUMNS = 'id, account_id, name, created_at, updated_at';

/** Status page services, scoped to one account in every statement. */
export function createStatusPageServicesRepository(db: Queryable) {
  return {
    /** One service; `lock` holds its row (a delete) until the transaction ends. */
    async get(accountId: string, id: string, lock = false): Promise<StatusPageServiceRow | undefined> {
      const [row] = await db.query<StatusPageServiceRow>(
        `SELECT ${COLUMNS} FROM status_page_services WHERE account_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [accountId, id],
      );
      return row;
    },

    /**
     * The account's services among `ids` (unknown ids and other accounts' are left out), held until
     * the transaction ends so that a delete running at the same time waits for the incident write.
     */
    async getMany(accountId: string, ids: readonly string[]): Promise<StatusPageServiceRow[]> {
      if (ids.length === 0) return [];
      return db.query<StatusPageServiceRow>(
        `SELECT ${COLUMNS} FROM status_page_services WHERE account_id = $1 AND id = ANY($2::uuid[]) FOR KEY SHARE`,
        [accountId, ids],
      );
    },

    /** A page of services, newest first, after the cursor (created_at, id). */
    list(accountId: string, limit: number, after?: NewestFirstCursor): Promise<StatusPageServiceRow[]> {
      return newestFirstPage<StatusPageServiceRow>(db, 'status_page_services', COLUMNS, accountId, limit, after);
    },

    async insert(accountId: string, id: string, name: string): Promise<StatusPageServiceRow> {
      const [row] = await db.query<StatusPageServiceRow>(
        `INSERT INTO status_page_services (id, account_id, name) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
        [id, accountId, name],
      );
      return row!;
    },

    async update(accountId: string, id: string, name: string): Promise<StatusPageServiceRow | undefined> {
      const [row] = await db.query<StatusPageServiceRow>(
        `UPDATE status_page_services SET name = $3, updated_at = now() WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [accountId, id, name],
      );
      return row;
    },

    /** The incidents that list the service (at most `limit`), oldest first. */
    async incidentsUsing(accountId: string, id: string, limit: number): Promise<{ id: string; name: string }[]> {
      return db.query<{ id: string; name: string }>(
        `SELECT i.id, i.name FROM status_page_incident_services s JOIN status_page_incidents i ON i.id = s.incident_id
         WHERE i.account_id = $1 AND s.service_id = $2 ORDER BY i.created_at, i.id LIMIT $3`,
        [accountId, id, limit],
      );
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM status_page_services WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },
  };
}
export type StatusPageServicesRepository = ReturnType<typeof createStatusPageServicesRepository>;
