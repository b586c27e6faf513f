-- Data lifecycle: roll-ups of results that analytics reads past the raw retention, and the indexes
-- retention walks each growing table by.

-- One row per check, location and hour (daily: day), computed from the raw results of the checks'
-- monitoring history (test session runs are not part of it). Counts and response times are over
-- FINAL results, attempt_count over ATTEMPT results, as analytics computes them from raw rows.
-- response_time_histogram counts response times per fixed bucket (RESPONSE_TIME_BOUNDS of
-- src/domain/response-time-histogram.ts, one element per bound) to estimate percentiles.
CREATE TABLE result_rollups_hourly (
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  run_location text NOT NULL,
  bucket_start timestamptz NOT NULL,
  final_count integer NOT NULL,
  failure_count integer NOT NULL,
  degraded_count integer NOT NULL,
  attempt_count integer NOT NULL,
  response_time_sum double precision NOT NULL,
  response_time_sum_sq double precision NOT NULL,
  response_time_min double precision,
  response_time_max double precision,
  response_time_histogram integer[] NOT NULL,
  -- Recomputed from raw rows on conflict: rolling an hour up twice never counts it twice.
  PRIMARY KEY (check_id, run_location, bucket_start)
);
CREATE INDEX result_rollups_hourly_bucket ON result_rollups_hourly (bucket_start);

CREATE TABLE result_rollups_daily (
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  run_location text NOT NULL,
  bucket_start timestamptz NOT NULL,
  final_count integer NOT NULL,
  failure_count integer NOT NULL,
  degraded_count integer NOT NULL,
  attempt_count integer NOT NULL,
  response_time_sum double precision NOT NULL,
  response_time_sum_sq double precision NOT NULL,
  response_time_min double precision,
  response_time_max double precision,
  response_time_histogram integer[] NOT NULL,
  PRIMARY KEY (check_id, run_location, bucket_start)
);
CREATE INDEX result_rollups_daily_bucket ON result_rollups_daily (bucket_start);

-- How far each roll-up got: every closed hour (day) before rolled_until is in its table. Raw
-- results are never pruned past the hourly watermark, hourly rows never past the daily one.
CREATE TABLE rollup_watermarks (
  name text PRIMARY KEY CHECK (name IN ('hourly', 'daily')),
  rolled_until timestamptz NOT NULL
);

-- Retention walks these oldest first.
CREATE INDEX heartbeat_pings_received ON heartbeat_pings (received_at);
CREATE INDEX check_alerts_created ON check_alerts (created_at);
CREATE INDEX test_sessions_created ON test_sessions (created_at);
CREATE INDEX error_groups_last_seen ON error_groups (last_seen);
CREATE INDEX test_session_error_groups_last_seen ON test_session_error_groups (last_seen);
CREATE INDEX subscriber_notifications_created ON subscriber_notifications (created_at);
CREATE INDEX maintenance_reminders_starts ON maintenance_reminders (starts_at);
CREATE INDEX deployments_project_created ON deployments (account_id, project_logical_id, created_at DESC);
-- The runs of a session go with it.
CREATE INDEX test_session_run_results_by_session ON test_session_run_results (test_session_id);
