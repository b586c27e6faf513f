import type { SubscriberNotificationFacts } from '../domain/subscriber-notification-messages.js';
import type { Queryable } from './db.js';
import type { NotificationKind, NotificationSubjectType } from './subscriber-notifications-repository.js';

export type SubscriberDeliveryStatus = 'PENDING' | 'SENT' | 'FAILED';

/** One stored delivery attempt, with what its notification is about. */
export interface SubscriberDeliveryRow {
  id: string;
  account_id: string;
  notification_id: string;
  subject_type: NotificationSubjectType;
  subject_id: string;
  kind: NotificationKind;
  update_id: string;
  status_page_id: string;
  subscription_id: string | null;
  channel: string;
  address: string;
  status: SubscriberDeliveryStatus;
  attempt: number;
  error: string | null;
  response_status: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

/**
 * A claimed attempt with everything its message needs: the notification's facts, the page and
 * the subscriber (null fields once the subscriber or its page is gone), and its webhook secret.
 */
export interface ClaimedSubscriberDelivery {
  id: string;
  account_id: string;
  notification_id: string;
  subscription_id: string | null;
  status_page_id: string;
  channel: string;
  address: string;
  address_key: string;
  attempt: number;
  facts: SubscriberNotificationFacts;
  page_name: string | null;
  page_url: string | null;
  webhook_secret: string | null;
}

/** A PENDING attempt somewhere in the installation, and when it is due (its lease's end, if held). */
export interface DueSubscriberDelivery {
  id: string;
  dueAt: Date;
}

/** How an attempt ended. */
export interface SubscriberDeliveryOutcome {
  status: 'SENT' | 'FAILED';
  error: string | null;
  responseStatus: number | null;
  at: Date;
}

/** Filters of `GET /v1/status-pages/subscriber-deliveries`. */
export interface SubscriberDeliveryFilter {
  incidentId?: string;
  maintenanceId?: string;
  statusPageId?: string;
  subscriptionId?: string;
  status?: SubscriberDeliveryStatus;
}

const COLUMNS = `d.id, d.account_id, d.notification_id, n.subject_type, n.subject_id, n.kind, n.update_id, d.status_page_id, d.subscription_id,
  d.channel, d.address, d.status, d.attempt, d.error, d.response_status, d.next_attempt_at, d.created_at, d.updated_at`;
/** When a PENDING attempt may be taken: when due, or when the lease another worker holds ends. */
const DUE_AT = 'greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at))';

/**
 * Delivery attempts of subscriber notifications. Account-scoped in every statement but the
 * notifier's (claim, complete, insertRetry, listDue), which work on attempts of any account.
 */
export function createSubscriberDeliveriesRepository(db: Queryable) {
  return {
    /**
     * Takes a due PENDING attempt: holds it until `leaseUntil` under `claimToken`, so no other worker
     * takes it meanwhile, yet one does if this process dies before recording the outcome. Undefined
     * when it is not due, not pending any more, or held by a lease that has not ended.
     */
    async claim(id: string, now: Date, leaseUntil: Date, claimToken: string): Promise<ClaimedSubscriberDelivery | undefined> {
      const [row] = await db.query<ClaimedSubscriberDelivery>(
        `WITH claimed AS (
           UPDATE subscriber_deliveries SET lease_until = $3, claim_token = $4
           WHERE id = $1 AND status = 'PENDING' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
           RETURNING id, account_id, notification_id, subscription_id, status_page_id, channel, address, address_key, attempt
         )
         SELECT c.*, n.facts, p.name AS page_name, p.url AS page_url, s.webhook_secret
         FROM claimed c JOIN subscriber_notifications n ON n.id = c.notification_id
         LEFT JOIN status_page_subscriptions s ON s.id = c.subscription_id
         LEFT JOIN status_pages p ON p.id = c.status_page_id`,
        [id, now, leaseUntil, claimToken],
      );
      return row;
    },

    /** Records how a claimed attempt ended; false when the claim was lost (its lease ended and another worker took it). */
    async complete(id: string, claimToken: string, o: SubscriberDeliveryOutcome): Promise<boolean> {
      const rows = await db.query(
        `UPDATE subscriber_deliveries SET status = $3, error = $4, response_status = $5, next_attempt_at = NULL, lease_until = NULL, updated_at = $6
         WHERE id = $1 AND claim_token = $2 AND status = 'PENDING' RETURNING id`,
        [id, claimToken, o.status, o.error, o.responseStatus, o.at],
      );
      return rows.length > 0;
    },

    /** Queues the next attempt after a failed one, due at `dueAt`; false when it exists already. */
    async insertRetry(previous: ClaimedSubscriberDelivery, id: string, at: Date, dueAt: Date): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO subscriber_deliveries (id, account_id, notification_id, subscription_id, status_page_id, channel, address, address_key,
           status, attempt, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING', $9, $10, $11)
         ON CONFLICT (notification_id, channel, address_key, attempt) DO NOTHING RETURNING id`,
        [id, previous.account_id, previous.notification_id, previous.subscription_id, previous.status_page_id, previous.channel,
          previous.address, previous.address_key, previous.attempt + 1, dueAt, at],
      );
      return rows.length > 0;
    },

    /** PENDING attempts of every account that are due at or before `before` (any time when null), soonest first. */
    async listDue(before: Date | null, limit: number): Promise<DueSubscriberDelivery[]> {
      const rows = await db.query<{ id: string; due_at: Date }>(
        `SELECT d.id, ${DUE_AT} AS due_at FROM subscriber_deliveries d
         WHERE d.status = 'PENDING' AND ($1::timestamptz IS NULL OR ${DUE_AT} <= $1) ORDER BY due_at, d.id LIMIT $2`,
        [before, limit],
      );
      return rows.map((r) => ({ id: r.id, dueAt: r.due_at }));
    },

    async get(accountId: string, id: string): Promise<SubscriberDeliveryRow | undefined> {
      const [row] = await db.query<SubscriberDeliveryRow>(
        `SELECT ${COLUMNS} FROM subscriber_deliveries d JOIN subscriber_notifications n ON n.id = d.notification_id
         WHERE d.account_id = $1 AND d.id = $2`,
        [accountId, id],
      );
      return row;
    },

    /** A page of the account's attempts, newest first, and how many match. */
    async list(accountId: string, filter: SubscriberDeliveryFilter, page: number, limit: number): Promise<{ rows: SubscriberDeliveryRow[]; total: number }> {
      const where = ['d.account_id = $1'];
      const params: unknown[] = [accountId];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.incidentId) {
        where.push(`n.subject_type = 'INCIDENT'`);
        add('n.subject_id = ?::uuid', filter.incidentId);
      }
      if (filter.maintenanceId) {
        where.push(`n.subject_type = 'MAINTENANCE'`);
        add('n.subject_id = ?::uuid', filter.maintenanceId);
      }
      if (filter.statusPageId) add('d.status_page_id = ?::uuid', filter.statusPageId);
      if (filter.subscriptionId) add('d.subscription_id = ?::uuid', filter.subscriptionId);
      if (filter.status) add('d.status = ?', filter.status);
      const whereSql = where.join(' AND ');
      const from = 'FROM subscriber_deliveries d JOIN subscriber_notifications n ON n.id = d.notification_id';
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from} WHERE ${whereSql}`, params);
      const rows = await db.query<SubscriberDeliveryRow>(
        `SELECT ${COLUMNS} ${from} WHERE ${whereSql} ORDER BY d.created_at DESC, d.seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, (page - 1) * limit],
      );
      return { rows, total: count?.n ?? 0 };
    },
  };
}
export type SubscriberDeliveriesRepository = ReturnType<typeof createSubscriberDeliveriesRepository>;
