-- What each secret config field of a channel reads back as (a masked key, or null), written with
-- `secrets`, so that ordinary reads never need to select the `secrets` column at all.
ALTER TABLE alert_channels ADD COLUMN masked_secrets jsonb NOT NULL DEFAULT '{}';
