import { ALERT_CHANNEL_TYPES, type AlertChannelType } from '../domain/catalog.js';
import { ALERT_CHANNEL_CONFIG_SCHEMAS } from './alert-channel-schemas.js';
import { DateTime, NullableDateTime } from './check-views.js';
import { toResponseShape, type JsonSchema } from './response-shape.js';

/** Secret config fields read back masked (`********` and the last 4 characters) or, for webhookSecret, null. */
const SECRET_READ_BACK: JsonSchema = {
  webhookSecret: { type: ['string', 'null'], description: 'WEBHOOK: never read back (null)' },
  apiKey: { type: ['string', 'null'], description: 'OPSGENIE: masked' },
  serviceKey: { type: ['string', 'null'], description: 'PAGERDUTY: masked' },
};

/** A webhook header or query parameter as read back: a locked one's value is null. */
const LockableKeyValue = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string' }, value: { type: ['string', 'null'] }, locked: { type: 'boolean' } },
};

/**
 * The `config` of a channel, every key of every type (which exist depends on `type`). Secrets never
 * read back in the clear; nor do the values of locked webhook headers and query parameters.
 */
export const AlertChannelConfig = {
  $id: 'AlertChannelConfig',
  type: 'object',
  description: 'Depends on type: EMAIL {address}; SLACK {url, channel}; SLACK_APP {channel, url}; WEBHOOK {name, url, method, template, '
    + 'headers, queryParameters, webhookSecret, webhookType}; SMS and CALL {name, number}; PAGERDUTY {account, serviceName, serviceKey}; '
    + 'OPSGENIE {name, apiKey, region, priority}',
  properties: {
    ...Object.assign({}, ...(Object.keys(ALERT_CHANNEL_CONFIG_SCHEMAS) as AlertChannelType[]).map((t) => toResponseShape(ALERT_CHANNEL_CONFIG_SCHEMAS[t]).properties)),
    // Types differ in whether these may be null; read back, any of them may be.
    url: { type: ['string', 'null'] },
    channel: { type: ['string', 'null'] },
    headers: { type: ['array', 'null'], items: LockableKeyValue },
    queryParameters: { type: ['array', 'null'], items: LockableKeyValue },
    ...SECRET_READ_BACK,
  },
};

/** A check or group subscribed to a channel, as the channel lists it. */
export const AlertChannelSubscription = {
  $id: 'AlertChannelSubscription',
  type: 'object',
  description: 'A check (checkId) or group (groupId) subscribed to the channel',
  required: ['id', 'checkId', 'groupId', 'activated'],
  properties: {
    id: { type: 'integer' },
    checkId: { type: ['string', 'null'], format: 'uuid' },
    groupId: { type: ['integer', 'null'] },
    activated: { type: 'boolean' },
  },
};

/** An alert channel as every route answers it. */
export const AlertChannel = {
  $id: 'AlertChannel',
  type: 'object',
  description: 'Where alerts go, with its notification settings and subscriptions',
  required: ['id', 'type', 'config', 'sendRecovery', 'sendFailure', 'sendDegraded', 'sslExpiry', 'sslExpiryThreshold', 'autoSubscribe', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    type: { type: 'string', enum: [...ALERT_CHANNEL_TYPES] },
    config: { $ref: 'AlertChannelConfig#' },
    subscriptions: { type: 'array', items: { $ref: 'AlertChannelSubscription#' } },
    sendRecovery: { type: 'boolean' },
    sendFailure: { type: 'boolean' },
    sendDegraded: { type: 'boolean' },
    sslExpiry: { type: 'boolean' },
    sslExpiryThreshold: { type: 'integer' },
    autoSubscribe: { type: 'boolean' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** What `PUT /v1/alert-channels/{id}/subscriptions` answers: the subscriptions written, in the form sent (one or a list). */
export const AlertChannelSubscriptionsAnswer = {
  $id: 'AlertChannelSubscriptionsAnswer',
  description: 'The subscription written, or the list of them when a list was sent',
  anyOf: [{ $ref: 'AlertChannelSubscription#' }, { type: 'array', items: { $ref: 'AlertChannelSubscription#' } }],
};

/** Schemas of this file registered as named components. */
export const ALERT_CHANNEL_VIEW_SCHEMAS = [AlertChannelConfig, AlertChannelSubscription, AlertChannel, AlertChannelSubscriptionsAnswer];
