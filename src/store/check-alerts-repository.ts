import type { Queryable } from './db.js';

/** A stored alert of a check. */
export interface CheckAlertRow {
  id: string;
  account_id: string;
  check_id: string;
  alert_type: string;
  name: string;
  check_type: string;
  check_result_id: string | null;
  run_location: string | null;
  response_time: number | null;
  status_code: number | null;
  error: string | null;
  started_at: Date | null;
  is_reminder: boolean;
  reminder_sequence: number | null;
  ssl_days_remaining: number | null;
  payload: Record<string, any>;
  created_at: Date;
  total?: number;
}

/** What an alert is written with. */
export interface CheckAlertWrite {
  id: string;
  checkId: string;
  alertType: string;
  name: string;
  checkType: string;
  checkResultId: string | null;
  runLocation: string | null;
  responseTime: number | null;
  statusCode: number | null;
  error: string | null;
  startedAt: Date | null;
  isReminder: boolean;
  reminderSequence: number | null;
  sslDaysRemaining: number | null;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** Filters of the alert lists; `from` inclusive, `to` exclusive. */
export interface CheckAlertFilter {
  from?: Date;
  to?: Date;
  checkId?: string;
}

const COLUMNS = `id, account_id, check_id, alert_type, name, check_type, check_result_id, run_location, response_time, status_code,
  error, started_at, is_reminder, reminder_sequence, ssl_days_remaining, payload, created_at`;

/** Alerts raised by checks, scoped to one account in every statement. */
export function createCheckAlertsRepository(db: Queryable) {
  return {
    async insert(accountId: string, a: CheckAlertWrite): Promise<void> {
      await db.query(
        `INSERT INTO check_alerts (id, account_id, check_id, alert_type, name, check_type, check_result_id, run_location,
           response_time, status_code, error, started_at, is_reminder, reminder_sequence, ssl_days_remaining, payload, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
        [
          a.id, accountId, a.checkId, a.alertType, a.name, a.checkType, a.checkResultId, a.runLocation, a.responseTime,
          a.statusCode, a.error, a.startedAt, a.isReminder, a.reminderSequence, a.sslDaysRemaining, JSON.stringify(a.payload), a.createdAt,
        ],
      );
    },

    async get(accountId: string, id: string): Promise<CheckAlertRow | undefined> {
      const [row] = await db.query<CheckAlertRow>(`SELECT ${COLUMNS} FROM check_alerts WHERE account_id = $1 AND id = $2`, [accountId, id]);
      return row;
    },

    /** Newest first. */
    async list(accountId: string, filter: CheckAlertFilter, page: number, limit: number): Promise<{ rows: CheckAlertRow[]; total: number }> {
      const where = ['account_id = $1'];
      const params: unknown[] = [accountId];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.checkId) add('check_id = ?', filter.checkId);
      if (filter.from) add('created_at >= ?', filter.from);
      if (filter.to) add('created_at < ?', filter.to);
      const whereSql = where.join(' AND ');
      params.push(limit, (page - 1) * limit);
      const rows = await db.query<CheckAlertRow>(
        `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM check_alerts WHERE ${whereSql}
         ORDER BY created_at DESC, seq DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM check_alerts WHERE ${whereSql}`, params.slice(0, -2));
      return { rows, total: count?.n ?? 0 };
    },
  };
}
export type CheckAlertsRepository = ReturnType<typeof createCheckAlertsRepository>;
