-- A counter per account, bumped in the transaction of every write that changes what a public page
-- (status page, dashboard, feeds, summary.json) shows. Public renderers cache on it, so a write made by
-- any process is visible on the next request without a time-based expiry.
CREATE TABLE public_content_versions (
  account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  version bigint NOT NULL
);
