import type { Queryable } from './db.js';

/** A stored subscriber of a status page (never its tokens; its webhook secret only through `forDelivery`). */
export interface StatusPageSubscriptionRow {
  id: string;
  account_id: string;
  status_page_id: string;
  type: string;
  address: string;
  status: string;
  created_at: Date;
  updated_at: Date | null;
}

/** A subscriber as deliveries need it: with the key its webhook deliveries are signed with. */
export interface DeliverableSubscriptionRow extends StatusPageSubscriptionRow {
  webhook_secret: string | null;
}

/** A subscriber a bulk write adds. */
export interface NewSubscription {
  id: string;
  type: string;
  address: string;
  addressKey: string;
  status: string;
  webhookSecret: string | null;
}

/** What a link's token is for. */
export type TokenPurpose = 'CONFIRM' | 'UNSUBSCRIBE';

/** A subscriber found by a link, with the page it is on. */
export interface SubscriptionByToken extends StatusPageSubscriptionRow {
  page_name: string;
  page_url: string;
}

const COLUMNS = 'id, account_id, status_page_id, type, address, status, created_at, updated_at';
const S_COLUMNS = 's.id, s.account_id, s.status_page_id, s.type, s.address, s.status, s.created_at, s.updated_at';

/** Subscribers of status pages and the hashes of their link tokens. */
export function createStatusPageSubscriptionsRepository(db: Queryable) {
  return {
    /** Every subscriber of the page, oldest first. */
    list(accountId: string, pageId: string): Promise<StatusPageSubscriptionRow[]> {
      return db.query<StatusPageSubscriptionRow>(
        `SELECT ${COLUMNS} FROM status_page_subscriptions WHERE account_id = $1 AND status_page_id = $2 ORDER BY created_at, id`,
        [accountId, pageId],
      );
    },

    /**
     * Adds the subscribers the page does not have yet (same type and address key) and answers those
     * added, in the order given; the others, there already or added by a concurrent write, are skipped.
     */
    async insertMany(accountId: string, pageId: string, entries: readonly NewSubscription[]): Promise<StatusPageSubscriptionRow[]> {
      if (entries.length === 0) return [];
      const rows = await db.query<StatusPageSubscriptionRow>(
        `INSERT INTO status_page_subscriptions (id, account_id, status_page_id, type, address, address_key, status, webhook_secret)
         SELECT e.id, $1, $2, e.type, e.address, e.address_key, e.status, e.webhook_secret
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS e(id, type, address, address_key, status, webhook_secret)
         ON CONFLICT (status_page_id, type, address_key) DO NOTHING
         RETURNING ${COLUMNS}`,
        [
          accountId, pageId, entries.map((e) => e.id), entries.map((e) => e.type), entries.map((e) => e.address),
          entries.map((e) => e.addressKey), entries.map((e) => e.status), entries.map((e) => e.webhookSecret),
        ],
      );
      const order = new Map(entries.map((e, i) => [e.id, i]));
      return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    },

    /** Stores the hashes of link tokens. */
    async addTokens(tokens: readonly { subscriptionId: string; purpose: TokenPurpose; hash: string }[]): Promise<void> {
      if (tokens.length === 0) return;
      await db.query(
        `INSERT INTO status_page_subscription_tokens (token_hash, subscription_id, purpose)
         SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[])`,
        [tokens.map((t) => t.hash), tokens.map((t) => t.subscriptionId), tokens.map((t) => t.purpose)],
      );
    },

    /** The subscriber a link token of `purpose` belongs to, on the page with this `url` slug (any account). */
    async byToken(pageUrl: string, purpose: TokenPurpose, hash: string): Promise<SubscriptionByToken | undefined> {
      const [row] = await db.query<SubscriptionByToken>(
        `SELECT ${S_COLUMNS}, p.name AS page_name, p.url AS page_url
         FROM status_page_subscription_tokens t JOIN status_page_subscriptions s ON s.id = t.subscription_id
         JOIN status_pages p ON p.id = s.status_page_id
         WHERE t.token_hash = $1 AND t.purpose = $2 AND p.url = $3`,
        [hash, purpose, pageUrl],
      );
      return row;
    },

    /** Marks a PENDING subscriber VERIFIED; undefined when it is not (any more) pending. */
    async verify(id: string): Promise<StatusPageSubscriptionRow | undefined> {
      const [row] = await db.query<StatusPageSubscriptionRow>(
        `UPDATE status_page_subscriptions SET status = 'VERIFIED', updated_at = now() WHERE id = $1 AND status = 'PENDING' RETURNING ${COLUMNS}`,
        [id],
      );
      return row;
    },

    /** Removes a subscriber of the account's page. */
    async delete(accountId: string, pageId: string, id: string): Promise<boolean> {
      const rows = await db.query(
        'DELETE FROM status_page_subscriptions WHERE account_id = $1 AND status_page_id = $2 AND id = $3 RETURNING id',
        [accountId, pageId, id],
      );
      return rows.length > 0;
    },

    /** Removes a subscriber found by a link (its account is the one found with it). */
    async deleteById(id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM status_page_subscriptions WHERE id = $1 RETURNING id', [id]);
      return rows.length > 0;
    },

    /** The VERIFIED subscribers of these pages of the account, with their webhook secrets: whom a notification goes to. */
    forDelivery(accountId: string, pageIds: readonly string[]): Promise<DeliverableSubscriptionRow[]> {
      if (pageIds.length === 0) return Promise.resolve([]);
      return db.query<DeliverableSubscriptionRow>(
        `SELECT ${COLUMNS}, webhook_secret FROM status_page_subscriptions
         WHERE account_id = $1 AND status_page_id = ANY($2::uuid[]) AND status = 'VERIFIED' ORDER BY status_page_id, created_at, id`,
        [accountId, pageIds],
      );
    },

    /** One subscriber of the account, any page (a delivery builds its unsubscribe link from it). */
    async get(accountId: string, id: string): Promise<(StatusPageSubscriptionRow & { page_url: string }) | undefined> {
      const [row] = await db.query<StatusPageSubscriptionRow & { page_url: string }>(
        `SELECT ${S_COLUMNS}, p.url AS page_url FROM status_page_subscriptions s JOIN status_pages p ON p.id = s.status_page_id
         WHERE s.account_id = $1 AND s.id = $2`,
        [accountId, id],
      );
      return row;
    },
  };
}
export type StatusPageSubscriptionsRepository = ReturnType<typeof createStatusPageSubscriptionsRepository>;
