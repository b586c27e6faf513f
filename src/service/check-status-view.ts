import type { CheckStatusRow } from '../store/check-statuses-repository.js';

/** A check status as the API shows it (conventions.md "Shapes not in service-api.md"). */
export function toCheckStatusView(row: CheckStatusRow): Record<string, any> {
  return {
    name: row.name,
    checkId: row.check_id,
    hasFailures: row.has_failures,
    hasErrors: row.has_errors,
    isDegraded: row.is_degraded,
    longestRun: row.longest_run,
    shortestRun: row.shortest_run,
    lastRunLocation: row.last_run_location,
    lastCheckRunId: row.last_check_run_id,
    sslDaysRemaining: row.ssl_days_remaining,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}
