import type { FinalRun, ParallelOutcome } from './alert-state.js';

/** The part of a FINAL result a parallel run is judged on. */
export interface LocationRun {
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  startedAt: Date;
}

/**
 * The FINAL results of one parallel run (one per location) as the single run alerting counts:
 * it failed if any location failed and is degraded if any location was (parallelRunFailureThreshold,
 * applied by runStatus, may still call it passing), it started when its first location started,
 * and `parallel` counts the failed locations among those that reported.
 */
export function combineParallelRun(runs: readonly LocationRun[]): { run: FinalRun; parallel: ParallelOutcome } {
  const failed = runs.filter((r) => r.hasFailures || r.hasErrors).length;
  const startedAt = new Date(Math.min(...runs.map((r) => r.startedAt.getTime())));
  return {
    run: { hasFailures: failed > 0, isDegraded: runs.some((r) => r.isDegraded), startedAt },
    parallel: { failedLocations: failed, totalLocations: runs.length },
  };
}
