import type { CheckType } from './catalog.js';
import { GRPC_TIMEOUT_SECONDS } from './grpc-catalog.js';

/** Longest a browser or multi-step script may run (ms). */
export const SCRIPT_TIMEOUT_MS = 120_000;

/** Longest a Playwright check suite may run (ms): a whole test suite, not one script. */
export const SUITE_TIMEOUT_MS = 600_000;

/**
 * How long one attempt may take before the executor gives up with TIMEOUT: the check's
 * maxResponseTime plus a margin to tell "slow" (overMaxResponseTime, a failure) from "no answer"
 * (an error), capped at one minute; scripts get SCRIPT_TIMEOUT_MS, Playwright check suites SUITE_TIMEOUT_MS.
 */
export function attemptTimeoutMs(type: CheckType, data: Record<string, any>): number {
  if (type === 'PLAYWRIGHT') return SUITE_TIMEOUT_MS;
  if (type === 'BROWSER' || type === 'MULTI_STEP' || type === 'AGENTIC') return SCRIPT_TIMEOUT_MS;
  // A trace runs up to its own `timeout` (seconds), whatever the latency limits.
  if (type === 'TRACEROUTE') return (data.request?.timeout ?? 10) * 1000 + 5_000;
  // A gRPC call has its own deadline (request.timeout, 1–180 s); the margin lets it end as DEADLINE_EXCEEDED.
  if (type === 'GRPC') return (data.request?.timeout ?? GRPC_TIMEOUT_SECONDS.default) * 1000 + 5_000;
  const max = data.maxResponseTime ?? 20_000;
  // ping sends pingCount echo requests one second apart.
  const pings = type === 'ICMP' ? (data.request?.pingCount ?? 10) * 1000 : 0;
  return Math.min(max + 5_000 + pings, 60_000 + pings);
}
