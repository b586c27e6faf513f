import type { LocationRunTime } from '../domain/next-check-status.js';

/** A stored check status, with the check's current name. */
export interface CheckStatusRow {
  check_id: string;
  account_id: string;
  name: string;
  has_failures: boolean;
  has_errors: boolean;
  is_degraded: boolean;
  longest_run: number | null;
  shortest_run: number | null;
  last_run_location: string | null;
  last_check_run_id: string | null;
  ssl_days_remaining: number | null;
  location_run_times: Record<string, LocationRunTime>;
  last_result_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

/** Where a check and its group say to run: what the idle rule (idleReason) reads. */
export interface CheckPlacementRow {
  check_id: string;
  name: string;
  check_type: string;
  group_id: number | null;
  locations: string[] | null;
  private_locations: string[] | null;
  group_locations: string[] | null;
  group_private_locations: string[] | null;
  created_at: Date;
}
