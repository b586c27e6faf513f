-- The latest known state of each check; the runner keeps it current, the list filters read it.
CREATE TABLE check_statuses (
  check_id uuid PRIMARY KEY REFERENCES checks(id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  has_failures boolean NOT NULL DEFAULT false,
  has_errors boolean NOT NULL DEFAULT false,
  is_degraded boolean NOT NULL DEFAULT false,
  longest_run integer,
  shortest_run integer,
  last_run_location text,
  last_check_run_id text,
  ssl_days_remaining integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX check_statuses_account ON check_statuses (account_id);
