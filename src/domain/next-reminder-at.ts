import { UNLIMITED_REMINDERS, type AlertState, type EscalationSettings } from './alert-state.js';

/**
 * When the next reminder of a check falls due (see dueReminders, whose rule this mirrors), or
 * null when none will without a new alert: the check passes, no alert went out for its status,
 * reminders are off, or all of them were sent.
 */
export function nextReminderAt(state: AlertState, settings: EscalationSettings): Date | null {
  const notified = state.status === 'FAILING' ? state.failureAlertSent : state.status === 'DEGRADED' && state.degradedAlertSent;
  const { amount, interval } = settings.reminders;
  const limit = amount >= UNLIMITED_REMINDERS ? Infinity : amount;
  const from = state.lastReminderAt ?? state.lastAlertAt;
  if (!notified || state.remindersSent >= limit || !from) return null;
  return new Date(from.getTime() + interval * 60_000);
}
