import type { Queryable } from './db.js';

/** When each channel was last alerted about each check's certificate, scoped to one account. */
export function createSslAlertMarksRepository(db: Queryable) {
  return {
    /**
     * Records that `channelId` is alerted now about the certificate of `checkId`, unless it was
     * alerted less than `minIntervalMs` ago; true when the caller should send the alert. Atomic:
     * of two processes seeing the same certificate, one wins.
     */
    async claim(accountId: string, checkId: string, channelId: number, now: Date, daysRemaining: number, minIntervalMs: number): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO ssl_alert_marks (check_id, alert_channel_id, account_id, last_alert_at, days_remaining) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (check_id, alert_channel_id) DO UPDATE SET last_alert_at = EXCLUDED.last_alert_at, days_remaining = EXCLUDED.days_remaining
         WHERE ssl_alert_marks.account_id = EXCLUDED.account_id AND ssl_alert_marks.last_alert_at <= $6
         RETURNING check_id`,
        [checkId, channelId, accountId, now, daysRemaining, new Date(now.getTime() - minIntervalMs)],
      );
      return rows.length > 0;
    },
  };
}
export type SslAlertMarksRepository = ReturnType<typeof createSslAlertMarksRepository>;
