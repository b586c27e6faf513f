import { RESPONSE_TIME_LIMITS } from '../../domain/catalog.js';
import type { AssertionOutcome, ProbeError, ProbeResult } from '../../domain/check-result.js';
import { scrubDeep } from '../../domain/scrub-secrets.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { runScrubber } from '../run-scrubber.js';
import { toProbeError } from './network-error.js';

/** What a probe measured, before the check's limits and `shouldFail` are applied. */
export interface ProbeFacts {
  startedAt: Date;
  responseTime: number;
  errors: ProbeError[];
  assertions: AssertionOutcome[];
  networkError: boolean;
  details: Record<string, unknown> | null;
  /**
   * The time compared with degradedResponseTime / maxResponseTime; defaults to responseTime.
   * Null when there is nothing to compare (e.g. no ping was answered).
   */
  limitedTime?: number | null;
}

/**
 * Builds the ProbeResult of one attempt from what the probe measured:
 * - slower than `maxResponseTime` is `overMaxResponseTime` and fails; slower than
 *   `degradedResponseTime` (and not over max) is `isDegraded`, which still passes;
 * - an error, a failed assertion or being over max fails the run;
 * - `shouldFail` inverts only that pass/fail verdict (a refused connection then passes), while
 *   `hasErrors`, the errors and the assertions still say what really happened.
 * Limits come from the check, falling back to the type's defaults of conventions.md. Values of
 * the run's secret variables are scrubbed from the errors, assertions and details kept.
 */
export function finishProbe(check: RunnableCheck, ctx: Pick<RunContext, 'variables'>, facts: ProbeFacts, stoppedAt = new Date()): ProbeResult {
  const defaults = RESPONSE_TIME_LIMITS[check.checkType];
  const degraded = numberOr(check.data.degradedResponseTime, defaults?.degraded);
  const max = numberOr(check.data.maxResponseTime, defaults?.max);
  const limited = facts.limitedTime === undefined ? facts.responseTime : facts.limitedTime;
  const overMaxResponseTime = limited !== null && max !== undefined && limited > max;
  const isDegraded = limited !== null && !overMaxResponseTime && degraded !== undefined && limited > degraded;
  const failed = facts.errors.length > 0 || facts.assertions.some((a) => !a.passed) || overMaxResponseTime;
  const scrub = runScrubber(ctx.variables);
  return {
    startedAt: facts.startedAt,
    stoppedAt,
    responseTime: facts.responseTime,
    hasFailures: check.data.shouldFail === true ? !failed : failed,
    hasErrors: facts.errors.length > 0,
    isDegraded,
    overMaxResponseTime,
    errors: scrubDeep(facts.errors, scrub),
    assertions: scrubDeep(facts.assertions, scrub),
    networkError: facts.networkError,
    details: scrubDeep(facts.details, scrub),
  };
}

function numberOr(value: unknown, fallback: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/**
 * An executor from a probe that may throw on an unexpected failure: the throw becomes an error
 * result with `code` (executors never throw).
 */
export function guardedExecutor(
  probe: (check: RunnableCheck, ctx: RunContext, startedAt: Date) => Promise<ProbeResult>,
  code: string,
  context: string,
): Executor {
  return async (check, ctx) => {
    const startedAt = new Date();
    try {
      return await probe(check, ctx, startedAt);
    } catch (e) {
      return finishProbe(check, ctx, {
        startedAt, responseTime: 0, assertions: [], networkError: false, details: null, limitedTime: null,
        errors: [toProbeError(e, code, context)],
      });
    }
  };
}
