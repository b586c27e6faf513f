import type { Queryable } from './db.js';
import { dateFilterSql } from './maintenance-date-filter-sql.js';
import type { DateFilters } from '../domain/maintenance-date-filters.js';

/** A stored maintenance: one occurrence of a window. */
export interface MaintenanceRow {
  id: string;
  account_id: string;
  window_id: number;
  occurrence: number;
  starts_at: Date;
  ends_at: Date;
  status: string;
  date_adjusted: boolean;
  created_at: Date;
  updated_at: Date | null;
}

/** A maintenance the clock moved, with what it was before. */
export interface ClaimedMaintenance extends MaintenanceRow {
  previous_status: string;
  /** The window's statusPageVisibility.enabled, notifyOnStart and notifyOnEnd. */
  visible: boolean;
  notify_on_start: boolean;
  notify_on_end: boolean;
}

/** A SCHEDULED maintenance of a shown window whose reminders may be due. */
export interface ReminderCandidate {
  id: string;
  account_id: string;
  window_id: number;
  starts_at: Date;
  reminder_minutes: number[];
  /** Minutes already recorded for this start. */
  recorded: number[];
}

const COLUMNS = 'id, account_id, window_id, occurrence, starts_at, ends_at, status, date_adjusted, created_at, updated_at';
const O_COLUMNS = COLUMNS.split(', ').map((c) => `o.${c}`).join(', ');

// Hidden windows (statusPageVisibility.enabled false) always start and end on time, whatever autoStart
// and autoEnd say (as the real service documents it).
// A zero-length maintenance (startsAt == endsAt) is a point in time: it never starts by itself, so it
// pauses and silences nothing.
const AUTO_START = "(o.ends_at > o.starts_at AND (NOT (w.status_page_visibility->>'enabled')::boolean OR (w.status_page_visibility->>'autoStart')::boolean))";
const AUTO_END = "(NOT (w.status_page_visibility->>'enabled')::boolean OR (w.status_page_visibility->>'autoEnd')::boolean)";
const VISIBILITY_FLAGS = `(w.status_page_visibility->>'enabled')::boolean AS visible,
  (w.status_page_visibility->>'notifyOnStart')::boolean AS notify_on_start, (w.status_page_visibility->>'notifyOnEnd')::boolean AS notify_on_end`;
/** Each reminder of the window `w` as `m(minutes)`. */
const REMINDERS = "jsonb_array_elements_text(w.status_page_visibility->'reminderMinutesBefore') AS m(minutes)";
const ACTIVE = "('IN_PROGRESS', 'VERIFYING')";

/**
 * Maintenances (occurrences of windows): what REST reads and writes, and what the clock claims.
 * Long by design: a repository: an object of one-statement methods over one table, sharing its SELECT lists.
 */
