-- Status page services and incidents with their updates (REST /v1/status-pages/services and /incidents).

-- A service is shared by every status page that shows it.
CREATE TABLE status_page_services (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX status_page_services_by_account ON status_page_services (account_id, created_at DESC, id DESC);

CREATE TABLE status_page_incidents (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  severity text NOT NULL,
  -- Derived from the updates (incidentProgress), rewritten in the transaction of every update write.
  last_update_status text NOT NULL DEFAULT 'INVESTIGATING',
  duration integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX status_page_incidents_by_account ON status_page_incidents (account_id, created_at DESC, id DESC);

-- The services an incident affects, in the order given. A service in use cannot be deleted (409).
CREATE TABLE status_page_incident_services (
  incident_id uuid NOT NULL REFERENCES status_page_incidents(id) ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES status_page_services(id),
  position integer NOT NULL,
  PRIMARY KEY (incident_id, service_id)
);
CREATE INDEX status_page_incident_services_by_service ON status_page_incident_services (service_id);

CREATE TABLE status_page_incident_updates (
  id uuid PRIMARY KEY,
  -- Insertion order: breaks ties of equal public dates and creation times (one create writes several).
  seq bigserial NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  incident_id uuid NOT NULL REFERENCES status_page_incidents(id) ON DELETE CASCADE,
  description text NOT NULL,
  -- As sent; null keeps the status of the update before it.
  status text,
  public_incident_update_date timestamptz NOT NULL,
  -- Stored only: delivery to status page subscribers is not built yet.
  notify_subscribers boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX status_page_incident_updates_by_incident ON status_page_incident_updates (incident_id, seq);
