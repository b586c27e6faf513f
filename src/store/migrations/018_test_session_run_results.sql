-- Results of checks `checkly test` submitted (run as sent, never stored as checks): kept with
-- their test session, as the REST view of a check result.
CREATE TABLE test_session_run_results (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  test_session_id uuid NOT NULL REFERENCES test_sessions(id) ON DELETE CASCADE,
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX test_session_run_results_session ON test_session_run_results (account_id, test_session_id);
