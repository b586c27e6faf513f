/** The alert types of conventions.md. ALERT_SSL comes from certificate checks, not from this state machine. */
export const ALERT_TYPES = [
  'ALERT_FAILURE', 'ALERT_FAILURE_REMAIN', 'ALERT_FAILURE_DEGRADED', 'ALERT_RECOVERY', 'ALERT_DEGRADED',
  'ALERT_DEGRADED_REMAIN', 'ALERT_DEGRADED_FAILURE', 'ALERT_DEGRADED_RECOVERY', 'ALERT_SSL',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export type AlertStatus = 'PASSING' | 'DEGRADED' | 'FAILING';

/** `reminders.amount` meaning "no limit". */
export const UNLIMITED_REMINDERS = 100000;

/** What the alerting of one check remembers between its FINAL runs. */
export interface AlertState {
  /** Status of the latest FINAL run. */
  status: AlertStatus;
  /** Consecutive FINAL runs with the current status (failed runs while FAILING, degraded runs while DEGRADED); 0 while PASSING. */
  consecutiveFailures: number;
  /** startedAt of the first FINAL run with the current status; null while PASSING. */
  failingSince: Date | null;
  /** The last alert (reminders included) sent for this check, kept across recoveries. */
  lastAlertType: AlertType | null;
  /** When the last non-reminder alert was sent: reminders count their interval from it. */
  lastAlertAt: Date | null;
  /** A failure notification went out for the current FAILING status. */
  failureAlertSent: boolean;
  /** A degraded notification went out for the current DEGRADED status. */
  degradedAlertSent: boolean;
  /** Reminders sent for the current status. */
  remindersSent: number;
  lastReminderAt: Date | null;
}

/** A check's (defaulted) `alertSettings`. */
export interface EscalationSettings {
  escalationType: 'RUN_BASED' | 'TIME_BASED';
  runBasedEscalation: { failedRunThreshold: number };
  timeBasedEscalation: { minutesFailingThreshold: number };
  reminders: { amount: number; interval: number };
  parallelRunFailureThreshold: { enabled: boolean; percentage: number };
}

/** The FINAL result of a run (for a parallel run: all locations together, counted once). */
export interface FinalRun {
  hasFailures: boolean;
  isDegraded: boolean;
  startedAt: Date;
}

/** How many locations of a parallel run failed. */
export interface ParallelOutcome {
  failedLocations: number;
  totalLocations: number;
}

export interface AlertTransition {
  state: AlertState;
  alerts: AlertType[];
}

/** The state of a check that has not failed (or never ran). */
export const INITIAL_ALERT_STATE: Readonly<AlertState> = Object.freeze({
  status: 'PASSING',
  consecutiveFailures: 0,
  failingSince: null,
  lastAlertType: null,
  lastAlertAt: null,
  failureAlertSent: false,
  degradedAlertSent: false,
  remindersSent: 0,
  lastReminderAt: null,
});

/**
 * The status a FINAL run puts a check in: FAILING beats DEGRADED beats PASSING. A parallel run
 * (`parallel` given) with `parallelRunFailureThreshold.enabled` fails only when
 * failedLocations / totalLocations × 100 ≥ percentage; below that it passes (or is degraded).
 * Without the threshold, any failed location fails the run (`hasFailures`).
 */
export function runStatus(run: Omit<FinalRun, 'startedAt'>, settings: EscalationSettings, parallel?: ParallelOutcome): AlertStatus {
  const threshold = settings.parallelRunFailureThreshold;
  const failed = parallel && threshold.enabled
    ? parallel.totalLocations > 0 && parallel.failedLocations * 100 >= threshold.percentage * parallel.totalLocations
    : run.hasFailures;
  if (failed) return 'FAILING';
  return run.isDegraded ? 'DEGRADED' : 'PASSING';
}

/**
 * The alert state after a FINAL run, and the alerts to send now (ATTEMPT results never come here).
 * The escalation threshold is reached when, counting this run,
 * - RUN_BASED: `consecutiveFailures` ≥ `runBasedEscalation.failedRunThreshold`;
 * - TIME_BASED: this run started ≥ `timeBasedEscalation.minutesFailingThreshold` minutes after
 *   `failingSince` (so it is checked at each FINAL run, never between runs).
 *
 * | from → to           | alert                   | when                                                       |
 * |---------------------|-------------------------|------------------------------------------------------------|
 * | PASSING → PASSING   | none                    |                                                            |
 * | PASSING → DEGRADED  | ALERT_DEGRADED          | threshold reached on this first degraded run               |
 * | PASSING → FAILING   | ALERT_FAILURE           | threshold reached on this first failed run                 |
 * | DEGRADED → DEGRADED | ALERT_DEGRADED_REMAIN   | threshold reached on this run and no degraded alert yet    |
 * | FAILING → FAILING   | ALERT_FAILURE_REMAIN    | threshold reached on this run and no failure alert yet     |
 * | DEGRADED → FAILING  | ALERT_DEGRADED_FAILURE  | always (an escalation overrides the threshold)             |
 * | FAILING → DEGRADED  | ALERT_FAILURE_DEGRADED  | always (a de-escalation overrides the threshold)           |
 * | FAILING → PASSING   | ALERT_RECOVERY          | only if a failure alert was sent for this failure          |
 * | DEGRADED → PASSING  | ALERT_DEGRADED_RECOVERY | only if a degraded alert was sent for this degradation     |
 *
 * The two _REMAIN rows are the alert of an escalation whose threshold is met on a later run
 * ("alert after 2 failures"); reminders use the same types (see dueReminders). A status change
 * restarts the count, `failingSince` and the reminders; recovery also ends the reminders.
 */
export function nextAlertState(
  state: AlertState,
  finalRun: FinalRun,
  settings: EscalationSettings,
  parallel?: ParallelOutcome,
): AlertTransition {
  const status = runStatus(finalRun, settings, parallel);
  const at = finalRun.startedAt;

  if (status === 'PASSING') {
    const alert = state.status === 'FAILING' && state.failureAlertSent ? 'ALERT_RECOVERY'
      : state.status === 'DEGRADED' && state.degradedAlertSent ? 'ALERT_DEGRADED_RECOVERY'
        : null;
    const next: AlertState = { ...INITIAL_ALERT_STATE, lastAlertType: state.lastAlertType, lastAlertAt: state.lastAlertAt };
    return alert ? { state: sent(next, alert, at), alerts: [alert] } : { state: next, alerts: [] };
  }

  if (status === state.status) {
    const next: AlertState = { ...state, consecutiveFailures: state.consecutiveFailures + 1 };
    const alreadySent = status === 'FAILING' ? state.failureAlertSent : state.degradedAlertSent;
    if (alreadySent || !thresholdReached(next, at, settings)) return { state: next, alerts: [] };
    const alert = status === 'FAILING' ? 'ALERT_FAILURE_REMAIN' : 'ALERT_DEGRADED_REMAIN';
    return { state: sent(next, alert, at), alerts: [alert] };
  }

  const entered: AlertState = {
    ...INITIAL_ALERT_STATE,
    status,
    consecutiveFailures: 1,
    failingSince: at,
    lastAlertType: state.lastAlertType,
    lastAlertAt: state.lastAlertAt,
  };
  let alert: AlertType | null;
  if (state.status === 'DEGRADED') alert = 'ALERT_DEGRADED_FAILURE';
  else if (state.status === 'FAILING') alert = 'ALERT_FAILURE_DEGRADED';
  else if (thresholdReached(entered, at, settings)) alert = status === 'FAILING' ? 'ALERT_FAILURE' : 'ALERT_DEGRADED';
  else alert = null;
  return alert ? { state: sent(entered, alert, at), alerts: [alert] } : { state: entered, alerts: [] };
}

function thresholdReached(state: AlertState, at: Date, settings: EscalationSettings): boolean {
  if (settings.escalationType === 'TIME_BASED') {
    const since = state.failingSince ?? at;
    return at.getTime() - since.getTime() >= settings.timeBasedEscalation.minutesFailingThreshold * 60_000;
  }
  return state.consecutiveFailures >= settings.runBasedEscalation.failedRunThreshold;
}

/** Records a (non-reminder) alert: it marks its status notified and restarts the reminders. */
function sent(state: AlertState, alert: AlertType, at: Date): AlertState {
  const next: AlertState = { ...state, lastAlertType: alert, lastAlertAt: at, remindersSent: 0, lastReminderAt: null };
  if (state.status === 'FAILING') next.failureAlertSent = true;
  if (state.status === 'DEGRADED') next.degradedAlertSent = true;
  return next;
}

export interface Reminder {
  alertType: 'ALERT_FAILURE_REMAIN' | 'ALERT_DEGRADED_REMAIN';
  /** 1 for the first reminder of the current status (the webhook's REMINDER_SEQUENCE). */
  sequence: number;
}

/**
 * The reminder due at `now`, if any, and the state that records it as sent. A reminder is due
 * while the check is FAILING (ALERT_FAILURE_REMAIN) or DEGRADED (ALERT_DEGRADED_REMAIN) and an
 * alert was sent for that status, fewer than `reminders.amount` reminders went out
 * (UNLIMITED_REMINDERS: no limit; 0: none), and `reminders.interval` minutes have passed since the
 * last reminder, or since that alert for the first one. At most one per call: a late caller gets
 * one reminder, not a burst. Recovery and status changes restart the count (nextAlertState).
 */
export function dueReminders(state: AlertState, settings: EscalationSettings, now: Date): { state: AlertState; reminders: Reminder[] } {
  const none = { state, reminders: [] };
  const notified = state.status === 'FAILING' ? state.failureAlertSent : state.status === 'DEGRADED' && state.degradedAlertSent;
  const { amount, interval } = settings.reminders;
  const limit = amount >= UNLIMITED_REMINDERS ? Infinity : amount;
  const from = state.lastReminderAt ?? state.lastAlertAt;
  if (!notified || state.remindersSent >= limit || !from) return none;
  if (now.getTime() - from.getTime() < interval * 60_000) return none;
  const reminder: Reminder = {
    alertType: state.status === 'FAILING' ? 'ALERT_FAILURE_REMAIN' : 'ALERT_DEGRADED_REMAIN',
    sequence: state.remindersSent + 1,
  };
  return {
    state: { ...state, remindersSent: reminder.sequence, lastReminderAt: now, lastAlertType: reminder.alertType },
    reminders: [reminder],
  };
}

/** The notification flags of an alert channel (AlertChannelSettings has them). */
export interface ChannelFlags {
  sendFailure: boolean;
  sendRecovery: boolean;
  sendDegraded: boolean;
  sslExpiry?: boolean;
}

/**
 * Whether a channel takes an alert type, by the kind of notification it is:
 * - failure (sendFailure): ALERT_FAILURE, ALERT_FAILURE_REMAIN, ALERT_DEGRADED_FAILURE;
 * - degraded (sendDegraded): ALERT_DEGRADED, ALERT_DEGRADED_REMAIN, ALERT_FAILURE_DEGRADED;
 * - recovery (sendRecovery): ALERT_RECOVERY, ALERT_DEGRADED_RECOVERY;
 * - certificate (sslExpiry): ALERT_SSL.
 */
export function channelWants(channelFlags: ChannelFlags, alertType: AlertType): boolean {
  switch (alertType) {
    case 'ALERT_FAILURE':
    case 'ALERT_FAILURE_REMAIN':
    case 'ALERT_DEGRADED_FAILURE':
      return channelFlags.sendFailure;
    case 'ALERT_DEGRADED':
    case 'ALERT_DEGRADED_REMAIN':
    case 'ALERT_FAILURE_DEGRADED':
      return channelFlags.sendDegraded;
    case 'ALERT_RECOVERY':
    case 'ALERT_DEGRADED_RECOVERY':
      return channelFlags.sendRecovery;
    case 'ALERT_SSL':
      return channelFlags.sslExpiry === true;
  }
}
