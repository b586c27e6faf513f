-- FINAL results waiting for alert evaluation. The run recorder inserts a row in the transaction
-- that stores the result, so a result is never committed without it (the event bus is at most once:
-- a Redis failure or a crash right after the commit would otherwise lose the run for the alert
-- state machine). Alerting, in the process leading the schedule, deletes each row in the transaction
-- that stores the alert state change it caused, or alone when the run changed nothing: a row is
-- evaluated once, and what a dying leader left is picked up by the next. Rows of a parallel run stay
-- until the whole run is judged. Test-session runs never alert, so they get no row. The foreign keys
-- cascade: a deleted check or result (retention) leaves nothing behind to evaluate.
CREATE TABLE alert_outbox (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  -- Unique: also the index the cascade from check_results uses when retention deletes results.
  result_id uuid NOT NULL UNIQUE REFERENCES check_results(id) ON DELETE CASCADE,
  sequence_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
