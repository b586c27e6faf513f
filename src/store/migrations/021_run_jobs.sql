-- Scheduled runs as durable jobs. The scheduling leader inserts one row per (check, slot) with
-- the locations the slot runs in (several for a parallel check); any runner process claims due
-- rows (FOR UPDATE SKIP LOCKED) under a lease it renews while it runs them. A lease not renewed
-- expires and the row is claimed again. Each FINAL result is stored only while its lease is held,
-- in the transaction that counts it; the job is done when it has one FINAL per location, and a
-- FINAL beyond that is refused, so a slot is stored once however often it was claimed. The unique
-- key keeps a slot from being enqueued twice (a new leader re-planning what the old one queued).
CREATE TABLE run_jobs (
  id bigserial PRIMARY KEY,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  slot_at timestamptz NOT NULL,
  locations text[] NOT NULL,
  finals_stored integer NOT NULL DEFAULT 0,
  -- queued | leased | done | skipped (its check was still running the slot before)
  state text NOT NULL DEFAULT 'queued',
  lease_owner text,
  lease_until timestamptz,
  claims integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  UNIQUE (check_id, slot_at)
);

CREATE INDEX run_jobs_open ON run_jobs (slot_at) WHERE state IN ('queued', 'leased');
CREATE INDEX run_jobs_finished ON run_jobs (finished_at) WHERE state IN ('done', 'skipped');
