-- Accounts, keys and every configuration resource of the REST API.
-- Resources keep their accepted body in `data` (the API echoes what it accepted); columns hold
-- what is filtered, joined or constrained on.

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  runtime_id text NOT NULL,
  plan text NOT NULL DEFAULT 'SELF_HOSTED',
  plan_display_name text NOT NULL DEFAULT 'Self-hosted',
  settings jsonb NOT NULL DEFAULT '{}',
  alert_settings jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  masked_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE check_groups (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  activated boolean NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX check_groups_account ON check_groups (account_id, id);

CREATE TABLE checks (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_type text NOT NULL,
  name text NOT NULL,
  activated boolean NOT NULL,
  group_id integer REFERENCES check_groups(id),
  tags text[] NOT NULL DEFAULT '{}',
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX checks_account ON checks (account_id, created_at, id);
CREATE INDEX checks_group ON checks (group_id);
CREATE INDEX checks_tags ON checks USING gin (tags);

CREATE TABLE alert_channels (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  type text NOT NULL,
  data jsonb NOT NULL,
  -- Values never read back (webhook secrets, provider keys), apart from `data`.
  secrets jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX alert_channels_account ON alert_channels (account_id, id);

CREATE TABLE alert_channel_subscriptions (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  alert_channel_id integer NOT NULL REFERENCES alert_channels(id) ON DELETE CASCADE,
  check_id uuid REFERENCES checks(id) ON DELETE CASCADE,
  group_id integer REFERENCES check_groups(id) ON DELETE CASCADE,
  activated boolean NOT NULL DEFAULT true,
  CHECK ((check_id IS NULL) <> (group_id IS NULL)),
  UNIQUE (alert_channel_id, check_id),
  UNIQUE (alert_channel_id, group_id)
);
CREATE INDEX subscriptions_check ON alert_channel_subscriptions (check_id);
CREATE INDEX subscriptions_group ON alert_channel_subscriptions (group_id);

CREATE TABLE environment_variables (
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key text NOT NULL,
  value text NOT NULL,
  locked boolean NOT NULL DEFAULT false,
  secret boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  PRIMARY KEY (account_id, key)
);

CREATE TABLE snippets (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  script text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX snippets_account ON snippets (account_id, id);

CREATE TABLE private_locations (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  slug_name text NOT NULL,
  icon text,
  proxy_url text,
  last_seen timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  UNIQUE (account_id, slug_name)
);

CREATE TABLE private_location_keys (
  id uuid PRIMARY KEY,
  private_location_id uuid NOT NULL REFERENCES private_locations(id) ON DELETE CASCADE,
  key_hash text NOT NULL UNIQUE,
  masked_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
