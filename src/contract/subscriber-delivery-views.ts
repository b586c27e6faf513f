import { SUBSCRIPTION_TYPES } from '../domain/status-page-subscription-issues.js';
import { ref } from './response-shape.js';
import { SUBSCRIBER_DELIVERY_STATUSES } from './subscriber-delivery-schemas.js';

const DateTime = { type: 'string', format: 'date-time' };
const NullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const Id = { type: 'string', format: 'uuid' };

/** One attempt to deliver an incident or maintenance notification to a status page subscriber. */
export const SubscriberDelivery = {
  $id: 'SubscriberDelivery',
  type: 'object',
  description: 'One attempt to deliver an incident or maintenance update (or a maintenance reminder) to a status page subscriber',
  required: [
    'id', 'notificationId', 'subjectType', 'kind', 'subjectId', 'updateId', 'statusPageId', 'subscriptionId', 'channel', 'address',
    'status', 'attempt', 'error', 'responseStatus', 'nextAttemptAt', 'created_at', 'updated_at',
  ],
  properties: {
    id: Id,
    notificationId: { ...Id, description: 'The notification: one per update posted with notifySubscribers (attempts of one address share it)' },
    subjectType: { type: 'string', enum: ['INCIDENT', 'MAINTENANCE'] },
    kind: { type: 'string', enum: ['UPDATE', 'REMINDER'], description: 'REMINDER: a maintenance reminder (statusPageVisibility.reminderMinutesBefore)' },
    subjectId: { ...Id, description: 'The incident or the maintenance' },
    updateId: { ...Id, description: 'The incident update, maintenance update or reminder notified' },
    statusPageId: { ...Id, description: 'The page of the subscription the message went through' },
    subscriptionId: { type: ['string', 'null'], format: 'uuid', description: 'null once the subscriber was removed' },
    channel: { type: 'string', enum: [...SUBSCRIPTION_TYPES] },
    address: { type: 'string', description: 'The email address or webhook URL, as subscribed' },
    status: { type: 'string', enum: [...SUBSCRIBER_DELIVERY_STATUSES], description: 'PENDING: waiting for its attempt (due at nextAttemptAt)' },
    attempt: { type: 'integer', description: '1 for the first attempt, 2 for the first retry...' },
    error: {
      type: ['string', 'null'],
      description: 'Why a FAILED attempt failed. Webhooks: a class only, never what the target answered: refused_target (a private, loopback '
        + 'or link-local address, see LOOKOUT_ALLOW_PRIVATE_TARGETS), timeout, connection_failed, http_error (a non-2xx answer) or invalid_url',
    },
    responseStatus: { type: ['integer', 'null'], description: 'Always null: what a webhook answered is not shown (kept for compatibility)' },
    nextAttemptAt: { ...NullableDateTime, description: 'PENDING: when the attempt is due; null once made' },
    created_at: DateTime,
    updated_at: { ...NullableDateTime, description: 'When the attempt was made; null while PENDING' },
  },
};

/** The answer of `GET /v1/status-pages/subscriber-deliveries`. */
export const SubscriberDeliveryList = {
  $id: 'SubscriberDeliveryList',
  type: 'array',
  items: ref('SubscriberDelivery'),
  description: 'Delivery attempts, newest first; offset pagination, the total in Content-Range',
};

/** Schemas of this file registered as named components, in dependency order. */
export const SUBSCRIBER_DELIVERY_VIEW_SCHEMAS = [SubscriberDelivery, SubscriberDeliveryList];
