-- Notifications of status page subscribers and their deliveries (the subscriber notifier,
-- src/runner/subscriber-notifications). An update posted with notifySubscribers leaves one
-- notification here, in the transaction that posts it; the notifier fans each out to the verified
-- subscribers of the pages it concerns and delivers every message, retrying failed attempts.

CREATE TABLE subscriber_notifications (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- INCIDENT or MAINTENANCE; subject_id is the incident's or the maintenance's id.
  subject_type text NOT NULL,
  subject_id uuid NOT NULL,
  -- UPDATE (an incident or maintenance update) or REMINDER (a maintenance reminder).
  kind text NOT NULL DEFAULT 'UPDATE',
  -- The update's or the reminder's id. No foreign key: deleting the update keeps what was sent.
  update_id uuid NOT NULL,
  -- The services the notification is about; the pages whose cards show one of them get it.
  service_ids uuid[] NOT NULL,
  -- When set, only these pages (a maintenance window's status pages); with no service_ids, all of them.
  status_page_ids uuid[],
  -- What the messages say, as it was when the update was posted (subscriber-notification-messages.ts).
  facts jsonb NOT NULL,
  -- PENDING until fanned out into deliveries, then FANNED_OUT.
  status text NOT NULL DEFAULT 'PENDING',
  recipients integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  fanned_out_at timestamptz,
  -- An update is notified at most once, whichever writer or worker gets there.
  UNIQUE (subject_type, update_id)
);
CREATE INDEX subscriber_notifications_pending ON subscriber_notifications (created_at, id) WHERE status = 'PENDING';

-- One row per delivery attempt: a failed attempt that is retried is followed by a PENDING row of
-- the next attempt number.
CREATE TABLE subscriber_deliveries (
  id uuid PRIMARY KEY,
  -- Insertion order: breaks ties of equal creation times in lists.
  seq bigserial NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  notification_id uuid NOT NULL REFERENCES subscriber_notifications(id) ON DELETE CASCADE,
  -- Null once the subscriber is removed (unsubscribed, or its page deleted): nothing more is sent.
  subscription_id uuid REFERENCES status_page_subscriptions(id) ON DELETE SET NULL,
  -- The page of the subscription, kept for the record after the page is gone.
  status_page_id uuid NOT NULL,
  channel text NOT NULL,
  address text NOT NULL,
  address_key text NOT NULL,
  status text NOT NULL DEFAULT 'PENDING',
  attempt integer NOT NULL DEFAULT 1,
  -- PENDING: when the attempt is due; null once made.
  next_attempt_at timestamptz,
  -- A worker holds the attempt until then (claim_token names the claim); an expired lease may be taken over.
  lease_until timestamptz,
  claim_token uuid,
  error text,
  response_status integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  -- One message per address per update, even when it subscribed to several pages showing the service.
  UNIQUE (notification_id, channel, address_key, attempt)
);
CREATE INDEX subscriber_deliveries_due ON subscriber_deliveries (next_attempt_at, id) WHERE status = 'PENDING';
CREATE INDEX subscriber_deliveries_by_account ON subscriber_deliveries (account_id, created_at DESC, seq DESC);
CREATE INDEX subscriber_deliveries_by_subscription ON subscriber_deliveries (subscription_id);
