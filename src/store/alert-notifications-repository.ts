import type { Queryable } from './db.js';

export type NotificationStatus = 'PENDING' | 'SENT' | 'FAILED';

/** One stored delivery attempt, with the check type of its alert joined in. */
export interface AlertNotificationRow {
  id: string;
  account_id: string;
  alert_id: string;
  check_id: string;
  alert_channel_id: number | null;
  channel_type: string;
  alert_type: string;
  status: NotificationStatus;
  attempt: number;
  error: string | null;
  response_status: number | null;
  notification_result: string | null;
  created_at: Date;
  attempted_at: Date | null;
  next_attempt_at: Date | null;
  check_type: string;
  check_result_id: string | null;
  total?: number;
}

/** A delivery attempt to make: PENDING, due at `nextAttemptAt`. */
export interface PendingNotificationWrite {
  id: string;
  alertId: string;
  checkId: string;
  alertChannelId: number;
  channelType: string;
  alertType: string;
  attempt: number;
  createdAt: Date;
  nextAttemptAt: Date;
}

/** How an attempt ended. */
export interface AttemptOutcome {
  status: 'SENT' | 'FAILED';
  error: string | null;
  responseStatus: number | null;
  notificationResult: string | null;
  attemptedAt: Date;
}

/** A pending attempt somewhere in the installation, for the delivery worker. */
export interface DueNotification {
  accountId: string;
  id: string;
  nextAttemptAt: Date;
}

/** Filters of `GET /v1/alert-notifications`; `from` inclusive, `to` exclusive. */
export interface AlertNotificationFilter {
  from?: Date;
  to?: Date;
  alertChannelId?: number;
  checkId?: string;
  status?: NotificationStatus;
  /** true: FAILED attempts only; false: every other attempt. */
  hasFailures?: boolean;
}

const COLUMNS = `n.id, n.account_id, n.alert_id, n.check_id, n.alert_channel_id, n.channel_type, n.alert_type, n.status, n.attempt,
  n.error, n.response_status, n.notification_result, n.created_at, n.attempted_at, n.next_attempt_at, a.check_type, a.check_result_id`;

/** Delivery attempts of alerts to channels, scoped to one account in every statement but `listDue`. */
export function createAlertNotificationsRepository(db: Queryable) {
  const get = async (accountId: string, id: string): Promise<AlertNotificationRow | undefined> => {
    const [row] = await db.query<AlertNotificationRow>(
      `SELECT ${COLUMNS} FROM alert_notifications n JOIN check_alerts a ON a.id = n.alert_id WHERE n.account_id = $1 AND n.id = $2`,
      [accountId, id],
    );
    return row;
  };
  return {
    get,

    async insertPending(accountId: string, n: PendingNotificationWrite): Promise<void> {
      await db.query(
        `INSERT INTO alert_notifications (id, account_id, alert_id, check_id, alert_channel_id, channel_type, alert_type, status,
           attempt, created_at, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $9, $10)`,
        [n.id, accountId, n.alertId, n.checkId, n.alertChannelId, n.channelType, n.alertType, n.attempt, n.createdAt, n.nextAttemptAt],
      );
    },

    /**
     * Takes a due PENDING attempt for delivery: pushes its next_attempt_at to `leaseUntil` so no
     * other worker takes it meanwhile, and so that it is due again if this process dies before
     * recording the outcome. Undefined when it is not due or not pending any more.
     */
    async claim(accountId: string, id: string, now: Date, leaseUntil: Date): Promise<AlertNotificationRow | undefined> {
      const [row] = await db.query<{ id: string }>(
        `UPDATE alert_notifications SET next_attempt_at = $4
         WHERE account_id = $1 AND id = $2 AND status = 'PENDING' AND next_attempt_at <= $3 RETURNING id`,
        [accountId, id, now, leaseUntil],
      );
      return row ? get(accountId, id) : undefined;
    },

    async complete(accountId: string, id: string, o: AttemptOutcome): Promise<void> {
      await db.query(
        `UPDATE alert_notifications SET status = $3, error = $4, response_status = $5, notification_result = $6,
           attempted_at = $7, next_attempt_at = NULL
         WHERE account_id = $1 AND id = $2`,
        [accountId, id, o.status, o.error, o.responseStatus, o.notificationResult, o.attemptedAt],
      );
    },

    /** PENDING attempts of every account due at or before `before` (any time when null), soonest first. */
    async listDue(before: Date | null, limit: number): Promise<DueNotification[]> {
      const rows = await db.query<{ account_id: string; id: string; next_attempt_at: Date }>(
        `SELECT account_id, id, next_attempt_at FROM alert_notifications
         WHERE status = 'PENDING' AND ($1::timestamptz IS NULL OR next_attempt_at <= $1) ORDER BY next_attempt_at, id LIMIT $2`,
        [before, limit],
      );
      return rows.map((r) => ({ accountId: r.account_id, id: r.id, nextAttemptAt: r.next_attempt_at }));
    },

    /** Newest first. */
    async list(accountId: string, filter: AlertNotificationFilter, page: number, limit: number): Promise<{ rows: AlertNotificationRow[]; total: number }> {
      const where = ['n.account_id = $1'];
      const params: unknown[] = [accountId];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.alertChannelId != null) add('n.alert_channel_id = ?', filter.alertChannelId);
      if (filter.checkId) add('n.check_id = ?', filter.checkId);
      if (filter.status) add('n.status = ?', filter.status);
      if (filter.hasFailures === true) where.push(`n.status = 'FAILED'`);
      if (filter.hasFailures === false) where.push(`n.status <> 'FAILED'`);
      if (filter.from) add('n.created_at >= ?', filter.from);
      if (filter.to) add('n.created_at < ?', filter.to);
      const whereSql = where.join(' AND ');
      params.push(limit, (page - 1) * limit);
      const rows = await db.query<AlertNotificationRow>(
        `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM alert_notifications n JOIN check_alerts a ON a.id = n.alert_id
         WHERE ${whereSql} ORDER BY n.created_at DESC, n.seq DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alert_notifications n WHERE ${whereSql}`, params.slice(0, -2));
      return { rows, total: count?.n ?? 0 };
    },
  };
}
export type AlertNotificationsRepository = ReturnType<typeof createAlertNotificationsRepository>;
