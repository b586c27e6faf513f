-- On-demand runs (a trigger, a test session, "run now") of a location served by agents go through
-- the queue like scheduled slots; `run` carries what the run needs beyond its check: the sequence id
-- the caller waits on, its test session and run overrides. Null for scheduled slots.
ALTER TABLE run_jobs ADD COLUMN run jsonb;

-- The claim asks, per candidate, whether the check has a run of the lane leased now: served by this
-- index rather than by scanning open jobs (which slows every claim as the queue grows, worse still
-- on a table never analyzed).
CREATE INDEX run_jobs_leased_check ON run_jobs (check_id, lane) WHERE state = 'leased';
