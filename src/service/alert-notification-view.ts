import type Type from 'typebox';
import type { AlertNotificationView } from '../contract/alert-schemas.js';
import type { AlertType } from '../domain/alert-state.js';
import type { AlertChannelType, CheckType } from '../domain/catalog.js';
import type { AlertNotificationRow } from '../store/alert-notifications-repository.js';

/**
 * A delivery attempt as the API shows it: `{id, checkAlertId, alertChannelId, type, alertType,
 * checkId, checkType, checkResultId, status, attempt, error, responseStatus, notificationResult,
 * timestamp, nextAttemptAt, created_at}`. `timestamp` is when the attempt was made (null while
 * PENDING); `alertChannelId` is null once the channel was deleted.
 */
export function toAlertNotificationView(row: AlertNotificationRow): Type.Static<typeof AlertNotificationView> {
  return {
    id: row.id,
    checkAlertId: row.alert_id,
    alertChannelId: row.alert_channel_id,
    type: row.channel_type as AlertChannelType,
    alertType: row.alert_type as AlertType,
    checkId: row.check_id,
    checkType: row.check_type as CheckType,
    checkResultId: row.check_result_id,
    status: row.status,
    attempt: row.attempt,
    error: row.error,
    responseStatus: row.response_status,
    notificationResult: row.notification_result,
    timestamp: row.attempted_at ? row.attempted_at.toISOString() : null,
    nextAttemptAt: row.status === 'PENDING' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
  };
}
