-- Monitoring-as-code projects (`checkly deploy`): which resources a project owns, by the logical id
-- its code gives them, and every deployment with its outcome.
CREATE TABLE projects (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  logical_id text NOT NULL,
  name text NOT NULL,
  repo_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  UNIQUE (account_id, logical_id)
);

-- physical_id is the id of the resource in its own table (text: checks are uuids, groups and
-- channels serials); subscriptions have none of their own.
CREATE TABLE project_resources (
  project_id integer NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  resource_type text NOT NULL,
  logical_id text NOT NULL,
  physical_id text,
  PRIMARY KEY (project_id, resource_type, logical_id)
);

CREATE TABLE deployments (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- A destroyed project's deployments stay readable (the CLI follows the destroy to completion).
  project_id integer REFERENCES projects(id) ON DELETE SET NULL,
  project_logical_id text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  diff jsonb NOT NULL DEFAULT '[]',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

-- One deployment at a time per project: a second one conflicts (409 naming the running one).
CREATE UNIQUE INDEX deployments_one_running ON deployments (project_id) WHERE status = 'RUNNING';
