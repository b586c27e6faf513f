/** What the check-status routes, the badges and the status-change events call a check's state. */
export type CheckHealth = 'PASSING' | 'DEGRADED' | 'FAILING';

/** Failing beats degraded; a degraded run still passes. */
export function checkHealth(flags: { hasFailures: boolean; hasErrors: boolean; isDegraded: boolean }): CheckHealth {
  if (flags.hasFailures || flags.hasErrors) return 'FAILING';
  return flags.isDegraded ? 'DEGRADED' : 'PASSING';
}

/** The latest response time seen in one location and when that run started (epoch ms). */
export interface LocationRunTime {
  responseTime: number;
  startedAt: number;
}

/** What check_statuses keeps per check. */
export interface CheckStatusState {
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  longestRun: number | null;
  shortestRun: number | null;
  lastRunLocation: string | null;
  lastCheckRunId: string | null;
  sslDaysRemaining: number | null;
  locationRunTimes: Record<string, LocationRunTime>;
  /** startedAt of the result the flags come from. */
  lastResultAt: Date | null;
}

/** A FINAL result as the status sees it. */
export interface FinalRun {
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  responseTime: number;
  location: string;
  checkRunId: number;
  startedAt: Date;
  sslDaysRemaining: number | null;
}

/**
 * The status after one more FINAL result:
 * - the flags, last location and run id come from the newest result by startedAt (a late result
 *   of an earlier run does not overwrite them);
 * - longestRun / shortestRun span the latest response time of each location the check runs in
 *   (`locations`, its public and private locations; times of locations it left are dropped), so
 *   a parallel run over several locations shows its slowest and fastest location;
 * - sslDaysRemaining keeps its last known value when a run saw no certificate.
 */
export function nextCheckStatus(previous: CheckStatusState | null, run: FinalRun, locations: readonly string[]): CheckStatusState {
  const at = run.startedAt.getTime();
  const keep = new Set([...locations, run.location]);
  const times: Record<string, LocationRunTime> = {};
  for (const [location, time] of Object.entries(previous?.locationRunTimes ?? {})) {
    if (keep.has(location)) times[location] = time;
  }
  const known = times[run.location];
  if (!known || known.startedAt <= at) times[run.location] = { responseTime: run.responseTime, startedAt: at };
  const values = Object.values(times).map((t) => Math.round(t.responseTime));
  const span = { longestRun: Math.max(...values), shortestRun: Math.min(...values), locationRunTimes: times };

  const newest = !previous?.lastResultAt || previous.lastResultAt.getTime() <= at;
  if (previous && !newest) return { ...previous, ...span };
  return {
    hasFailures: run.hasFailures,
    hasErrors: run.hasErrors,
    isDegraded: run.isDegraded,
    ...span,
    lastRunLocation: run.location,
    lastCheckRunId: String(run.checkRunId),
    sslDaysRemaining: run.sslDaysRemaining ?? previous?.sslDaysRemaining ?? null,
    lastResultAt: run.startedAt,
  };
}
