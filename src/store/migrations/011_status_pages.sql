-- Status pages, their cards (ordered, each showing ordered services) and their subscribers
-- (REST /v1/status-pages). Services live in status_page_services and are shared by every page
-- showing them.

CREATE TABLE status_pages (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  -- The slug public pages are found by: unique across all accounts.
  url text NOT NULL,
  -- A host name, lower-cased: unique across all accounts.
  custom_domain text,
  description text,
  -- {light, dark} palettes as sent; null when never set.
  theme_colors jsonb,
  logo text,
  logo_dark text,
  favicon text,
  redirect_to text,
  default_theme text NOT NULL DEFAULT 'AUTO',
  is_private boolean NOT NULL DEFAULT false,
  -- scrypt of the shared password with its salt and parameters; never read back.
  password_hash text,
  -- Moves on with every password change: a public session remembers it and ends when it differs.
  password_version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
-- Constraint names are what a duplicate is told by (status-pages-repository.ts).
CREATE UNIQUE INDEX status_pages_url_key ON status_pages (url);
CREATE UNIQUE INDEX status_pages_custom_domain_key ON status_pages (custom_domain);
CREATE INDEX status_pages_by_account ON status_pages (account_id, created_at DESC, id DESC);

CREATE TABLE status_page_cards (
  id uuid PRIMARY KEY,
  status_page_id uuid NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
  name text NOT NULL,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);
CREATE INDEX status_page_cards_by_page ON status_page_cards (status_page_id, position);

-- The services a card shows, in the order given. A service a card shows cannot be deleted (409).
CREATE TABLE status_page_card_services (
  card_id uuid NOT NULL REFERENCES status_page_cards(id) ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES status_page_services(id),
  position integer NOT NULL,
  PRIMARY KEY (card_id, service_id)
);
CREATE INDEX status_page_card_services_by_service ON status_page_card_services (service_id);

CREATE TABLE status_page_subscriptions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  status_page_id uuid NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
  type text NOT NULL,
  -- As sent.
  address text NOT NULL,
  -- The address as compared (an email lower-cased, a URL normalised): one subscription per page and key.
  address_key text NOT NULL,
  status text NOT NULL DEFAULT 'PENDING',
  -- HMAC key of every delivery to a WEBHOOK subscriber, so it is kept as is; shown once, at creation.
  webhook_secret text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  UNIQUE (status_page_id, type, address_key)
);
CREATE INDEX status_page_subscriptions_by_page ON status_page_subscriptions (status_page_id, created_at, id);

-- Confirmation and unsubscribe links: only the sha-256 of each token. A subscription may have several
-- unsubscribe tokens (one per message that carries a link), so links of older messages keep working.
CREATE TABLE status_page_subscription_tokens (
  token_hash text PRIMARY KEY,
  subscription_id uuid NOT NULL REFERENCES status_page_subscriptions(id) ON DELETE CASCADE,
  purpose text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX status_page_subscription_tokens_by_subscription ON status_page_subscription_tokens (subscription_id);