export function createMaintenanceOccurrencesRepository(db: Queryable) {
  return {
    /** One maintenance of the account's window; `lock` holds it until the transaction ends. */
    async get(accountId: string, windowId: number, id: string, lock = false): Promise<MaintenanceRow | undefined> {
      const [row] = await db.query<MaintenanceRow>(
        `SELECT ${COLUMNS} FROM maintenances WHERE account_id = $1 AND window_id = $2 AND id = $3${lock ? ' FOR UPDATE' : ''}`,
        [accountId, windowId, id],
      );
      return row;
    },

    /** One maintenance by id alone (the clock, after a claim). */
    async byId(id: string): Promise<MaintenanceRow | undefined> {
      const [row] = await db.query<MaintenanceRow>(`SELECT ${COLUMNS} FROM maintenances WHERE id = $1`, [id]);
      return row;
    },

    /** A page of a window's maintenances by start, filtered on their startsAt and endsAt, and how many match. */
    async list(windowId: number, page: number, limit: number, filters: DateFilters<'startsAt' | 'endsAt'>): Promise<{ rows: MaintenanceRow[]; total: number }> {
      const params: unknown[] = [windowId];
      const where = dateFilterSql(filters, { startsAt: 'starts_at', endsAt: 'ends_at' }, params);
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM maintenances WHERE window_id = $1${where}`, params);
      const rows = await db.query<MaintenanceRow>(
        `SELECT ${COLUMNS} FROM maintenances WHERE window_id = $1${where} ORDER BY starts_at, occurrence LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, (page - 1) * limit],
      );
      return { rows, total: count?.n ?? 0 };
    },

    /** Every maintenance of a window (a re-plan compares them with the plan). */
    async allOf(windowId: number): Promise<MaintenanceRow[]> {
      return db.query<MaintenanceRow>(`SELECT ${COLUMNS} FROM maintenances WHERE window_id = $1 ORDER BY occurrence`, [windowId]);
    },

    /** Adds planned maintenances; a number already stored is left as it is. Answers how many were added. */
    async insertMany(accountId: string, windowId: number, rows: readonly { id: string; occurrence: number; startsAt: Date; endsAt: Date }[]): Promise<number> {
      if (rows.length === 0) return 0;
      const added = await db.query(
        `INSERT INTO maintenances (id, account_id, window_id, occurrence, starts_at, ends_at)
         SELECT r.id, $1, $2, r.occurrence, r.starts_at, r.ends_at
         FROM unnest($3::uuid[], $4::int[], $5::timestamptz[], $6::timestamptz[]) AS r(id, occurrence, starts_at, ends_at)
         ON CONFLICT (window_id, occurrence) DO NOTHING RETURNING id`,
        [accountId, windowId, rows.map((r) => r.id), rows.map((r) => r.occurrence), rows.map((r) => r.startsAt.toISOString()), rows.map((r) => r.endsAt.toISOString())],
      );
      return added.length;
    },

    /** Moves planned maintenances to new dates; one that started or was set by hand meanwhile stays as it is. */
    async movePlanned(moves: readonly { id: string; startsAt: Date; endsAt: Date }[]): Promise<void> {
      if (moves.length === 0) return;
      await db.query(
        `UPDATE maintenances o SET starts_at = m.starts_at, ends_at = m.ends_at, updated_at = now()
         FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS m(id, starts_at, ends_at)
         WHERE o.id = m.id AND o.status = 'SCHEDULED' AND NOT o.date_adjusted`,
        [moves.map((m) => m.id), moves.map((m) => m.startsAt.toISOString()), moves.map((m) => m.endsAt.toISOString())],
      );
    },

    /** Removes planned maintenances; one that started or was set by hand meanwhile stays. */
    async removeMany(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.query("DELETE FROM maintenances WHERE id = ANY($1::uuid[]) AND status = 'SCHEDULED' AND NOT date_adjusted", [ids]);
    },

    /** Sets a maintenance's status and dates; `adjusted` marks dates set by hand. */
    async set(id: string, v: { status: string; startsAt: Date; endsAt: Date; adjusted: boolean }): Promise<MaintenanceRow> {
      const [row] = await db.query<MaintenanceRow>(
        `UPDATE maintenances SET status = $2, starts_at = $3, ends_at = $4, date_adjusted = date_adjusted OR $5, updated_at = now()
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, v.status, v.startsAt, v.endsAt, v.adjusted],
      );
      return row!;
    },

    /** Deletes one maintenance and answers its number in the series. */
    async delete(accountId: string, windowId: number, id: string): Promise<number | undefined> {
      const [row] = await db.query<{ occurrence: number }>(
        'DELETE FROM maintenances WHERE account_id = $1 AND window_id = $2 AND id = $3 RETURNING occurrence',
        [accountId, windowId, id],
      );
      return row?.occurrence;
    },

    /** SCHEDULED maintenances (any account) whose start is due at `now` and whose window starts them by itself. */
    async dueStarts(now: Date, limit: number): Promise<{ id: string; window_id: number }[]> {
      return db.query<{ id: string; window_id: number }>(
        `SELECT o.id, o.window_id FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id
         WHERE o.status = 'SCHEDULED' AND o.starts_at <= $1 AND ${AUTO_START} ORDER BY o.starts_at, o.id LIMIT $2`,
        [now, limit],
      );
    },

    /**
     * Moves a due SCHEDULED maintenance to IN_PROGRESS, only if it still is SCHEDULED and due and
     * its window still starts it by itself: of several clocks (or a clock and a caller), one wins.
     */
    async claimStart(id: string, now: Date): Promise<ClaimedMaintenance | undefined> {
      const [row] = await db.query<ClaimedMaintenance>(
        `UPDATE maintenances o SET status = 'IN_PROGRESS', updated_at = now()
         FROM maintenance_windows w
         WHERE o.id = $1 AND w.id = o.window_id AND o.status = 'SCHEDULED' AND o.starts_at <= $2 AND ${AUTO_START}
         RETURNING ${O_COLUMNS}, 'SCHEDULED' AS previous_status, ${VISIBILITY_FLAGS}`,
        [id, now],
      );
      return row;
    },

    /** IN_PROGRESS or VERIFYING maintenances (any account) whose end is due at `now` and whose window ends them by itself. */
    async dueEnds(now: Date, limit: number): Promise<{ id: string; window_id: number }[]> {
      return db.query<{ id: string; window_id: number }>(
        `SELECT o.id, o.window_id FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id
         WHERE o.status IN ${ACTIVE} AND o.ends_at <= $1 AND ${AUTO_END} ORDER BY o.ends_at, o.id LIMIT $2`,
        [now, limit],
      );
    },

    /** Moves a due IN_PROGRESS or VERIFYING maintenance to COMPLETED, only if it still is one and due (see claimStart). */
    async claimEnd(id: string, now: Date): Promise<ClaimedMaintenance | undefined> {
      const [row] = await db.query<ClaimedMaintenance>(
        `WITH claimed AS (
           SELECT o.id, o.status FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id
           WHERE o.id = $1 AND o.status IN ${ACTIVE} AND o.ends_at <= $2 AND ${AUTO_END}
           FOR UPDATE OF o
         )
         UPDATE maintenances o SET status = 'COMPLETED', updated_at = now()
         FROM claimed, maintenance_windows w
         WHERE o.id = claimed.id AND w.id = o.window_id AND o.status IN ${ACTIVE}
         RETURNING ${O_COLUMNS}, claimed.status AS previous_status, ${VISIBILITY_FLAGS}`,
        [id, now],
      );
      return row;
    },

    /** SCHEDULED maintenances of shown windows, starting after `now`, with a reminder due and not recorded yet. */
    async reminderCandidates(now: Date, limit: number): Promise<ReminderCandidate[]> {
      return db.query<ReminderCandidate>(
        `SELECT o.id, o.account_id, o.window_id, o.starts_at,
           ARRAY(SELECT m.minutes::int FROM ${REMINDERS}) AS reminder_minutes,
           ARRAY(SELECT r.minutes_before FROM maintenance_reminders r WHERE r.maintenance_id = o.id AND r.starts_at = o.starts_at) AS recorded
         FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id
         WHERE o.status = 'SCHEDULED' AND o.starts_at > $1 AND o.starts_at <= $1::timestamptz + interval '10080 minutes'
           AND (w.status_page_visibility->>'enabled')::boolean
           AND EXISTS (
             SELECT 1 FROM ${REMINDERS}
             WHERE o.starts_at - make_interval(mins => m.minutes::int) <= $1
               AND NOT EXISTS (SELECT 1 FROM maintenance_reminders r WHERE r.maintenance_id = o.id AND r.minutes_before = m.minutes::int AND r.starts_at = o.starts_at)
           )
         ORDER BY o.starts_at, o.id LIMIT $2`,
        [now, limit],
      );
    },

    /**
     * The first instant after `now` and no later than `until` at which the clock has something to do
     * (a start, an end or a reminder falls due), or null.
     */
    async nextDue(now: Date, until: Date): Promise<Date | null> {
      const [row] = await db.query<{ at: Date | null }>(
        `SELECT least(
           (SELECT min(o.starts_at) FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id
            WHERE o.status = 'SCHEDULED' AND o.starts_at > $1 AND o.starts_at <= $2 AND ${AUTO_START}),
           (SELECT min(o.ends_at) FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id
            WHERE o.status IN ${ACTIVE} AND o.ends_at > $1 AND o.ends_at <= $2 AND ${AUTO_END}),
           (SELECT min(o.starts_at - make_interval(mins => m.minutes::int))
            FROM maintenances o JOIN maintenance_windows w ON w.id = o.window_id CROSS JOIN LATERAL ${REMINDERS}
            WHERE o.status = 'SCHEDULED' AND (w.status_page_visibility->>'enabled')::boolean
              AND o.starts_at > $1 AND o.starts_at <= $2::timestamptz + interval '10080 minutes'
              AND o.starts_at - make_interval(mins => m.minutes::int) > $1 AND o.starts_at - make_interval(mins => m.minutes::int) <= $2)
         ) AS at`,
        [now, until],
      );
      return row?.at ?? null;
    },
  };
}
export type MaintenanceOccurrencesRepository = ReturnType<typeof createMaintenanceOccurrencesRepository>;
