import type { AssertionOutcome, ProbeError } from './check-result.js';
import { runErrorMessages } from './run-error-messages.js';

/** What an alert tells about the run behind it. */
export interface ResultAlertFacts {
  checkResultId: string | null;
  errorMessage: string | null;
  responseTime: number | null;
  runLocation: string | null;
  startedAt: string | null;
  statusCode: number | null;
}

const record = (v: unknown): Record<string, any> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, any>) : null);
const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Longest error message an alert carries: channels (SMS, Opsgenie) have small limits and stacks are long. */
const MAX_ERROR = 2000;

/**
 * The facts of a result (its REST view, plus the stored `details` of the run when known): the
 * run's error messages joined, or the failed assertions of a failed run without errors.
 */
export function resultAlertFacts(result: Record<string, any>, details?: Record<string, any> | null): ResultAlertFacts {
  const api = record(result.apiCheckResult);
  const errors: ProbeError[] = Array.isArray(result.errors) ? result.errors.filter((e: unknown) => record(e)) : [];
  const assertions: AssertionOutcome[] = Array.isArray(details?.assertions) ? details.assertions
    : Array.isArray(api?.assertions) ? api.assertions.filter((a: unknown) => record(a) && typeof (a as AssertionOutcome).passed === 'boolean')
      : [];
  const messages = runErrorMessages({ errors, assertions, hasFailures: result.hasFailures === true });
  if (messages.length === 0 && typeof api?.requestError === 'string' && api.requestError) messages.push(api.requestError);
  const error = messages.join('; ');
  return {
    checkResultId: typeof result.id === 'string' ? result.id : null,
    errorMessage: error ? error.slice(0, MAX_ERROR) : null,
    responseTime: finite(result.responseTime),
    runLocation: typeof result.runLocation === 'string' ? result.runLocation : null,
    startedAt: typeof result.startedAt === 'string' ? result.startedAt : null,
    statusCode: finite(record(api?.response)?.status) ?? finite(details?.statusCode),
  };
}

/**
 * Days until the certificate a run saw expires: `details.ssl.daysRemaining` (HTTPS targets, see
 * run-http-check) or `details.sslDaysRemaining`; null when the run saw none.
 */
export function sslDaysOf(details: Record<string, any> | null | undefined): { daysRemaining: number; domain: string | null } | null {
  const ssl = record(details?.ssl);
  const days = finite(ssl?.daysRemaining) ?? finite(details?.sslDaysRemaining);
  if (days === null) return null;
  return { daysRemaining: Math.floor(days), domain: typeof ssl?.subject === 'string' ? commonName(ssl.subject) : null };
}

/** `CN=example.com, O=Acme` → example.com; other subjects as they are. */
function commonName(subject: string): string | null {
  const cn = /(?:^|[,/]\s*)CN=([^,/]+)/.exec(subject);
  return cn ? cn[1]!.trim() : subject || null;
}
