import type { CheckType } from './catalog.js';
import { GRPC_TIMEOUT_SECONDS } from './grpc-catalog.js';

/** Longest a browser or multi-step script may run (ms). */
export const SCRIPT_TIMEOUT_MS = 120_000;

/**
 * How long one attempt may take before the executor gives up with TIMEOUT: the check's
 * maxResponseTime plus a margin to tell "slow" (overMaxResponseTime, a failure) from "no answer"
 * (an error), capped at one minute; scripts get SCRIPT_TIMEOUT_MS.
 */
export function attemptTimeoutMs(type: CheckType, data: Record<string, any>): number {
  if (type === 'BROWSER' || type === 'MULTI_STEP' || type === 'PLAYWRIGHT' || type === 'AGENTIC') return SCRIPT_TIMEOUT_MS;
  // A gRPC call has its own deadline (request.timeout, 1–180 s); the margin lets it end as DEADLINE_EXCEEDED.
  if (type === 'GRPC') return (data.request?.timeout ?? GRPC_TIMEOUT_SECONDS.default) * 1000 + 5_000;
  const max = data.maxResponseTime ?? 20_000;
  // ping sends pingCount echo requests one second apart.
  const pings = type === 'ICMP' ? (data.request?.pingCount ?? 10) * 1000 : 0;
  return Math.min(max + 5_000 + pings, 60_000 + pings);
}
