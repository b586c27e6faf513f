import { idleReason, type IdleReason } from '../domain/idle-reason.js';
import type { CheckPlacementRow, CheckStatusRow } from './check-status-row.js';

/**
 * A check status as the API shows it (conventions.md "Shapes not in service-api.md"), plus `idle`:
 * null when the check can run, else why it cannot (idleReason).
 */
export function toCheckStatusView(row: CheckStatusRow, idle: IdleReason | null = null): Record<string, any> {
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
    idle,
  };
}

/** The status of an idle check that has never run: nothing measured yet, `idle` saying why. */
export function toIdleStatusView(check: CheckPlacementRow, idle: IdleReason): Record<string, any> {
  return {
    name: check.name,
    checkId: check.check_id,
    hasFailures: false,
    hasErrors: false,
    isDegraded: false,
    longestRun: null,
    shortestRun: null,
    lastRunLocation: null,
    lastCheckRunId: null,
    sslDaysRemaining: null,
    created_at: check.created_at.toISOString(),
    updated_at: null,
    idle,
  };
}

/** Why a check (as its placement row tells) has nowhere to run, or null. */
export function idleOfPlacement(p: CheckPlacementRow): IdleReason | null {
  return idleReason(
    { checkType: p.check_type, groupId: p.group_id, locations: p.locations, privateLocations: p.private_locations },
    p.group_id != null ? { locations: p.group_locations, privateLocations: p.group_private_locations } : null,
  );
}
