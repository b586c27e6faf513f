import type { ProbeResult } from './check-result.js';

/** The per-run numbers results are filtered and aggregated on, pulled out of a probe's detail. */
export interface ResultMeasurements {
  /** HTTP status of the response (API and URL checks); null when there was none. */
  statusCode: number | null;
  /** HTTP timing phases in ms; null when the run made no HTTP request. */
  dns: number | null;
  tcp: number | null;
  tls: number | null;
  firstByte: number | null;
  download: number | null;
  /** Time to first byte: conventions.md calls firstByte "wait"; a separate `wait` phase wins. */
  wait: number | null;
  /** Whole days until the target's TLS certificate expires; null when the run did not see one. */
  sslDaysRemaining: number | null;
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Reads the measurements of one run. HTTP executors put the response in
 * `apiCheckResult.response` (`status`, `timingPhases`) as the spec's check result has it; other
 * executors may put `statusCode`, `timingPhases` and `sslDaysRemaining` (or `ssl.daysRemaining`, as the HTTP executor does) in `details`.
 */
export function resultMeasurements(probe: Pick<ProbeResult, 'apiCheckResult' | 'details'>): ResultMeasurements {
  const api = record(probe.apiCheckResult);
  const details = record(probe.details);
  const response = record(api?.response);
  const phases = record(response?.timingPhases) ?? record(details?.timingPhases);
  const phase = (key: string) => finite(phases?.[key]);
  const statusCode = finite(response?.status) ?? finite(details?.statusCode);
  const ssl = finite(details?.sslDaysRemaining) ?? finite(record(details?.ssl)?.daysRemaining) ?? finite(api?.sslDaysRemaining);
  return {
    statusCode: statusCode === null ? null : Math.trunc(statusCode),
    dns: phase('dns'),
    tcp: phase('tcp'),
    tls: phase('tls'),
    firstByte: phase('firstByte'),
    download: phase('download'),
    wait: phase('wait') ?? phase('firstByte'),
    sslDaysRemaining: ssl === null ? null : Math.floor(ssl),
  };
}
