-- Runs can be taken by agents: a job's lane says who may claim it. '' is the runner processes'
-- lane; 'pl:<slug>' a private location's (its agents claim it, filtered by the check's account);
-- 'dc:<slug>' a data-center location that had a live agent when the slot was queued (runner
-- processes take it back when no agent of it is alive). A slot is unique per lane, so a parallel
-- check queues one job for the runners and one per agent-served location of the same slot.
ALTER TABLE run_jobs ADD COLUMN lane text NOT NULL DEFAULT '';
ALTER TABLE run_jobs DROP CONSTRAINT run_jobs_check_id_slot_at_key;
ALTER TABLE run_jobs ADD CONSTRAINT run_jobs_check_slot_lane UNIQUE (check_id, slot_at, lane);
CREATE INDEX run_jobs_open_lane ON run_jobs (lane, slot_at) WHERE state IN ('queued', 'leased');

-- Agents that connected, as they report themselves on every lease and renewal. An agent is live
-- while it reported within the liveness window and has not said it left; rows of agents gone
-- for a day are pruned.
CREATE TABLE agents (
  id uuid PRIMARY KEY,
  lane text NOT NULL,
  account_id uuid REFERENCES accounts(id) ON DELETE CASCADE,
  private_location_id uuid REFERENCES private_locations(id) ON DELETE CASCADE,
  version text NOT NULL,
  hostname text NOT NULL,
  concurrency integer NOT NULL,
  running integer NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now(),
  left_at timestamptz
);
CREATE INDEX agents_lane ON agents (lane, last_seen);
CREATE INDEX agents_private_location ON agents (private_location_id) WHERE private_location_id IS NOT NULL;

-- An agent posting a result again (its answer was lost) finds the stored one by its run.
CREATE INDEX check_results_sequence ON check_results (check_id, sequence_id);
