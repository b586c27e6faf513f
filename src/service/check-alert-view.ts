import type Type from 'typebox';
import type { CheckAlertView } from '../contract/alert-schemas.js';
import type { AlertType } from '../domain/alert-state.js';
import type { CheckType } from '../domain/catalog.js';
import type { CheckAlertRow } from '../store/check-alerts-repository.js';

/**
 * A check alert as the API shows it: `{id, name, checkId, alertType, checkType, checkResultId,
 * runLocation, responseTime, statusCode, error, isReminder, reminderSequence, sslDaysRemaining,
 * startedAt, created_at}`.
 */
export function toCheckAlertView(row: CheckAlertRow): Type.Static<typeof CheckAlertView> {
  return {
    id: row.id,
    name: row.name,
    checkId: row.check_id,
    alertType: row.alert_type as AlertType,
    checkType: row.check_type as CheckType,
    checkResultId: row.check_result_id,
    runLocation: row.run_location,
    responseTime: row.response_time,
    statusCode: row.status_code,
    error: row.error,
    isReminder: row.is_reminder,
    reminderSequence: row.reminder_sequence,
    sslDaysRemaining: row.ssl_days_remaining,
    startedAt: row.started_at ? row.started_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
  };
}
