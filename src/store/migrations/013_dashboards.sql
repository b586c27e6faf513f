-- Public dashboards of checks (REST /v1/dashboards, pages at /dashboards/{customUrl} and on a custom domain).
CREATE TABLE dashboards (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- Unique across ALL accounts: the public address /dashboards/{custom_url}. Lower case by its pattern.
  custom_url text NOT NULL,
  -- As sent; unique across all accounts without regard to case (host names are case-insensitive).
  custom_domain text,
  logo text,
  favicon text,
  link text,
  description text,
  header text,
  width text NOT NULL CHECK (width IN ('FULL', '960PX')),
  refresh_rate integer NOT NULL CHECK (refresh_rate IN (60, 300, 600)),
  paginate boolean NOT NULL,
  pagination_rate integer NOT NULL CHECK (pagination_rate IN (30, 60, 300)),
  checks_per_page integer NOT NULL CHECK (checks_per_page BETWEEN 1 AND 20),
  use_tags_and_operator boolean NOT NULL,
  hide_tags boolean NOT NULL,
  enable_incidents boolean NOT NULL,
  expand_checks boolean NOT NULL,
  show_header boolean NOT NULL,
  custom_css text,
  -- Only false can be served (no viewer keys are built); the API refuses true.
  is_private boolean NOT NULL DEFAULT false CHECK (NOT is_private),
  show_p95 boolean NOT NULL,
  show_p99 boolean NOT NULL,
  show_check_run_links boolean NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE UNIQUE INDEX dashboards_custom_url_key ON dashboards (custom_url);
CREATE UNIQUE INDEX dashboards_custom_domain_key ON dashboards (lower(custom_domain)) WHERE custom_domain IS NOT NULL;
CREATE INDEX dashboards_by_account ON dashboards (account_id, created_at, id);
