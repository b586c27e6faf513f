import type { SubscriberNotificationFacts } from '../domain/subscriber-notification-messages.js';
import type { Queryable } from './db.js';

export type NotificationSubjectType = SubscriberNotificationFacts['subjectType'];
export type NotificationKind = SubscriberNotificationFacts['kind'];

/** A notification to store: one update (or reminder) posted for status page subscribers. */
export interface NewSubscriberNotification {
  id: string;
  accountId: string;
  subjectType: NotificationSubjectType;
  subjectId: string;
  kind: NotificationKind;
  updateId: string;
  /** The services it is about: the pages whose cards show one of them get it. */
  serviceIds: readonly string[];
  /** Only these pages (null: any page of the account); with no serviceIds, every one of them. */
  statusPageIds: readonly string[] | null;
  facts: SubscriberNotificationFacts;
}

/** A stored notification waiting for its fan-out. */
export interface PendingSubscriberNotificationRow {
  id: string;
  account_id: string;
  subject_type: NotificationSubjectType;
  subject_id: string;
  kind: NotificationKind;
  update_id: string;
  service_ids: string[];
  status_page_ids: string[] | null;
  created_at: Date;
}

/** A maintenance window as its notifications need it. */
export interface MaintenanceWindowSubject {
  id: number;
  name: string;
  affect_all_services: boolean;
  service_ids: string[];
  status_page_ids: string[];
}

/**
 * The outbox of status page subscriber notifications: written in the transaction of the update it
 * is about, claimed and fanned out into deliveries by the subscriber notifier. Every statement but
 * the notifier's (claimPending, fanOut) is scoped to one account.
 */
export function createSubscriberNotificationsRepository(db: Queryable) {
  return {
    /** Stores a notification; false when the update was notified already (nothing written). */
    async insert(n: NewSubscriberNotification): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO subscriber_notifications (id, account_id, subject_type, subject_id, kind, update_id, service_ids, status_page_ids, facts)
         VALUES ($1, $2, $3, $4, $5, $6, $7::uuid[], $8::uuid[], $9::jsonb)
         ON CONFLICT (subject_type, update_id) DO NOTHING RETURNING id`,
        [n.id, n.accountId, n.subjectType, n.subjectId, n.kind, n.updateId, n.serviceIds, n.statusPageIds, JSON.stringify(n.facts)],
      );
      return rows.length > 0;
    },

    /**
     * Takes up to `limit` PENDING notifications of any account, oldest first, holding their rows
     * until the transaction ends; rows another worker holds are skipped, not waited for.
     */
    claimPending(limit: number): Promise<PendingSubscriberNotificationRow[]> {
      return db.query<PendingSubscriberNotificationRow>(
        `SELECT id, account_id, subject_type, subject_id, kind, update_id, service_ids::text[] AS service_ids,
           status_page_ids::text[] AS status_page_ids, created_at
         FROM subscriber_notifications WHERE status = 'PENDING' ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
    },

    /**
     * Fans a claimed notification out: one PENDING first attempt, due at `at`, per channel and
     * address among the VERIFIED subscribers of the account's pages it concerns (an address on
     * several of them gets one message, through its subscription on the oldest page), then marks it
     * FANNED_OUT. Answers the ids of the deliveries it queued.
     */
    async fanOut(n: PendingSubscriberNotificationRow, at: Date): Promise<string[]> {
      const queued = await db.query<{ id: string }>(
        `INSERT INTO subscriber_deliveries (id, account_id, notification_id, subscription_id, status_page_id, channel, address, address_key,
           status, attempt, next_attempt_at, created_at)
         SELECT gen_random_uuid(), $1, $2, r.id, r.status_page_id, r.type, r.address, r.address_key, 'PENDING', 1, $5, $5
         FROM (
           SELECT DISTINCT ON (s.type, s.address_key) s.id, s.status_page_id, s.type, s.address, s.address_key
           FROM status_page_subscriptions s JOIN status_pages p ON p.id = s.status_page_id
           WHERE s.account_id = $1 AND p.account_id = $1 AND s.status = 'VERIFIED'
             AND ($4::uuid[] IS NULL OR p.id = ANY($4::uuid[]))
             AND (($4::uuid[] IS NOT NULL AND cardinality($3::uuid[]) = 0) OR EXISTS (
               SELECT 1 FROM status_page_cards c JOIN status_page_card_services l ON l.card_id = c.id
               WHERE c.status_page_id = p.id AND l.service_id = ANY($3::uuid[])))
           ORDER BY s.type, s.address_key, p.created_at, p.id, s.created_at, s.id
         ) r
         ON CONFLICT (notification_id, channel, address_key, attempt) DO NOTHING
         RETURNING id`,
        [n.account_id, n.id, n.service_ids, n.status_page_ids, at],
      );
      await db.query(
        `UPDATE subscriber_notifications SET status = 'FANNED_OUT', recipients = $2, fanned_out_at = $3 WHERE id = $1`,
        [n.id, queued.length, at],
      );
      return queued.map((q) => q.id);
    },

    /** A maintenance window with the services and status pages it is linked to, in their order. */
    async maintenanceWindow(accountId: string, windowId: number): Promise<MaintenanceWindowSubject | undefined> {
      const [row] = await db.query<MaintenanceWindowSubject>(
        `SELECT w.id, w.name, coalesce((w.status_page_visibility->>'affectAllServices')::boolean, false) AS affect_all_services,
           ARRAY(SELECT l.service_id::text FROM maintenance_window_services l WHERE l.window_id = w.id ORDER BY l.position) AS service_ids,
           ARRAY(SELECT l.status_page_id::text FROM maintenance_window_status_pages l WHERE l.window_id = w.id ORDER BY l.position) AS status_page_ids
         FROM maintenance_windows w WHERE w.account_id = $1 AND w.id = $2`,
        [accountId, windowId],
      );
      return row;
    },
  };
}
export type SubscriberNotificationsRepository = ReturnType<typeof createSubscriberNotificationsRepository>;
