import type { ProbeResult } from '../domain/check-result.js';

/** A probe result for a run that could not happen at all (no agent, unsupported, missed heartbeat). */
export function errorProbe(code: string, message: string, at: Date = new Date(), options: { failure?: boolean; networkError?: boolean } = {}): ProbeResult {
  return {
    startedAt: at,
    stoppedAt: at,
    responseTime: 0,
    hasFailures: true,
    hasErrors: options.failure !== true,
    isDegraded: false,
    overMaxResponseTime: false,
    errors: [{ code, message }],
    assertions: [],
    networkError: options.networkError ?? false,
    details: null,
  };
}

/** A passing heartbeat: a ping arrived in time. */
export function heartbeatPingProbe(at: Date, details: Record<string, unknown>): ProbeResult {
  return {
    startedAt: at,
    stoppedAt: at,
    responseTime: 0,
    hasFailures: false,
    hasErrors: false,
    isDegraded: false,
    overMaxResponseTime: false,
    errors: [],
    assertions: [],
    networkError: false,
    details,
  };
}
