-- Incident automation (a check's triggerIncident): the one incident a check has open, if any.
-- The row goes when the incident is resolved by recovery, and with the incident or the check.
CREATE TABLE check_open_incidents (
  check_id uuid PRIMARY KEY REFERENCES checks(id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  incident_id uuid NOT NULL REFERENCES status_page_incidents(id) ON DELETE CASCADE,
  opened_at timestamptz NOT NULL
);
CREATE INDEX check_open_incidents_by_incident ON check_open_incidents (incident_id);
