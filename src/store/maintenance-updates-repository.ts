import type { Queryable } from './db.js';

/** A stored update of a maintenance. */
export interface MaintenanceUpdateRow {
  id: string;
  account_id: string;
  window_id: number;
  maintenance_id: string;
  status: string;
  previous_status: string | null;
  description: string;
  notify_subscribers: boolean;
  previous_starts_at: Date | null;
  previous_ends_at: Date | null;
  adjusted_starts_at: Date | null;
  adjusted_ends_at: Date | null;
  automatic: boolean;
  created_at: Date;
  updated_at: Date | null;
}

/** The fields of a new update. */
export interface MaintenanceUpdateValues {
  status: string;
  previousStatus: string | null;
  description: string;
  notifySubscribers: boolean;
  /** The dates before and after, when the update moved them. */
  dateAdjustment: { previousStartsAt: Date; previousEndsAt: Date; startsAt: Date; endsAt: Date } | null;
  automatic: boolean;
}

/** A notification waiting for delivery to status page subscribers: an update posted with notifySubscribers, or a reminder. */
export interface PendingMaintenanceNotification {
  kind: 'update' | 'reminder';
  /** The update's or the reminder's id. */
  id: string;
  account_id: string;
  window_id: number;
  maintenance_id: string;
  /** The update's status, or SCHEDULED for a reminder. */
  status: string;
  description: string | null;
  minutes_before: number | null;
  starts_at: Date;
  ends_at: Date;
  due_at: Date;
}

const COLUMNS = `id, account_id, window_id, maintenance_id, status, previous_status, description, notify_subscribers, previous_starts_at,
  previous_ends_at, adjusted_starts_at, adjusted_ends_at, automatic, created_at, updated_at`;

