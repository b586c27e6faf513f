/**
 * REST payloads of status pages, their cards and subscribers as the GraphQL layer receives them
 * (codegen mappers), each a component schema of the REST API's OpenAPI document, and the few parent
 * shapes of this layer's own making.
 */
import type { components } from '../contract/__generated__/openapi.js';
import type { PublicContentChangedEvent } from '../events/lookout-event.js';
import type { UserError } from './user-errors.js';

type Schemas = components['schemas'];

/** A status page with its cards and their services (`/v1/status-pages/{statusPageId}`). */
export type RestStatusPage = Schemas['StatusPage'];

/** A page of the status page cursor list (`{length, entries, nextId}`). */
export type RestStatusPagePage = Schemas['StatusPagePage'];

/** A card as REST returns it, inside its page: it does not name the page. */
export type RestStatusPageCard = Schemas['StatusPageCard'];

/** A card with the id of its page, which REST reads it with (the `StatusPageCard` parent). */
export type StatusPageCardParent = RestStatusPageCard & { statusPageId: string };

/** The colours of a page per mode. */
export type RestStatusPageThemeColors = Schemas['StatusPageThemeColors'];

/** The colours of one mode. */
export type RestStatusPageThemePalette = Schemas['StatusPageThemePalette'];

/** A subscriber as the page's subscriber list returns it (never its tokens or webhook secret). */
export type RestStatusPageSubscription = Schemas['StatusPageSubscription'];

/** A subscriber with the id of its page, which REST lists and deletes it under (the `StatusPageSubscriber` parent). */
export type StatusPageSubscriberParent = RestStatusPageSubscription & { statusPageId: string };

/** The answer of `POST /v1/status-pages/{statusPageId}/subscriptions/bulk`. */
export type RestSubscriptionBulkResult = Schemas['StatusPageSubscriptionBulkResult'];

/** One subscriber a bulk request added, as this layer passes it on: its webhook secret left behind. */
export interface AddedStatusPageSubscriberParent {
  subscriber: StatusPageSubscriberParent;
  confirmation: Schemas['StatusPageSubscriptionCreated']['confirmation'];
  confirmationError: string | null;
}

/** What addStatusPageSubscribers returns. */
export interface AddStatusPageSubscribersPayloadParent {
  created: number | null;
  skipped: number | null;
  status: RestSubscriptionBulkResult['status'] | null;
  added: AddedStatusPageSubscriberParent[];
  userErrors: UserError[];
}

/** The `statusPageChanged` payload: the bus event and the page the subscription follows, if any. */
export type StatusPageChangeEventParent = PublicContentChangedEvent & { followedStatusPageId: string | null };
