-- Client certificates (mutual TLS for API and URL checks) and check group trigger tokens.

CREATE TABLE client_certificates (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- Normalised host name, IP address or wildcard (*.example.com); one certificate per host.
  host text NOT NULL,
  cert text NOT NULL,
  ca text,
  -- {key, passphrase}: read only when a run presents the certificate, never by an answer.
  secrets jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  UNIQUE (account_id, host)
);

CREATE TABLE check_group_triggers (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  group_id integer NOT NULL UNIQUE REFERENCES check_groups(id) ON DELETE CASCADE,
  token text NOT NULL UNIQUE,
  called_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
