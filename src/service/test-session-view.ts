import type { TestSessionErrorGroupRow, TestSessionRow } from '../store/test-sessions-repository.js';

/** A test session as the API shows it. */
export function toTestSessionView(row: TestSessionRow): Record<string, any> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    runLocation: row.run_location,
    environment: row.environment,
    checkIds: row.check_ids,
    results: row.results,
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
