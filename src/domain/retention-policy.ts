/**
 * How long each growing kind of data is kept. Days of 0 keep that data for ever; `deploymentsKept`
 * of 0 keeps every deployment.
 */
export interface RetentionSettings {
  /** Run results of the checks' monitoring history (LOOKOUT_RESULT_RETENTION_DAYS). */
  resultDays: number;
  /** Hourly roll-ups of results, read by analytics past the raw results (LOOKOUT_HOURLY_ROLLUP_RETENTION_DAYS). */
  hourlyRollupDays: number;
  /** Daily roll-ups of results (LOOKOUT_DAILY_ROLLUP_RETENTION_DAYS). */
  dailyRollupDays: number;
  /** Heartbeat pings (LOOKOUT_PING_RETENTION_DAYS). */
  pingDays: number;
  /** Check alerts and their delivery attempts (LOOKOUT_ALERT_RETENTION_DAYS). */
  alertDays: number;
  /** Finished test sessions with their results (LOOKOUT_TEST_SESSION_RETENTION_DAYS). */
  testSessionDays: number;
  /** Error groups not seen since (LOOKOUT_ERROR_GROUP_RETENTION_DAYS). */
  errorGroupDays: number;
  /** Subscriber notifications with their deliveries, and past maintenance reminders (LOOKOUT_NOTIFICATION_RETENTION_DAYS). */
  notificationDays: number;
  /** Finished deployments kept per project, newest first (LOOKOUT_DEPLOYMENTS_KEPT). */
  deploymentsKept: number;
  /** Audit log entries (LOOKOUT_AUDIT_RETENTION_DAYS). */
  auditDays: number;
}

/** Defaults of every setting (README's settings table lists the same). */
export const DEFAULT_RETENTION: RetentionSettings = {
  resultDays: 30,
  hourlyRollupDays: 90,
  dailyRollupDays: 730,
  pingDays: 30,
  alertDays: 90,
  testSessionDays: 30,
  errorGroupDays: 90,
  notificationDays: 90,
  deploymentsKept: 100,
  auditDays: 365,
};

/** Where each table is cut: rows older than the date go; null keeps them all. */
export interface RetentionCutoffs {
  results: Date | null;
  hourlyRollups: Date | null;
  dailyRollups: Date | null;
  pings: Date | null;
  alerts: Date | null;
  testSessions: Date | null;
  errorGroups: Date | null;
  notifications: Date | null;
  audit: Date | null;
}

/** Where roll-ups stand: every closed hour (day) before the date is in the hourly (daily) table; null when nothing was rolled up yet. */
export interface RollupWatermarks {
  hourly: Date | null;
  daily: Date | null;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** `at` rounded down to a multiple of `unitMs` since the UNIX epoch (whole UTC hours and days). */
export function floorTo(at: Date, unitMs: number): Date {
  return new Date(Math.floor(at.getTime() / unitMs) * unitMs);
}

/** `at` rounded up to a multiple of `unitMs` since the UNIX epoch. */
export function ceilTo(at: Date, unitMs: number): Date {
  return new Date(Math.ceil(at.getTime() / unitMs) * unitMs);
}

const daysBefore = (now: Date, days: number): Date | null => (days > 0 ? new Date(now.getTime() - days * DAY_MS) : null);

/**
 * Raw results are kept a day longer than their retention: windows of the last N days (N the
 * retention, e.g. analytics' last30Days) are still answered from raw results, every metric exact.
 */
export const RAW_RESULT_SLACK_MS = DAY_MS;

/** Where raw results start being pruned at `now` by their retention alone (null: kept for ever). */
export function rawResultsFrom(settings: RetentionSettings, now: Date): Date | null {
  return settings.resultDays > 0 ? new Date(now.getTime() - settings.resultDays * DAY_MS - RAW_RESULT_SLACK_MS) : null;
}

/** The earlier of two cutoffs, where null (keep everything) wins over any date. */
function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null || b === null) return null;
  return a.getTime() <= b.getTime() ? a : b;
}

/**
 * The cutoff of each table at `now`, after the rules that keep data something else still needs:
 * - raw results go only once the hour they started in is rolled up (never before the hourly
 *   watermark; nothing before the first roll-up);
 * - hourly roll-ups go only once their day is in the daily table (and at a day boundary);
 * - error groups live at least as long as the results and test sessions naming them (they keep
 *   error group ids without a foreign key), so results kept for ever keep their error groups too.
 */
export function retentionCutoffs(settings: RetentionSettings, now: Date, watermarks: RollupWatermarks): RetentionCutoffs {
  const rawResults = rawResultsFrom(settings, now);
  const results = rawResults && watermarks.hourly ? earliest(rawResults, watermarks.hourly) : null;
  const rawHourly = daysBefore(now, settings.hourlyRollupDays);
  const hourlyRollups = rawHourly && watermarks.daily ? earliest(floorTo(rawHourly, DAY_MS), watermarks.daily) : null;
  return {
    results,
    hourlyRollups,
    dailyRollups: daysBefore(now, settings.dailyRollupDays),
    pings: daysBefore(now, settings.pingDays),
    alerts: daysBefore(now, settings.alertDays),
    testSessions: daysBefore(now, settings.testSessionDays),
    errorGroups: earliest(earliest(daysBefore(now, settings.errorGroupDays), rawResults), daysBefore(now, settings.testSessionDays)),
    notifications: daysBefore(now, settings.notificationDays),
    audit: daysBefore(now, settings.auditDays),
  };
}

/**
 * Hours are rolled up once closed and this long past: a run stored a little after its hour ends
 * (it started before the hour ended) is still counted.
 */
export const ROLLUP_GRACE_MS = 15 * 60_000;

/** The end of the closed hours a roll-up at `now` may aggregate: every hour that ended at least ROLLUP_GRACE_MS ago. */
export function rollupHorizon(now: Date): Date {
  return floorTo(new Date(now.getTime() - ROLLUP_GRACE_MS), HOUR_MS);
}
