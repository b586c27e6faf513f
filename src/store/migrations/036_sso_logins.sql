-- Single sign-on logins in flight (issue 29): what the callback must check, kept by the server
-- rather than in the browser, so each login is used once and any API process can finish it. The
-- browser holds the state in a short-lived HttpOnly cookie; the row is found by its sha-256.
CREATE TABLE sso_logins (
  state_hash text PRIMARY KEY,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  return_to text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_logins_expires ON sso_logins (expires_at);
