import type { Queryable } from './db.js';
import { newestFirstPage, type NewestFirstCursor } from './newest-first-page.js';

/** A stored status page service. */
export interface StatusPageServiceRow {
  id: string;
  account_id: string;
  name: string;
  /** Opens an incident by itself when its checks fail, resolves it when they recover. */
  auto_incident: boolean;
  created_at: Date;
  updated_at: Date | null;
}

/** A check a service is built from, in the order shown. */
export interface ServiceCheckRow {
  service_id: string;
  check_id: string;
  name: string;
  /** The check's tags (which maintenance windows cover it). */
  tags: string[];
  created_at: Date;
}

/** What a service write sets besides its id. */
export interface ServiceValues {
  name: string;
  autoIncident: boolean;
}

const COLUMNS = 'id, account_id, name, auto_incident, created_at, updated_at';

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

    async insert(accountId: string, id: string, values: ServiceValues): Promise<StatusPageServiceRow> {
      const [row] = await db.query<StatusPageServiceRow>(
        `INSERT INTO status_page_services (id, account_id, name, auto_incident) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [id, accountId, values.name, values.autoIncident],
      );
      return row!;
    },

    async update(accountId: string, id: string, values: ServiceValues): Promise<StatusPageServiceRow | undefined> {
      const [row] = await db.query<StatusPageServiceRow>(
        `UPDATE status_page_services SET name = $3, auto_incident = $4, updated_at = now() WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [accountId, id, values.name, values.autoIncident],
      );
      return row;
    },

    /** The account's checks among `ids` (others' and unknown ones left out), held against a delete until the transaction ends. */
    async existingChecks(accountId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.query<{ id: string }>(
        'SELECT id::text AS id FROM checks WHERE account_id = $1 AND id::text = ANY($2::text[]) FOR KEY SHARE',
        [accountId, ids.map((id) => id.toLowerCase())],
      );
      return new Set(rows.map((r) => r.id));
    },

    /** Replaces the checks of a service (ids of the account's checks, in the order shown). */
    async setChecks(accountId: string, serviceId: string, checkIds: readonly string[]): Promise<void> {
      await db.query('DELETE FROM status_page_service_checks WHERE service_id = $1 AND account_id = $2', [serviceId, accountId]);
      if (checkIds.length === 0) return;
      await db.query(
        `INSERT INTO status_page_service_checks (service_id, check_id, account_id, position)
         SELECT $1, c.id, $2, c.ord - 1 FROM unnest($3::uuid[]) WITH ORDINALITY AS c(id, ord)`,
        [serviceId, accountId, checkIds],
      );
    },

    /** The checks of these services, in each service's order. */
    async checksOf(accountId: string, serviceIds: readonly string[]): Promise<ServiceCheckRow[]> {
      if (serviceIds.length === 0) return [];
      return db.query<ServiceCheckRow>(
        `SELECT l.service_id, l.check_id, c.name, coalesce(ARRAY(SELECT jsonb_array_elements_text(c.data->'tags')), '{}') AS tags, c.created_at
         FROM status_page_service_checks l JOIN checks c ON c.id = l.check_id AND c.account_id = l.account_id
         WHERE l.account_id = $1 AND l.service_id = ANY($2::uuid[]) ORDER BY l.service_id, l.position`,
        [accountId, serviceIds],
      );
    },

    /** The services with automatic incidents that are built from this check. */
    async autoIncidentServicesOf(accountId: string, checkId: string): Promise<StatusPageServiceRow[]> {
      return db.query<StatusPageServiceRow>(
        `SELECT ${COLUMNS.split(', ').map((c) => `s.${c}`).join(', ')} FROM status_page_services s
         JOIN status_page_service_checks l ON l.service_id = s.id AND l.account_id = s.account_id
         WHERE s.account_id = $1 AND l.check_id = $2 AND s.auto_incident ORDER BY s.created_at, s.id FOR KEY SHARE OF s`,
        [accountId, checkId],
      );
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
