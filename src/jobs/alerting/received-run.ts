import { toResultView } from '../../contract/result-view.js';
import type { AlertOutboxRow } from '../../store/alert-outbox-repository.js';
import type { ResultRow } from '../../store/results-repository.js';

/** A FINAL result as alerting keeps it while it waits for the rest of a parallel run. */
export interface ReceivedRun {
  /** The alert outbox row that brought it: removed when the run is judged. */
  outboxId: string;
  accountId: string;
  checkId: string;
  result: Record<string, any>; // the result's API view, as alert messages and webhooks show it
  /** The stored `details` of the run (certificate, assertions), when the result is still stored. */
  details: Record<string, any> | null; // an executor's free-form detail, read by resultAlertFacts
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  startedAt: Date;
}

/** The run an outbox row announced, from its stored result. */
export function receivedRunOf(row: AlertOutboxRow, stored: ResultRow): ReceivedRun {
  return {
    outboxId: row.id,
    accountId: row.account_id,
    checkId: row.check_id,
    result: toResultView(stored),
    details: (stored.detail?.details as Record<string, any> | null | undefined) ?? null,
    hasFailures: stored.has_failures,
    hasErrors: stored.has_errors,
    isDegraded: stored.is_degraded,
    startedAt: new Date(stored.started_at),
  };
}
