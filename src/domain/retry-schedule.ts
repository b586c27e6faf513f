import { withRetryDefaults } from './check-defaults.js';

export type RetryType = 'FIXED' | 'LINEAR' | 'EXPONENTIAL' | 'SINGLE_RETRY';

/** A check's `retryStrategy`; unset fields take the defaults of withRetryDefaults. */
export interface RetryStrategy {
  type: RetryType;
  baseBackoffSeconds?: number;
  maxRetries?: number;
  maxDurationSeconds?: number;
  sameRegion?: boolean;
  onlyOn?: readonly 'NETWORK_ERROR'[] | null;
}

/**
 * Seconds to wait before retry number `attemptNumber` (1 = the first retry, made after the
 * first attempt failed):
 * - FIXED: base, base, base, ...
 * - LINEAR: base × n (base, 2·base, 3·base, ...)
 * - EXPONENTIAL: base × 2^(n−1) (base, 2·base, 4·base, ...)
 * - SINGLE_RETRY: base (there is only one retry)
 */
export function retryDelaySeconds(strategy: RetryStrategy, attemptNumber: number): number {
  const base = resolved(strategy).baseBackoffSeconds;
  const n = Math.max(1, Math.floor(attemptNumber));
  switch (strategy.type) {
    case 'FIXED':
    case 'SINGLE_RETRY':
      return base;
    case 'LINEAR':
      return base * n;
    case 'EXPONENTIAL':
      return base * 2 ** (n - 1);
  }
}

/** How the last attempt of a run went, as far as retrying is concerned. */
export interface RetryInput {
  /** Attempts made so far in this run, the one just finished included (1 after the first). */
  attempt: number;
  /** Ms from the start of the run's first attempt to now (run time and earlier waits included). */
  elapsedMs: number;
  lastResult: { networkError: boolean; hasFailures: boolean };
  /** Where the last attempt ran. */
  lastLocation: string;
  /** The locations the check runs in, in their configured order. */
  locations: readonly string[];
}

/** Why a run gets no further attempt: its last attempt is then the FINAL result. */
export type NoRetryReason = 'NO_STRATEGY' | 'PASSED' | 'NOT_NETWORK_ERROR' | 'MAX_RETRIES' | 'MAX_DURATION';

export type RetryDecision =
  | { retry: false; reason: NoRetryReason }
  | { retry: true; delayMs: number; location: string };

/**
 * Whether to retry a run after an attempt, checked in this order:
 * 1. a null strategy never retries (NO_STRATEGY);
 * 2. an attempt without failures is final (PASSED);
 * 3. with `onlyOn: ["NETWORK_ERROR"]` only network errors are retried (NOT_NETWORK_ERROR);
 * 4. at most `maxRetries` retries, SINGLE_RETRY exactly one (MAX_RETRIES);
 * 5. `maxDurationSeconds` bounds the whole run, run time included: a retry that would start after
 *    run start + maxDuration is not made (MAX_DURATION); one starting exactly then is.
 * The retry waits retryDelaySeconds(strategy, attempt) and runs in the same location when
 * `sameRegion` (the default), else in the next of `locations` after the last one (round-robin),
 * skipping the last location unless it is the only one there is.
 */
export function nextRetry(strategy: RetryStrategy | null | undefined, input: RetryInput): RetryDecision {
  if (!strategy) return { retry: false, reason: 'NO_STRATEGY' };
  if (!input.lastResult.hasFailures) return { retry: false, reason: 'PASSED' };
  const s = resolved(strategy);
  if (s.onlyOn?.includes('NETWORK_ERROR') && !input.lastResult.networkError) return { retry: false, reason: 'NOT_NETWORK_ERROR' };
  const retriesDone = input.attempt - 1;
  if (retriesDone >= s.maxRetries) return { retry: false, reason: 'MAX_RETRIES' };
  const delayMs = retryDelaySeconds(s, input.attempt) * 1000;
  if (input.elapsedMs + delayMs > s.maxDurationSeconds * 1000) return { retry: false, reason: 'MAX_DURATION' };
  const location = s.sameRegion ? input.lastLocation : nextLocation(input.lastLocation, input.locations);
  return { retry: true, delayMs, location };
}

function nextLocation(last: string, locations: readonly string[]): string {
  const start = locations.indexOf(last);
  for (let i = 1; i <= locations.length; i++) {
    const candidate = locations[(start + i) % locations.length];
    if (candidate !== undefined && candidate !== last) return candidate;
  }
  return last;
}

function resolved(strategy: RetryStrategy): Required<RetryStrategy> {
  return withRetryDefaults(strategy) as Required<RetryStrategy>;
}
