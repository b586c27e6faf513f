-- Maintenance windows, their occurrences ("maintenances"), the occurrences' updates and reminders
-- (REST /v1/maintenance-windows; the maintenance clock moves statuses on time).

CREATE TABLE maintenance_windows (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  -- The first occurrence; every occurrence lasts ends_at - starts_at.
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  repeat_unit text,
  repeat_interval integer,
  -- As sent: an inclusive calendar date (or a date-time read by its local date) in `timezone`.
  repeat_ends_at text,
  timezone text NOT NULL DEFAULT 'UTC',
  tags text[] NOT NULL DEFAULT '{}',
  pause_all_checks boolean NOT NULL DEFAULT false,
  silence_alerts_tags text[] NOT NULL DEFAULT '{}',
  silence_all_alerts boolean NOT NULL DEFAULT false,
  description text,
  -- statusPageVisibility with every default filled, but for its ids (the two link tables below).
  status_page_visibility jsonb NOT NULL,
  -- Occurrence numbers deleted by hand: a re-plan or an extension never brings them back.
  skipped_occurrences integer[] NOT NULL DEFAULT '{}',
  -- How far a recurring window without repeat_ends_at is planned; null when every occurrence is.
  planned_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX maintenance_windows_by_account ON maintenance_windows (account_id, id);
CREATE INDEX maintenance_windows_rolling ON maintenance_windows (planned_until) WHERE planned_until IS NOT NULL;

-- The status page services a window affects, in the order given. Deleting a service takes it off its
-- windows (a window may affect none).
CREATE TABLE maintenance_window_services (
  window_id integer NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES status_page_services(id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (window_id, service_id)
);
CREATE INDEX maintenance_window_services_by_service ON maintenance_window_services (service_id);

-- The status pages that show a window, in the order given. Deleting a page takes it off its windows.
CREATE TABLE maintenance_window_status_pages (
  window_id integer NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
  status_page_id uuid NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (window_id, status_page_id)
);
CREATE INDEX maintenance_window_status_pages_by_page ON maintenance_window_status_pages (status_page_id);

CREATE TABLE maintenances (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  window_id integer NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
  -- Its number in the window's series (0: the window's first occurrence).
  occurrence integer NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'SCHEDULED',
  -- Dates set by hand: a window update no longer re-plans it.
  date_adjusted boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  UNIQUE (window_id, occurrence)
);
CREATE INDEX maintenances_by_window ON maintenances (window_id, starts_at, id);
-- What the clock looks for: starts due, ends due.
CREATE INDEX maintenances_scheduled ON maintenances (starts_at) WHERE status = 'SCHEDULED';
CREATE INDEX maintenances_active ON maintenances (ends_at) WHERE status IN ('IN_PROGRESS', 'VERIFYING');

CREATE TABLE maintenance_updates (
  id uuid PRIMARY KEY,
  -- Insertion order: the latest update decides the maintenance's status.
  seq bigserial NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  window_id integer NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
  maintenance_id uuid NOT NULL REFERENCES maintenances(id) ON DELETE CASCADE,
  status text NOT NULL,
  previous_status text,
  description text NOT NULL,
  notify_subscribers boolean NOT NULL DEFAULT false,
  previous_starts_at timestamptz,
  previous_ends_at timestamptz,
  adjusted_starts_at timestamptz,
  adjusted_ends_at timestamptz,
  -- Written by the maintenance clock (auto start, auto end).
  automatic boolean NOT NULL DEFAULT false,
  -- Set by whatever delivers notifications to status page subscribers (not built yet).
  notified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX maintenance_updates_by_maintenance ON maintenance_updates (maintenance_id, seq);
CREATE INDEX maintenance_updates_to_notify ON maintenance_updates (seq) WHERE notify_subscribers AND notified_at IS NULL;

-- One row per reminder recorded for one start of a maintenance: written once, whichever clock gets there.
CREATE TABLE maintenance_reminders (
  id uuid PRIMARY KEY,
  maintenance_id uuid NOT NULL REFERENCES maintenances(id) ON DELETE CASCADE,
  minutes_before integer NOT NULL,
  -- The start it reminds of: a maintenance moved later gets its reminders again for the new start.
  starts_at timestamptz NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  window_id integer NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
  due_at timestamptz NOT NULL,
  -- A nearer reminder was due at the same time: kept so it is never due again, never delivered.
  superseded boolean NOT NULL DEFAULT false,
  notified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (maintenance_id, minutes_before, starts_at)
);
CREATE INDEX maintenance_reminders_to_notify ON maintenance_reminders (due_at) WHERE NOT superseded AND notified_at IS NULL;
