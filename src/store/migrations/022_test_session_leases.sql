-- Which process runs a test session, and until when its lease holds: a process start cancels only
-- the sessions whose process died (their lease ran out), never those another live process runs.
ALTER TABLE test_sessions ADD COLUMN runner_id text;
ALTER TABLE test_sessions ADD COLUMN lease_until timestamptz;