/** Updates of maintenances, their reminders, and the notifications both leave for delivery. */
export function createMaintenanceUpdatesRepository(db: Queryable) {
  return {
    async get(accountId: string, maintenanceId: string, id: string): Promise<MaintenanceUpdateRow | undefined> {
      const [row] = await db.query<MaintenanceUpdateRow>(
        `SELECT ${COLUMNS} FROM maintenance_updates WHERE account_id = $1 AND maintenance_id = $2 AND id = $3`,
        [accountId, maintenanceId, id],
      );
      return row;
    },

    /** The latest update of a maintenance (its status is the maintenance's). */
    async latest(maintenanceId: string): Promise<MaintenanceUpdateRow | undefined> {
      const [row] = await db.query<MaintenanceUpdateRow>(
        `SELECT ${COLUMNS} FROM maintenance_updates WHERE maintenance_id = $1 ORDER BY seq DESC LIMIT 1`,
        [maintenanceId],
      );
      return row;
    },

    /** A page of a maintenance's updates, newest first, and how many it has. */
    async list(maintenanceId: string, page: number, limit: number): Promise<{ rows: MaintenanceUpdateRow[]; total: number }> {
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM maintenance_updates WHERE maintenance_id = $1', [maintenanceId]);
      const rows = await db.query<MaintenanceUpdateRow>(
        `SELECT ${COLUMNS} FROM maintenance_updates WHERE maintenance_id = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3`,
        [maintenanceId, limit, (page - 1) * limit],
      );
      return { rows, total: count?.n ?? 0 };
    },

    async insert(accountId: string, windowId: number, maintenanceId: string, id: string, v: MaintenanceUpdateValues): Promise<MaintenanceUpdateRow> {
      const a = v.dateAdjustment;
      const [row] = await db.query<MaintenanceUpdateRow>(
        `INSERT INTO maintenance_updates (id, account_id, window_id, maintenance_id, status, previous_status, description, notify_subscribers,
           previous_starts_at, previous_ends_at, adjusted_starts_at, adjusted_ends_at, automatic)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
        [id, accountId, windowId, maintenanceId, v.status, v.previousStatus, v.description, v.notifySubscribers,
          a?.previousStartsAt ?? null, a?.previousEndsAt ?? null, a?.startsAt ?? null, a?.endsAt ?? null, v.automatic],
      );
      return row!;
    },

    /** Edits an update's text, status and flag (never its dates: an edit does not move the maintenance). */
    async edit(id: string, v: { status: string; description: string; notifySubscribers: boolean }): Promise<MaintenanceUpdateRow> {
      const [row] = await db.query<MaintenanceUpdateRow>(
        `UPDATE maintenance_updates SET status = $2, description = $3, notify_subscribers = $4, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, v.status, v.description, v.notifySubscribers],
      );
      return row!;
    },

    /**
     * Records a reminder for one start of a maintenance, once: answers false when it was recorded
     * already (by this clock or another process's).
     */
    async recordReminder(id: string, r: { maintenanceId: string; accountId: string; windowId: number; minutesBefore: number; startsAt: Date; dueAt: Date; superseded: boolean }): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO maintenance_reminders (id, maintenance_id, minutes_before, starts_at, account_id, window_id, due_at, superseded)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (maintenance_id, minutes_before, starts_at) DO NOTHING RETURNING id`,
        [id, r.maintenanceId, r.minutesBefore, r.startsAt, r.accountId, r.windowId, r.dueAt, r.superseded],
      );
      return rows.length > 0;
    },

    /** The reminders recorded for a maintenance, oldest first. */
    async remindersOf(maintenanceId: string): Promise<{ id: string; minutes_before: number; starts_at: Date; due_at: Date; superseded: boolean; notified_at: Date | null }[]> {
      return db.query(
        'SELECT id, minutes_before, starts_at, due_at, superseded, notified_at FROM maintenance_reminders WHERE maintenance_id = $1 ORDER BY due_at, minutes_before',
        [maintenanceId],
      );
    },

    /**
     * Notifications (any account) waiting for delivery to status page subscribers, oldest first:
     * updates posted with notifySubscribers and reminders not superseded, of windows shown on
     * status pages, not yet marked notified. A deliverer sends each and calls markNotified.
     */
    async pendingNotifications(limit: number): Promise<PendingMaintenanceNotification[]> {
      return db.query<PendingMaintenanceNotification>(
        `SELECT * FROM (
           SELECT 'update' AS kind, u.id::text AS id, u.account_id, u.window_id, u.maintenance_id, u.status, u.description,
             NULL::int AS minutes_before, o.starts_at, o.ends_at, u.created_at AS due_at
           FROM maintenance_updates u JOIN maintenances o ON o.id = u.maintenance_id JOIN maintenance_windows w ON w.id = u.window_id
           WHERE u.notify_subscribers AND u.notified_at IS NULL AND (w.status_page_visibility->>'enabled')::boolean
           UNION ALL
           SELECT 'reminder', r.id::text,
             r.account_id, r.window_id, r.maintenance_id, 'SCHEDULED', NULL, r.minutes_before, r.starts_at, o.ends_at, r.due_at
           FROM maintenance_reminders r JOIN maintenances o ON o.id = r.maintenance_id JOIN maintenance_windows w ON w.id = r.window_id
           WHERE NOT r.superseded AND r.notified_at IS NULL AND (w.status_page_visibility->>'enabled')::boolean
         ) n ORDER BY due_at, id LIMIT $1`,
        [limit],
      );
    },

    /** Marks a pending notification delivered (its `kind` and `id` as pendingNotifications gave them). */
    async markNotified(kind: 'update' | 'reminder', id: string, at: Date): Promise<boolean> {
      const table = kind === 'update' ? 'maintenance_updates' : 'maintenance_reminders';
      const rows = await db.query(`UPDATE ${table} SET notified_at = $2 WHERE id = $1::uuid AND notified_at IS NULL RETURNING id`, [id, at]);
      return rows.length > 0;
    },
  };
}
export type MaintenanceUpdatesRepository = ReturnType<typeof createMaintenanceUpdatesRepository>;
