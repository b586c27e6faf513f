-- Alerting: the alert state machine of each check, the alerts it raised, every delivery attempt
-- of those alerts to alert channels, and when each channel was last told about an expiring certificate.

-- The state machine of one check (AlertState of src/domain/alert-state.ts, dates as ISO strings).
CREATE TABLE check_alert_states (
  check_id uuid PRIMARY KEY REFERENCES checks(id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  state jsonb NOT NULL,
  -- The latest non-reminder alert: reminders repeat its context.
  last_alert_id uuid,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- On start, reminders are rescheduled for the checks that are not passing.
CREATE INDEX check_alert_states_open ON check_alert_states (check_id) WHERE (state->>'status') <> 'PASSING';

-- One row per alert a check raised (state machine alerts, reminders, certificate alerts).
CREATE TABLE check_alerts (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  alert_type text NOT NULL,
  -- Name and type of the check when it alerted.
  name text NOT NULL,
  check_type text NOT NULL,
  -- Results are pruned by retention before their alerts: no foreign key.
  check_result_id uuid,
  run_location text,
  response_time double precision,
  status_code integer,
  error text,
  started_at timestamptz,
  is_reminder boolean NOT NULL DEFAULT false,
  reminder_sequence integer,
  ssl_days_remaining integer,
  -- Everything a notifier renders (group name, tags, title...): retries render again from it.
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Insertion order: lists are newest first, and alerts of one instant keep the order they were raised in.
  seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX check_alerts_account ON check_alerts (account_id, created_at DESC, seq DESC);
CREATE INDEX check_alerts_check ON check_alerts (check_id, created_at DESC, seq DESC);

-- One row per delivery attempt of an alert to a channel. A failed attempt that will be retried is
-- followed by a PENDING row for the next attempt, due at next_attempt_at: pending retries survive
-- a restart. A PENDING row being delivered has its next_attempt_at pushed forward (a lease), so a
-- process that dies mid-delivery leaves it to be tried again.
CREATE TABLE alert_notifications (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  alert_id uuid NOT NULL REFERENCES check_alerts(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  -- Kept (null) when the channel is deleted: the history stays readable.
  alert_channel_id integer REFERENCES alert_channels(id) ON DELETE SET NULL,
  channel_type text NOT NULL,
  alert_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED')),
  attempt integer NOT NULL CHECK (attempt >= 1),
  error text,
  response_status integer,
  -- What the receiver answered (truncated), for troubleshooting.
  notification_result text,
  created_at timestamptz NOT NULL DEFAULT now(),
  attempted_at timestamptz,
  next_attempt_at timestamptz,
  -- Insertion order, as in check_alerts.
  seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX alert_notifications_account ON alert_notifications (account_id, created_at DESC, seq DESC);
CREATE INDEX alert_notifications_pending ON alert_notifications (next_attempt_at) WHERE status = 'PENDING';

-- When a channel was last alerted about the certificate of a check: at most one ALERT_SSL per
-- check and channel per day while the certificate stays under the channel's threshold.
CREATE TABLE ssl_alert_marks (
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  alert_channel_id integer NOT NULL REFERENCES alert_channels(id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  last_alert_at timestamptz NOT NULL,
  days_remaining integer NOT NULL,
  PRIMARY KEY (check_id, alert_channel_id)
);
