import type { Queryable } from './db.js';
import { dateFilterSql } from './maintenance-date-filter-sql.js';
import type { DateFilters } from '../domain/maintenance-date-filters.js';

/** `statusPageVisibility` as stored, every default filled; its ids live in link tables. */
export interface StoredVisibility {
  enabled: boolean;
  severity: string | null;
  affectAllServices: boolean;
  notifyOnStart: boolean;
  notifyOnEnd: boolean;
  suppressAutoIncidents: boolean;
  reminderMinutesBefore: number[];
  autoStart: boolean;
  autoEnd: boolean;
  showAffectedServices: boolean;
}

/** A stored maintenance window. */
export interface MaintenanceWindowRow {
  id: number;
  account_id: string;
  name: string;
  starts_at: Date;
  ends_at: Date;
  repeat_unit: string | null;
  repeat_interval: number | null;
  repeat_ends_at: string | null;
  timezone: string;
  tags: string[];
  pause_all_checks: boolean;
  silence_alerts_tags: string[];
  silence_all_alerts: boolean;
  description: string | null;
  status_page_visibility: StoredVisibility;
  skipped_occurrences: number[];
  planned_until: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

/** The fields of a window a write sets. */
export interface MaintenanceWindowValues {
  name: string;
  startsAt: Date;
  endsAt: Date;
  repeatUnit: string | null;
  repeatInterval: number | null;
  repeatEndsAt: string | null;
  timezone: string;
  tags: string[];
  pauseAllChecks: boolean;
  silenceAlertsTags: string[];
  silenceAllAlerts: boolean;
  description: string | null;
  statusPageVisibility: StoredVisibility;
}

/** A window with a maintenance going on, with what automation needs to know about it. */
const COLUMNS = `id, account_id, name, starts_at, ends_at, repeat_unit, repeat_interval, repeat_ends_at, timezone, tags, pause_all_checks,
  silence_alerts_tags, silence_all_alerts, description, status_page_visibility, skipped_occurrences, planned_until, created_at, updated_at`;

const valueParams = (v: MaintenanceWindowValues) => [
  v.name, v.startsAt, v.endsAt, v.repeatUnit, v.repeatInterval, v.repeatEndsAt, v.timezone, v.tags, v.pauseAllChecks,
  v.silenceAlertsTags, v.silenceAllAlerts, v.description, JSON.stringify(v.statusPageVisibility),
];

/** Maintenance windows and the services they affect, scoped to one account in every statement. */
export function createMaintenanceWindowsRepository(db: Queryable) {
  return {
    /** One window; `lock` holds it until the transaction ends (writes to it and its maintenances). */
    async get(accountId: string, id: number, lock = false): Promise<MaintenanceWindowRow | undefined> {
      const [row] = await db.query<MaintenanceWindowRow>(
        `SELECT ${COLUMNS} FROM maintenance_windows WHERE account_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [accountId, id],
      );
      return row;
    },

    /** A page of the account's windows by id, filtered on their startsAt and endsAt, and how many match. */
    async list(accountId: string, page: number, limit: number, filters: DateFilters<'startsAt' | 'endsAt'>): Promise<{ rows: MaintenanceWindowRow[]; total: number }> {
      const params: unknown[] = [accountId];
      const where = dateFilterSql(filters, { startsAt: 'starts_at', endsAt: 'ends_at' }, params);
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM maintenance_windows WHERE account_id = $1${where}`, params);
      const rows = await db.query<MaintenanceWindowRow>(
        `SELECT ${COLUMNS} FROM maintenance_windows WHERE account_id = $1${where} ORDER BY id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, (page - 1) * limit],
      );
      return { rows, total: count?.n ?? 0 };
    },

    async insert(accountId: string, v: MaintenanceWindowValues): Promise<MaintenanceWindowRow> {
      const [row] = await db.query<MaintenanceWindowRow>(
        `INSERT INTO maintenance_windows (account_id, name, starts_at, ends_at, repeat_unit, repeat_interval, repeat_ends_at, timezone, tags,
           pause_all_checks, silence_alerts_tags, silence_all_alerts, description, status_page_visibility)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb) RETURNING ${COLUMNS}`,
        [accountId, ...valueParams(v)],
      );
      return row!;
    },

    async update(accountId: string, id: number, v: MaintenanceWindowValues): Promise<MaintenanceWindowRow | undefined> {
      const [row] = await db.query<MaintenanceWindowRow>(
        `UPDATE maintenance_windows SET name = $3, starts_at = $4, ends_at = $5, repeat_unit = $6, repeat_interval = $7, repeat_ends_at = $8,
           timezone = $9, tags = $10, pause_all_checks = $11, silence_alerts_tags = $12, silence_all_alerts = $13, description = $14,
           status_page_visibility = $15::jsonb, updated_at = now()
         WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [accountId, id, ...valueParams(v)],
      );
      return row;
    },

    async delete(accountId: string, id: number): Promise<boolean> {
      const rows = await db.query('DELETE FROM maintenance_windows WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    /**
     * Holds a window (of any account) against deletion until the transaction ends, answering whether
     * it still exists: the clock takes it before a maintenance's row, in the order every write
     * takes them (window, then maintenance), so a window delete and a clock move never deadlock.
     */
    async hold(id: number): Promise<boolean> {
      const rows = await db.query('SELECT id FROM maintenance_windows WHERE id = $1 FOR KEY SHARE', [id]);
      return rows.length > 0;
    },

    /** Stores how far the window is planned (null: all of it). */
    async setPlannedUntil(id: number, plannedUntil: Date | null): Promise<void> {
      await db.query('UPDATE maintenance_windows SET planned_until = $2 WHERE id = $1', [id, plannedUntil]);
    },

    /** Remembers that occurrence number `occurrence` was deleted, so no re-plan brings it back. */
    async skipOccurrence(id: number, occurrence: number): Promise<void> {
      await db.query(
        'UPDATE maintenance_windows SET skipped_occurrences = array_append(skipped_occurrences, $2::int) WHERE id = $1 AND NOT ($2::int = ANY(skipped_occurrences))',
        [id, occurrence],
      );
    },

    /** Replaces the window's services and status pages (ids already checked to be the account's), keeping their order. */
    async setLinks(windowId: number, links: { serviceIds: readonly string[]; statusPageIds: readonly string[] }): Promise<void> {
      for (const [table, column, ids] of [
        ['maintenance_window_services', 'service_id', links.serviceIds],
        ['maintenance_window_status_pages', 'status_page_id', links.statusPageIds],
      ] as const) {
        await db.query(`DELETE FROM ${table} WHERE window_id = $1`, [windowId]);
        if (ids.length === 0) continue;
        await db.query(
          `INSERT INTO ${table} (window_id, ${column}, position)
           SELECT $1, s.id, s.position::int - 1 FROM unnest($2::uuid[]) WITH ORDINALITY AS s(id, position)`,
          [windowId, ids],
        );
      }
    },

    /** The service and status page ids of each window, in their order. */
    async linksOf(windowIds: readonly number[]): Promise<{ window_id: number; kind: 'service' | 'statusPage'; id: string }[]> {
      if (windowIds.length === 0) return [];
      return db.query<{ window_id: number; kind: 'service' | 'statusPage'; id: string }>(
        `SELECT window_id, 'service' AS kind, service_id::text AS id, position FROM maintenance_window_services WHERE window_id = ANY($1::int[])
         UNION ALL
         SELECT window_id, 'statusPage', status_page_id::text, position FROM maintenance_window_status_pages WHERE window_id = ANY($1::int[])
         ORDER BY window_id, kind, position`,
        [windowIds],
      );
    },

    /**
     * Of `serviceIds` and `statusPageIds`, those that are the account's, and the services the
     * account's pages among them show on their cards. Rows found are held (FOR KEY SHARE) until the
     * transaction ends, so a delete running at the same time waits for the window write.
     */
    async knownLinks(accountId: string, serviceIds: readonly string[], statusPageIds: readonly string[]): Promise<{ services: string[]; pages: string[]; shown: string[] }> {
      const services = serviceIds.length === 0 ? [] : await db.query<{ id: string }>(
        'SELECT id::text AS id FROM status_page_services WHERE account_id = $1 AND id = ANY($2::uuid[]) FOR KEY SHARE',
        [accountId, serviceIds],
      );
      const pages = statusPageIds.length === 0 ? [] : await db.query<{ id: string }>(
        'SELECT id::text AS id FROM status_pages WHERE account_id = $1 AND id = ANY($2::uuid[]) FOR KEY SHARE',
        [accountId, statusPageIds],
      );
      const shown = pages.length === 0 ? [] : await db.query<{ id: string }>(
        `SELECT DISTINCT l.service_id::text AS id FROM status_page_cards c JOIN status_page_card_services l ON l.card_id = c.id
         WHERE c.status_page_id = ANY($1::uuid[])`,
        [pages.map((p) => p.id)],
      );
      return { services: services.map((r) => r.id), pages: pages.map((r) => r.id), shown: shown.map((r) => r.id) };
    },

    /** Windows (of any account) whose rolling plan reaches less far than `before`: the clock extends them. */
    async rollingPlansEndingBefore(before: Date, limit: number): Promise<{ id: number; account_id: string }[]> {
      return db.query<{ id: number; account_id: string }>(
        'SELECT id, account_id FROM maintenance_windows WHERE planned_until IS NOT NULL AND planned_until < $1 ORDER BY planned_until, id LIMIT $2',
        [before, limit],
      );
    },

  };
}
export type MaintenanceWindowsRepository = ReturnType<typeof createMaintenanceWindowsRepository>;
