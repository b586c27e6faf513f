import type { Queryable } from './db.js';
import { newestFirstPage, type NewestFirstCursor } from './newest-first-page.js';
import type { StatusPageServiceRow } from './status-page-services-repository.js';

/** A stored status page incident; `last_update_status` and `duration` follow its updates. */
export interface StatusPageIncidentRow {
  id: string;
  account_id: string;
  name: string;
  severity: string;
  last_update_status: string;
  duration: number | null;
  /** The check whose triggerIncident opened it; null for incidents written by hand. */
  check_id: string | null;
  created_at: Date;
  updated_at: Date | null;
}

/** A stored incident update. `status` is null when it was not given (it keeps the status before it). */
export interface StatusPageIncidentUpdateRow {
  id: string;
  incident_id: string;
  description: string;
  status: string | null;
  public_incident_update_date: Date;
  notify_subscribers: boolean;
  created_at: Date;
  updated_at: Date | null;
}

/** The fields of an update a write sets. */
export interface IncidentUpdateValues {
  description: string;
  status: string | null;
  publicIncidentUpdateDate: Date;
  notifySubscribers: boolean;
}

const INCIDENT_COLUMNS = 'id, account_id, name, severity, last_update_status, duration, check_id, created_at, updated_at';
const UPDATE_COLUMNS = 'id, incident_id, description, status, public_incident_update_date, notify_subscribers, created_at, updated_at';
/** Newest first on the public timeline. */
const UPDATES_NEWEST_FIRST = 'public_incident_update_date DESC, created_at DESC, seq DESC';

