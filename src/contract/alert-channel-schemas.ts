import Type from 'typebox';
import { ALERT_CHANNEL_TYPES, HTTP_METHODS, type AlertChannelType } from '../domain/catalog.js';
import { Nullable, nullWhereOptional } from './common.js';

export const OPSGENIE_REGIONS = ['US', 'EU'] as const;
export const OPSGENIE_PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;

const obj = (props: Type.TProperties) => Type.Object(props, { additionalProperties: false });
const Name = Type.String({ minLength: 1, maxLength: 256 });
/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
const PhoneNumber = Type.String({ pattern: '^\\+[1-9][0-9]{1,14}$', description: 'E.164 number, e.g. +31612345678' });
const HttpUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });
/**
 * A webhook header or query parameter. A locked one is write-only: it reads back with value null,
 * and sent back so (or without value) it keeps the stored value of its key; the rules of
 * alert-channel-locked-entries say when a value is required.
 */
const LockableKeyValue = Type.Object(
  { key: Type.String({ maxLength: 1024 }), value: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))), locked: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const KeyValues = Type.Optional(Nullable(Type.Array(LockableKeyValue, { maxItems: 100 })));

/**
 * The `config` of each channel type; validated in the handler once `type` is known (on update,
 * after the config sent is merged over the stored one). Optional keys also take null ("not given").
 */
const CONFIG_BODIES: Record<AlertChannelType, Type.TObject> = {
  EMAIL: obj({ address: Type.String({ format: 'email', maxLength: 320 }) }),
  SLACK: obj({ url: HttpUrl, channel: Type.Optional(Nullable(Type.String({ maxLength: 256 }))) }),
  // The CLI's SlackAppAlertChannel sends `slackChannels`; `channel` is the older single-channel form. One of them is required (alertChannelConfigIssues).
  SLACK_APP: obj({
    channel: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 256 }))),
    slackChannels: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { minItems: 1, maxItems: 50 }))),
    url: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  }),
  WEBHOOK: obj({
    name: Name,
    // Checked by alertChannelConfigIssues: http(s), or built from {{VARIABLES}} at send time.
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    method: Type.Optional(Type.Enum([...HTTP_METHODS], { default: 'POST' })),
    template: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
    headers: KeyValues,
    queryParameters: KeyValues,
    webhookSecret: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
    webhookType: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  }),
  SMS: obj({ name: Name, number: PhoneNumber }),
  CALL: obj({ name: Name, number: PhoneNumber }),
  PAGERDUTY: obj({
    account: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
    serviceName: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
    serviceKey: Type.String({ minLength: 1, maxLength: 256 }),
  }),
  OPSGENIE: obj({
    name: Name,
    apiKey: Type.String({ minLength: 1, maxLength: 256 }),
    region: Type.Enum([...OPSGENIE_REGIONS]),
    priority: Type.Enum([...OPSGENIE_PRIORITIES]),
  }),
};
export const ALERT_CHANNEL_CONFIG_SCHEMAS = Object.fromEntries(
  Object.entries(CONFIG_BODIES).map(([type, schema]) => [type, nullWhereOptional(schema)]),
) as Record<AlertChannelType, Type.TObject>;

const ConfigObject = Type.Object({}, {
  additionalProperties: true,
  description: 'Depends on `type`: EMAIL {address}; SLACK {url, channel}; SLACK_APP {slackChannels or channel, url}; WEBHOOK {name, url, method, '
    + 'template, headers, queryParameters, webhookSecret, webhookType}; SMS and CALL {name, number}; PAGERDUTY {account, '
    + 'serviceName, serviceKey}; OPSGENIE {name, apiKey, region, priority}. Secrets (webhookSecret, apiKey, serviceKey) never read back; '
    + 'nor do the values of locked webhook headers and query parameters (value: null).',
});

/** Notification settings; null means "not given" (default on create, unchanged on update). */
const settings = {
  sendRecovery: Type.Optional(Nullable(Type.Boolean())),
  sendFailure: Type.Optional(Nullable(Type.Boolean())),
  sendDegraded: Type.Optional(Nullable(Type.Boolean())),
  sslExpiry: Type.Optional(Nullable(Type.Boolean())),
  sslExpiryThreshold: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 30 }))),
  autoSubscribe: Type.Optional(Nullable(Type.Boolean())),
};

export const AlertChannelCreate = Type.Object(
  { type: Type.Enum([...ALERT_CHANNEL_TYPES]), config: ConfigObject, ...settings },
  { additionalProperties: false },
);

/**
 * Update: every field optional, null meaning "not given" (kept); `type` may be sent but cannot
 * change; a `config` sent merges over the stored one key by key.
 */
export const AlertChannelUpdate = Type.Object(
  { type: Type.Optional(Nullable(Type.Enum([...ALERT_CHANNEL_TYPES]))), config: Type.Optional(Nullable(ConfigObject)), ...settings },
  { additionalProperties: false },
);

export const AlertChannelId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const SubscriptionInput = obj({
  checkId: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  groupId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }))),
  activated: Type.Boolean(),
});
export const SubscriptionInputList = Type.Array(SubscriptionInput, { maxItems: 100 });
/** One subscription or a list of them. */
export const SubscriptionsBody = Type.Union([SubscriptionInput, SubscriptionInputList]);
