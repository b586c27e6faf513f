-- Run results, their error groups, and what check_statuses needs to stay current under parallel runs.

-- checkRunId: a number per stored result, increasing in the order results are stored.
CREATE SEQUENCE check_run_ids;

CREATE TABLE check_results (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  check_run_id bigint NOT NULL DEFAULT nextval('check_run_ids'),
  sequence_id uuid NOT NULL,
  result_type text NOT NULL CHECK (result_type IN ('FINAL', 'ATTEMPT')),
  attempts integer NOT NULL,
  -- Name and type as they were when the check ran.
  name text NOT NULL,
  check_type text NOT NULL,
  run_location text NOT NULL,
  has_failures boolean NOT NULL,
  has_errors boolean NOT NULL,
  is_degraded boolean NOT NULL,
  is_cancelled boolean NOT NULL DEFAULT false,
  over_max_response_time boolean NOT NULL,
  started_at timestamptz NOT NULL,
  stopped_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Exactly what the executor measured (double precision round-trips a JS number).
  response_time double precision NOT NULL,
  -- HTTP only (API and URL checks): null for every other type.
  status_code integer,
  dns real,
  tcp real,
  tls real,
  first_byte real,
  download real,
  wait real,
  error_group_ids uuid[] NOT NULL DEFAULT '{}',
  -- Runs of a test session are kept apart from the check's monitoring history.
  test_session_id uuid,
  -- apiCheckResult, browserCheckResult, multiStepCheckResult, agenticCheckResult, details, errors.
  detail jsonb NOT NULL DEFAULT '{}'
);
-- Newest-first listing and keyset cursors per check; analytics windows per check.
CREATE INDEX check_results_check ON check_results (check_id, started_at DESC, id DESC);
-- Retention prunes each account's oldest results first.
CREATE INDEX check_results_account_started ON check_results (account_id, started_at);
CREATE INDEX check_results_test_session ON check_results (test_session_id) WHERE test_session_id IS NOT NULL;

CREATE TABLE error_groups (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  error_hash text NOT NULL,
  raw_error_message text,
  cleaned_error_message text NOT NULL,
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  archived_until_next_event boolean NOT NULL DEFAULT false,
  archived_forever boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (check_id, error_hash)
);
CREATE INDEX error_groups_account ON error_groups (account_id, last_seen DESC, id);

-- Latest FINAL response time per location ({"eu-west-1": 123.4}): longestRun/shortestRun span them.
ALTER TABLE check_statuses ADD COLUMN location_run_times jsonb NOT NULL DEFAULT '{}';
-- startedAt of the result the flags come from: a late, older result never overwrites a newer one.
ALTER TABLE check_statuses ADD COLUMN last_result_at timestamptz;
