/** What a badge says about a check or group. */
export type BadgeStatus = 'passing' | 'degraded' | 'failing' | 'unknown';

/** The latest known state of one check (a row of check_statuses), as badges read it. */
export interface CheckState {
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  /** Response time (ms) of the slowest location in the latest run; null until the check has run. */
  longestRun: number | null;
}

/** A check's badge status: failing beats degraded; no known state (never ran) is unknown. */
export function checkBadgeStatus(state: CheckState | null): BadgeStatus {
  if (!state) return 'unknown';
  if (state.hasFailures || state.hasErrors) return 'failing';
  if (state.isDegraded) return 'degraded';
  return 'passing';
}

/**
 * Severity order for groups. A check that has not run yet ranks above passing: a group is only
 * shown passing when every one of its checks is known to pass.
 */
const SEVERITY: Record<BadgeStatus, number> = { passing: 0, unknown: 1, degraded: 2, failing: 3 };

/** A group's badge status: the worst status of its checks; a group without checks is unknown. */
export function groupBadgeStatus(states: readonly (CheckState | null)[]): BadgeStatus {
  if (states.length === 0) return 'unknown';
  return states.map(checkBadgeStatus).reduce((worst, s) => (SEVERITY[s] > SEVERITY[worst] ? s : worst));
}

/**
 * The response time a badge shows: the slowest known latest run among `states` (one state for a
 * check, each member's for a group); null when none has run.
 */
export function badgeResponseTime(states: readonly (CheckState | null)[]): number | null {
  const times = states.flatMap((s) => (s?.longestRun != null ? [s.longestRun] : []));
  return times.length ? Math.max(...times) : null;
}
