/**
 * REST payloads of alerting and account configuration as the GraphQL layer receives them: alert
 * channels and notifications, account variables, snippets and private locations (codegen mappers).
 * Each is a component schema of the REST API's OpenAPI document (see rest-types.ts).
 */
import type { components } from '../contract/__generated__/openapi.js';

type Schemas = components['schemas'];

/** A check or group subscribed to a channel, as the channel lists it. */
export type RestChannelSubscription = Schemas['AlertChannelSubscription'];

/** An alert channel as `GET /v1/alert-channels/{id}` returns it; secret config fields masked or null. */
export type RestAlertChannel = Schemas['AlertChannel'];

/** The `config` of a channel, read field by field by the config types (and by name, hence the index signature). */
export type RestAlertChannelConfig = Schemas['AlertChannelConfig'] & Record<string, unknown>;

/** A webhook header or query parameter as a channel's config holds it: a locked one's value reads back as null. */
export type RestWebhookKeyValue = NonNullable<RestAlertChannelConfig['headers']>[number];

/** One delivery attempt of an alert to a channel (`GET /v1/alert-notifications`). */
export type RestAlertNotification = Schemas['AlertNotification'];

/** An account variable (`/v1/variables`); a secret's value reads back as null. */
export type RestVariable = Schemas['Variable'];

/** A snippet (`/v1/snippets`). */
export type RestSnippet = Schemas['Snippet'];

/** A private location key as listed: masked; `rawKey` only in the answer that created it. */
export type RestPrivateLocationKey = Schemas['PrivateLocationKey'];

/** A private location (`/v1/private-locations`). */
export type RestPrivateLocation = Schemas['PrivateLocation'];

/** What the private location key mutations return: the location is fetched only when asked for (a GraphQL-layer shape, not a REST one). */
export interface PrivateLocationKeyPayloadParent {
  key?: RestPrivateLocationKey | null;
  deletedKeyId?: string | null;
  /** REST id of the location, or null when the mutation wrote nothing. */
  privateLocationId: string | null;
  userErrors: { field: string | null; code: string; message: string }[];
}
