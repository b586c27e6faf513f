/** A stored run result. `detail` is only read where a route needs the wide per-type payloads. */
export interface ResultRow {
  id: string;
  account_id: string;
  check_id: string;
  check_run_id: number;
  sequence_id: string;
  result_type: 'FINAL' | 'ATTEMPT';
  attempts: number;
  name: string;
  check_type: string;
  run_location: string;
  has_failures: boolean;
  has_errors: boolean;
  is_degraded: boolean;
  is_cancelled: boolean;
  over_max_response_time: boolean;
  started_at: Date;
  stopped_at: Date;
  created_at: Date;
  response_time: number;
  status_code: number | null;
  error_group_ids: string[];
  test_session_id: string | null;
  detail?: Record<string, any>;
  total?: number;
}