/** Status page incidents and their updates, scoped to one account in every statement. */
export function createStatusPageIncidentsRepository(db: Queryable) {
  return {
    /** One incident; `lock` holds its row until the transaction ends (update writes recompute its progress). */
    async get(accountId: string, id: string, lock = false): Promise<StatusPageIncidentRow | undefined> {
      const [row] = await db.query<StatusPageIncidentRow>(
        `SELECT ${INCIDENT_COLUMNS} FROM status_page_incidents WHERE account_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [accountId, id],
      );
      return row;
    },

    /** A page of incidents, newest first, after the cursor (created_at, id). */
    list(accountId: string, limit: number, after?: NewestFirstCursor): Promise<StatusPageIncidentRow[]> {
      return newestFirstPage<StatusPageIncidentRow>(db, 'status_page_incidents', INCIDENT_COLUMNS, accountId, limit, after);
    },

    async insert(accountId: string, id: string, v: { name: string; severity: string; checkId?: string | null }): Promise<StatusPageIncidentRow> {
      const [row] = await db.query<StatusPageIncidentRow>(
        `INSERT INTO status_page_incidents (id, account_id, name, severity, check_id) VALUES ($1, $2, $3, $4, $5) RETURNING ${INCIDENT_COLUMNS}`,
        [id, accountId, v.name, v.severity, v.checkId ?? null],
      );
      return row!;
    },

    async update(accountId: string, id: string, v: { name: string; severity: string }): Promise<void> {
      await db.query('UPDATE status_page_incidents SET name = $3, severity = $4, updated_at = now() WHERE account_id = $1 AND id = $2', [accountId, id, v.name, v.severity]);
    },

    /** Stores what the updates make of the incident; `touch` also marks it updated. */
    async setProgress(accountId: string, id: string, p: { lastUpdateStatus: string; duration: number | null }, touch: boolean): Promise<void> {
      await db.query(
        `UPDATE status_page_incidents SET last_update_status = $3, duration = $4${touch ? ', updated_at = now()' : ''} WHERE account_id = $1 AND id = $2`,
        [accountId, id, p.lastUpdateStatus, p.duration],
      );
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM status_page_incidents WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    /** Replaces the incident's services (ids already checked to be the account's), keeping their order. */
    async setServices(incidentId: string, serviceIds: readonly string[]): Promise<void> {
      await db.query('DELETE FROM status_page_incident_services WHERE incident_id = $1', [incidentId]);
      await db.query(
        `INSERT INTO status_page_incident_services (incident_id, service_id, position)
         SELECT $1, s.id, s.position::int - 1 FROM unnest($2::uuid[]) WITH ORDINALITY AS s(id, position)`,
        [incidentId, serviceIds],
      );
    },

    /** The services of each incident, in their order. */
    async servicesOf(incidentIds: readonly string[]): Promise<(StatusPageServiceRow & { incident_id: string })[]> {
      if (incidentIds.length === 0) return [];
      return db.query<StatusPageServiceRow & { incident_id: string }>(
        `SELECT l.incident_id, s.id, s.account_id, s.name, s.auto_incident, s.created_at, s.updated_at
         FROM status_page_incident_services l JOIN status_page_services s ON s.id = l.service_id
         WHERE l.incident_id = ANY($1::uuid[]) ORDER BY l.incident_id, l.position`,
        [incidentIds],
      );
    },

    /** The latest `perIncident` updates of each incident, newest first. */
    async updatesOf(incidentIds: readonly string[], perIncident: number): Promise<StatusPageIncidentUpdateRow[]> {
      if (incidentIds.length === 0) return [];
      return db.query<StatusPageIncidentUpdateRow>(
        `SELECT ${UPDATE_COLUMNS} FROM (
           SELECT *, row_number() OVER (PARTITION BY incident_id ORDER BY ${UPDATES_NEWEST_FIRST}) AS n
           FROM status_page_incident_updates WHERE incident_id = ANY($1::uuid[])
         ) u WHERE n <= $2 ORDER BY incident_id, ${UPDATES_NEWEST_FIRST}`,
        [incidentIds, perIncident],
      );
    },

    /** Every update of the incident in insertion order: what its status and duration are computed from. */
    async timelineOf(incidentId: string): Promise<{ status: string | null; public_incident_update_date: Date; created_at: Date }[]> {
      return db.query(
        'SELECT status, public_incident_update_date, created_at FROM status_page_incident_updates WHERE incident_id = $1 ORDER BY seq',
        [incidentId],
      );
    },

    async getUpdate(accountId: string, incidentId: string, id: string): Promise<StatusPageIncidentUpdateRow | undefined> {
      const [row] = await db.query<StatusPageIncidentUpdateRow>(
        `SELECT ${UPDATE_COLUMNS} FROM status_page_incident_updates WHERE account_id = $1 AND incident_id = $2 AND id = $3`,
        [accountId, incidentId, id],
      );
      return row;
    },

    async insertUpdate(accountId: string, incidentId: string, id: string, v: IncidentUpdateValues): Promise<StatusPageIncidentUpdateRow> {
      const [row] = await db.query<StatusPageIncidentUpdateRow>(
        `INSERT INTO status_page_incident_updates (id, account_id, incident_id, description, status, public_incident_update_date, notify_subscribers)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${UPDATE_COLUMNS}`,
        [id, accountId, incidentId, v.description, v.status, v.publicIncidentUpdateDate, v.notifySubscribers],
      );
      return row!;
    },

    async updateUpdate(accountId: string, incidentId: string, id: string, v: IncidentUpdateValues): Promise<StatusPageIncidentUpdateRow | undefined> {
      const [row] = await db.query<StatusPageIncidentUpdateRow>(
        `UPDATE status_page_incident_updates SET description = $4, status = $5, public_incident_update_date = $6, notify_subscribers = $7, updated_at = now()
         WHERE account_id = $1 AND incident_id = $2 AND id = $3 RETURNING ${UPDATE_COLUMNS}`,
        [accountId, incidentId, id, v.description, v.status, v.publicIncidentUpdateDate, v.notifySubscribers],
      );
      return row;
    },

    async deleteUpdate(accountId: string, incidentId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM status_page_incident_updates WHERE account_id = $1 AND incident_id = $2 AND id = $3 RETURNING id', [accountId, incidentId, id]);
      return rows.length > 0;
    },
  };
}
export type StatusPageIncidentsRepository = ReturnType<typeof createStatusPageIncidentsRepository>;
