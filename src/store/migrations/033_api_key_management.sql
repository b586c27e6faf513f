-- API keys managed from the product (issue 27): the recognisable start of a key, shown in lists
-- beside its last characters, and when it last authenticated a request (refreshed at most once a
-- minute, see accounts-repository findKey). Revoking deletes the row: a revoked key is unknown.
-- A future `role` column will say what a key may do; views read it through toApiKeyView.
ALTER TABLE api_keys ADD COLUMN prefix text;
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
CREATE INDEX api_keys_account ON api_keys (account_id, created_at, id);
