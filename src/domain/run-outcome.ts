/** How one FINAL run ended, as metrics count it (a bounded label set). */
export type RunOutcome = 'passed' | 'degraded' | 'failed' | 'error';

/** The flags of a run result this rule reads. */
export interface RunFlags {
  hasErrors: boolean;
  hasFailures: boolean;
  isDegraded: boolean;
}

/**
 * The outcome of a run: `error` when it could not complete (network error, timeout, not supported),
 * else `failed` when an assertion (or shouldFail) failed it, else `degraded`, else `passed`. An
 * errored run also has failures: the error is the more specific fact, so it wins.
 */
export function runOutcome(run: RunFlags): RunOutcome {
  if (run.hasErrors) return 'error';
  if (run.hasFailures) return 'failed';
  if (run.isDegraded) return 'degraded';
  return 'passed';
}
