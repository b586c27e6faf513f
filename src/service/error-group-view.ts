import type { ErrorGroupRow } from '../store/error-groups-repository.js';

/**
 * A check error group as the API shows it. `archivedUntilNextEvent` is true while the group is
 * archived either way (so clients listing active groups skip archived-for-ever ones too);
 * `archiveForEver` tells the permanent archive apart. No root cause analyses are made here.
 */
export function toErrorGroupView(row: ErrorGroupRow): Record<string, any> {
  return {
    id: row.id,
    checkId: row.check_id,
    errorHash: row.error_hash,
    rawErrorMessage: row.raw_error_message,
    cleanedErrorMessage: row.cleaned_error_message,
    firstSeen: row.first_seen.toISOString(),
    lastSeen: row.last_seen.toISOString(),
    archivedUntilNextEvent: row.archived_until_next_event || row.archived_forever,
    archiveForEver: row.archived_forever,
    rootCauseAnalyses: [],
  };
}
