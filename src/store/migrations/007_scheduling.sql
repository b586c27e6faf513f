-- Scheduler state, heartbeat pings, trigger tokens and test sessions.

-- The next planned slot of each check: a restart resumes from it (no double run, no lost slot).
CREATE TABLE check_schedule (
  check_id uuid PRIMARY KEY REFERENCES checks(id) ON DELETE CASCADE,
  next_run_at timestamptz NOT NULL,
  last_started_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE heartbeat_pings (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  -- ping (success), start (a job started), fail (the job reported failure)
  kind text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  method text NOT NULL,
  source text,
  user_agent text
);
CREATE INDEX heartbeat_pings_check ON heartbeat_pings (check_id, received_at DESC);

CREATE TABLE check_triggers (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL UNIQUE REFERENCES checks(id) ON DELETE CASCADE,
  token text NOT NULL UNIQUE,
  called_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);

CREATE TABLE test_sessions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  status text NOT NULL,
  run_location text,
  environment text,
  check_ids uuid[] NOT NULL,
  -- One entry per check: {checkId, name, checkType, status, resultIds, sequenceId}
  results jsonb NOT NULL DEFAULT '[]',
  error_group_ids uuid[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  stopped_at timestamptz,
  updated_at timestamptz
);
CREATE INDEX test_sessions_account ON test_sessions (account_id, created_at DESC, id DESC);

CREATE TABLE test_session_error_groups (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  project_id text,
  environments text[],
  error_hash text NOT NULL,
  raw_error_message text,
  cleaned_error_message text NOT NULL,
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  archived_until_next_event boolean NOT NULL DEFAULT false,
  archived_forever boolean NOT NULL DEFAULT false,
  UNIQUE (account_id, error_hash)
);

CREATE INDEX checks_ping_token ON checks ((data->'heartbeat'->>'pingToken')) WHERE check_type = 'HEARTBEAT';
