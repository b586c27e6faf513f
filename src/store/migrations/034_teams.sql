-- Teams (issue 29): people who sign in, their roles in accounts, keys that carry a role, sessions,
-- invitations and password resets.
--
-- A user was one row per account; a person may now belong to several accounts, so `users` becomes
-- the person (its account_id is kept as the account it was first made for) and `memberships` says
-- which accounts each person belongs to, with which role. Every existing user owns its account.
ALTER TABLE users ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE users ADD COLUMN password_hash text;
ALTER TABLE users ADD COLUMN totp_secret text;
ALTER TABLE users ADD COLUMN totp_enabled boolean NOT NULL DEFAULT false;
-- The last 30-second step a code was accepted for: a code works once, however long it stays current.
ALTER TABLE users ADD COLUMN totp_last_step bigint;
ALTER TABLE users ADD COLUMN signs_in boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN oidc_issuer text;
ALTER TABLE users ADD COLUMN oidc_subject text;
ALTER TABLE users ADD COLUMN updated_at timestamptz;
-- Bootstrap users of older versions share made-up addresses; only people who sign in need unique ones.
CREATE UNIQUE INDEX users_sign_in_email ON users (lower(email)) WHERE signs_in;
CREATE UNIQUE INDEX users_oidc_subject ON users (oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL;

CREATE TABLE memberships (
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'READ_WRITE', 'READ_RUN', 'READ_ONLY')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);
INSERT INTO memberships (account_id, user_id, role, created_at, updated_at)
  SELECT account_id, id, 'OWNER', created_at, created_at FROM users WHERE account_id IS NOT NULL;

-- Existing keys keep working as Owner service keys. A personal key acts as its user, with the
-- user's role in the account at the time of each request.
ALTER TABLE api_keys ADD COLUMN kind text NOT NULL DEFAULT 'service' CHECK (kind IN ('service', 'personal'));
ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'OWNER' CHECK (role IN ('OWNER', 'ADMIN', 'READ_WRITE', 'READ_RUN', 'READ_ONLY'));
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

-- Console sessions: the cookie holds a random token, stored here as its sha-256 only.
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  account_id uuid REFERENCES accounts(id) ON DELETE SET NULL,
  csrf_token text NOT NULL,
  method text NOT NULL,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'READ_WRITE', 'READ_RUN', 'READ_ONLY')),
  token_hash text NOT NULL UNIQUE,
  invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz
);
CREATE UNIQUE INDEX invitations_open_email ON invitations (account_id, lower(email)) WHERE accepted_at IS NULL;

CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
