import { testSessionConsoleUrl } from '../domain/test-session-console-url.js';
import type { TestSessionErrorGroupRow, TestSessionRow } from '../store/test-sessions-repository.js';

const RUNNING_ENTRY = new Set(['PENDING', 'RUNNING']);

/** Check ids of the session's entries in `statuses` (the CLI's running/passed/failed/cancelled columns). */
const idsIn = (row: TestSessionRow, ...statuses: string[]) => row.results.filter((e) => statuses.includes(e.status)).map((e) => e.checkId);

/**
 * A session's entry as the CLI's `test-sessions get` reads a result: its latest FINAL result's id
 * (null while none), where it ran, whether it failed, had errors or was degraded (as its FINAL
 * results say; false while it runs).
 */
function toSessionResult(row: TestSessionRow, e: TestSessionRow['results'][number]) {
  const resultId = e.resultIds.at(-1) ?? null;
  return {
    ...e,
    testSessionResultId: resultId,
    testSessionResultLink: resultId ? `/v1/test-sessions/${row.id}/results/${resultId}` : null,
    runLocation: row.run_location,
    resultType: resultId ? 'FINAL' : null,
    hasFailures: e.status === 'FAILED',
    hasErrors: e.status === 'FAILED' || e.status === 'PASSED' ? e.hasErrors === true : false,
    isDegraded: e.status === 'FAILED' || e.status === 'PASSED' ? e.isDegraded === true : false,
    aborted: e.status === 'CANCELLED',
  };
}

/**
 * A test session as the API shows it, with the fields the `checkly` CLI's `test-sessions list|get`
 * read besides (`testSessionId`, `timeElapsed` in ms, the check ids per outcome, `provider`: API).
 * `testSessionLink` is the session's console page under `publicUrl` (LOOKOUT_PUBLIC_URL).
 */
export function toTestSessionView(row: TestSessionRow, publicUrl = ''): Record<string, any> {
  const started = row.started_at ?? row.created_at;
  return {
    testSessionId: row.id,
    testSessionLink: testSessionConsoleUrl(publicUrl, row.account_id, row.id),
    accountId: row.account_id,
    projectId: null,
    provider: 'API',
    region: row.run_location,
    timeElapsed: Math.max(0, (row.stopped_at ?? new Date()).getTime() - started.getTime()),
    running: row.results.filter((e) => RUNNING_ENTRY.has(e.status)).map((e) => e.checkId),
    passed: idsIn(row, 'PASSED'),
    failed: idsIn(row, 'FAILED'),
    cancelled: idsIn(row, 'CANCELLED'),
    metadata: row.environment ? { environment: row.environment } : {},
    id: row.id,
    name: row.name,
    status: row.status,
    runLocation: row.run_location,
    environment: row.environment,
    checkIds: row.check_ids,
    results: row.results.map((e) => toSessionResult(row, e)),
    errorGroupIds: row.error_group_ids,
    testSessionErrorGroupIds: row.error_group_ids,
    created_at: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    stoppedAt: row.stopped_at?.toISOString() ?? null,
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}

/** A test session error group as the API shows it (spec "Error group", test session column). */
export function toTestSessionErrorGroupView(row: TestSessionErrorGroupRow): Record<string, any> {
  return {
    id: row.id,
    projectId: row.project_id,
    environments: row.environments,
    errorHash: row.error_hash,
    rawErrorMessage: row.raw_error_message,
    cleanedErrorMessage: row.cleaned_error_message,
    firstSeen: row.first_seen.toISOString(),
    lastSeen: row.last_seen.toISOString(),
    archivedUntilNextEvent: row.archived_until_next_event,
    pwtMetadata: null,
    rootCauseAnalyses: [],
  };
}
