-- What a test session's runs need, kept with the session so that another process can resume it
-- when the process running it dies. `kind` names the service that runs it (`trigger`: deployed
-- checks by id; `run`: the checks `checkly test` submitted). `job` is what only the request had:
-- for `run` the submitted checks as validated (secret variables included, as the account's own
-- variables are stored), the location, suite and sequence ids; for `trigger` the run-time
-- overrides. It is never part of a view, and is cleared once the session ends.
-- `end_error` ({code, message}) says why a session ended without running all its checks (nothing
-- could resume it), shown by the scheduling of `checkly test` sessions.
ALTER TABLE test_sessions ADD COLUMN kind text;
ALTER TABLE test_sessions ADD COLUMN job jsonb;
ALTER TABLE test_sessions ADD COLUMN end_error jsonb;
CREATE INDEX test_sessions_running_lease ON test_sessions (lease_until) WHERE status = 'RUNNING';
