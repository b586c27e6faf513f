import { SUBSCRIPTION_STATUSES, SUBSCRIPTION_TYPES } from '../domain/status-page-subscription-issues.js';
import { ref } from './response-shape.js';

const DateTime = { type: 'string', format: 'date-time' };
const NullableDateTime = { type: ['string', 'null'], format: 'date-time' };

const SUBSCRIPTION_PROPERTIES = {
  id: { type: 'string', format: 'uuid' },
  type: { type: 'string', enum: [...SUBSCRIPTION_TYPES] },
  address: { type: 'string', description: 'An email address (EMAIL) or a URL (WEBHOOK), as sent' },
  status: { type: 'string', enum: [...SUBSCRIPTION_STATUSES], description: 'PENDING until the subscriber follows its confirmation link' },
  created_at: DateTime,
  updated_at: NullableDateTime,
};

/** A subscriber of a status page (never its tokens or webhook secret). */
export const StatusPageSubscription = {
  $id: 'StatusPageSubscription',
  type: 'object',
  description: 'A subscriber of a status page',
  required: ['id', 'type', 'address', 'status', 'created_at', 'updated_at'],
  properties: SUBSCRIPTION_PROPERTIES,
};

/** A subscriber a bulk request added: once, with its webhook secret and how its confirmation went. */
export const StatusPageSubscriptionCreated = {
  $id: 'StatusPageSubscriptionCreated',
  type: 'object',
  description: 'A subscriber just added, with what is shown only now',
  required: [...StatusPageSubscription.required, 'secret', 'confirmation', 'confirmationError'],
  properties: {
    ...SUBSCRIPTION_PROPERTIES,
    secret: {
      type: ['string', 'null'],
      description: 'WEBHOOK: the key of the hex HMAC-SHA256 of each delivery\'s body in X-Lookout-Signature (and X-Checkly-Signature). '
        + 'Shown only in this answer; null for EMAIL',
    },
    confirmation: {
      type: 'string', enum: ['SENT', 'FAILED', 'NOT_NEEDED'],
      description: 'SENT: the confirmation mail or POST was accepted; FAILED: it was not (see confirmationError; the subscriber stays PENDING: '
        + 'delete it and add it again to retry); NOT_NEEDED: autoVerify',
    },
    confirmationError: { type: ['string', 'null'] },
  },
};

/** The answer of `POST /v1/status-pages/{statusPageId}/subscriptions/bulk`. */
export const StatusPageSubscriptionBulkResult = {
  $id: 'StatusPageSubscriptionBulkResult',
  type: 'object',
  description: 'How many subscribers were added and how many the page had already',
  required: ['created', 'skipped', 'status', 'subscriptions'],
  properties: {
    created: { type: 'integer', description: 'Subscribers added' },
    skipped: { type: 'integer', description: 'Subscribers the page had already (an address sent twice counts once)' },
    status: { type: 'string', enum: [...SUBSCRIPTION_STATUSES], description: 'The status of the added subscribers: VERIFIED with autoVerify, else PENDING' },
    subscriptions: { type: 'array', items: ref('StatusPageSubscriptionCreated'), description: 'The subscribers added, in the order sent' },
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const STATUS_PAGE_SUBSCRIPTION_VIEW_SCHEMAS = [StatusPageSubscription, StatusPageSubscriptionCreated, StatusPageSubscriptionBulkResult];
