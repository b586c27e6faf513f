/** Shapes shared by the executors, the result store and the API for one run of a check. */

/** A failed probe is data: a stable code and a human message. */
export interface ProbeError {
  /** Stable code, e.g. ECONNREFUSED, ETIMEDOUT, DNS_NXDOMAIN, ASSERTION_FAILED, NOT_SUPPORTED, NO_BROWSER. */
  code: string;
  message: string;
}

/** The outcome of one assertion of a check against what a run observed. */
export interface AssertionOutcome {
  source: string;
  property: string | null;
  comparison: string;
  target: string | number | null;
  regex: string | null;
  /** The value the assertion looked at, as text (null when there was none). */
  actual: string | null;
  passed: boolean;
  /** Why it failed (or could not be evaluated), when it did. */
  error?: string;
}

/** HTTP timing phases in ms, as conventions.md names them. */
export interface TimingPhases {
  dns: number;
  tcp: number;
  tls: number;
  firstByte: number;
  download: number;
  total: number;
}

/**
 * What an executor returns for one attempt. Executors never throw: network failures, timeouts
 * and unsupported features are `errors`; failed assertions are `assertions` with passed false.
 */
export interface ProbeResult {
  startedAt: Date;
  stoppedAt: Date;
  /** Wall time of the probe in ms (for HTTP: timing phases total). */
  responseTime: number;
  /** The check failed: an assertion failed, or the run errored, or (shouldFail) the inverse. */
  hasFailures: boolean;
  /** The run could not complete (network error, timeout, script error, not supported). */
  hasErrors: boolean;
  isDegraded: boolean;
  overMaxResponseTime: boolean;
  errors: ProbeError[];
  assertions: AssertionOutcome[];
  /** Network-level failure (connection refused, DNS failure, timeout) — `retryStrategy.onlyOn: NETWORK_ERROR`. */
  networkError: boolean;
  /** Type-specific detail, stored as the spec's apiCheckResult / browserCheckResult / multiStepCheckResult etc. */
  apiCheckResult?: Record<string, unknown> | null;
  browserCheckResult?: Record<string, unknown> | null;
  multiStepCheckResult?: Record<string, unknown> | null;
  /** AGENTIC: the agent's report ({summary, prompt, assertions, suggestions, steps, errors}, as CLI 8 reads it). */
  agenticCheckResult?: Record<string, unknown> | null;
  /** TCP, DNS, ICMP and heartbeat details (not in the spec's result; kept alongside). */
  details?: Record<string, unknown> | null;
}

/** FINAL is the last attempt of a run (the one alerts look at); ATTEMPT the retried ones before it. */
export type ResultType = 'FINAL' | 'ATTEMPT';
