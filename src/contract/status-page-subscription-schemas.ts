import Type from 'typebox';
import { SUBSCRIPTION_TYPES } from '../domain/status-page-subscription-issues.js';
import { Nullable } from './common.js';

/** Subscribers one bulk request adds at most (the real API's limit). */
export const BULK_SUBSCRIPTIONS_MAX = 100;

export const StatusPageSubscriptionParams = Type.Object({
  statusPageId: Type.String({ format: 'uuid' }),
  subscriptionId: Type.String({ format: 'uuid' }),
}, { additionalProperties: false });

/** Body of `POST /v1/status-pages/{statusPageId}/subscriptions/bulk`. */
export const SubscriptionBulkBody = Type.Object({
  subscriptions: Type.Array(Type.Object({
    type: Type.Enum([...SUBSCRIPTION_TYPES], { description: 'EMAIL: config is an email address; WEBHOOK: config is an http or https URL' }),
    config: Type.String({ minLength: 1, maxLength: 2048, description: 'The address: an email address (EMAIL) or a URL (WEBHOOK)' }),
  }, { additionalProperties: false }), { minItems: 1, maxItems: BULK_SUBSCRIPTIONS_MAX }),
  autoVerify: Type.Optional(Nullable(Type.Boolean({
    description: 'true: the subscribers are VERIFIED at once, no confirmation is sent. Default false: each gets a confirmation (double opt-in)',
  }))),
}, { additionalProperties: false });

/** Query of the public subscriber links. */
export const SubscriberLinkQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });
/** Path of the public subscriber links: the page's `url` slug. */
export const SubscriberLinkParams = Type.Object({ url: Type.String({ minLength: 1, maxLength: 253 }) }, { additionalProperties: false });

export type SubscriptionBulkBodyType = Type.Static<typeof SubscriptionBulkBody>;
