import type { SubscriberDeliveryListQueryType } from '../contract/subscriber-delivery-schemas.js';
import type { Store } from '../store/create-store.js';
import type { SubscriberDeliveryRow } from '../store/subscriber-deliveries-repository.js';

/** The REST shape of one delivery attempt to a status page subscriber. */
export function toSubscriberDeliveryView(row: SubscriberDeliveryRow) {
  return {
    id: row.id,
    notificationId: row.notification_id,
    subjectType: row.subject_type,
    kind: row.kind,
    subjectId: row.subject_id,
    updateId: row.update_id,
    statusPageId: row.status_page_id,
    subscriptionId: row.subscription_id,
    channel: row.channel as 'EMAIL' | 'WEBHOOK',
    address: row.address,
    status: row.status,
    attempt: row.attempt,
    error: row.error,
    responseStatus: row.response_status,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}

/**
 * Every delivery attempt of the account's subscriber notifications, newest first. An id of
 * another account in a filter matches nothing, like an unknown one.
 */
export function createSubscriberDeliveryService({ store }: { store: Store }) {
  return {
    async list(accountId: string, query: SubscriberDeliveryListQueryType) {
      const { page = 1, limit = 10, ...filter } = query;
      const { rows, total } = await store.subscriberDeliveries.list(accountId, filter, page, limit);
      return { items: rows.map(toSubscriberDeliveryView), total, page, limit };
    },
  };
}
export type SubscriberDeliveryService = ReturnType<typeof createSubscriberDeliveryService>;
