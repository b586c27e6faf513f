import { CHECK_TYPES, LOCATIONS } from '../domain/catalog.js';
import { GrpcRequest } from './grpc-check-schemas.js';
import { CHECK_CREATE_SCHEMAS, Heartbeat as HeartbeatInput, ApiRequest, DnsRequest, IcmpRequest, TcpRequest, UrlRequest } from './check-schemas.js';
import { SslRequest, TracerouteRequest } from './check-schemas.js';
import { AlertSettings as AlertSettingsInput, Assertion as AssertionInput, RetryStrategy as RetryStrategyInput } from './common.js';
import { nullable, ref, toResponseShape, type JsonSchema } from './response-shape.js';

/** Server timestamps: ISO-8601 strings. */
export const DateTime = { type: 'string', format: 'date-time' } as const;
export const NullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;

/** A `{key, value, locked}` pair of headers and query parameters. */
export const KeyValue = {
  $id: 'KeyValue',
  type: 'object',
  description: 'A header or query parameter',
  required: ['key'],
  properties: { key: { type: 'string' }, value: { type: ['string', 'null'] }, locked: { type: 'boolean' } },
};

/** An assertion of a check (any type's sources); `target` may be a number on the wire. */
export const Assertion = {
  $id: 'Assertion',
  type: 'object',
  description: 'An assertion of a check: where the value comes from, how it is compared and with what',
  required: ['source', 'comparison'],
  properties: {
    ...toResponseShape(AssertionInput).properties,
    property: { type: ['string', 'null'] },
    target: { type: ['string', 'number', 'null'] },
    regex: { type: ['string', 'null'] },
  },
};

/** An environment variable as read back: a secret's value is null. */
export const EnvironmentVariable = {
  $id: 'EnvironmentVariable',
  type: 'object',
  description: 'An environment variable; a secret reads back with value null',
  required: ['key', 'value'],
  properties: {
    key: { type: 'string' },
    value: { type: ['string', 'null'], description: 'null for a secret' },
    locked: { type: 'boolean' },
    secret: { type: 'boolean' },
  },
};

/** `retryStrategy` of checks (groups may also say "FALLBACK"). */
export const RetryStrategy = { $id: 'RetryStrategy', ...toResponseShape(RetryStrategyInput), description: 'How failed runs are retried' };

/** `alertSettings` of checks, groups and the account, with defaults filled in. */
export const AlertSettings = { $id: 'AlertSettings', ...toResponseShape(AlertSettingsInput), description: 'When alerts are sent' };

/** Lists in the merged request that hold named components instead of each type's copy. */
const REQUEST_LISTS: JsonSchema = {
  headers: { type: 'array', items: ref('KeyValue') },
  queryParameters: { type: 'array', items: ref('KeyValue') },
  assertions: { type: 'array', items: ref('Assertion') },
};

/**
 * The `request` of API, URL, TCP, DNS, ICMP and GRPC checks: every key of every type (which exist depends
 * on `checkType`; see each typed create route for what it accepts).
 */
export const CheckRequest = {
  $id: 'CheckRequest',
  type: 'object',
  description: 'The request of API, URL, TCP, DNS, ICMP, GRPC, SSL and TRACEROUTE checks; which keys exist depends on checkType',
  properties: {
    // The older types' definitions win where a key is shared (port, protocol, url...); DNS's nullable
    // `port` must come last, or a TRACEROUTE's null port would be written as 0.
    ...Object.assign({}, ...[SslRequest, TracerouteRequest, GrpcRequest].map((s) => toResponseShape(s).properties)),
    ...Object.assign({}, ...[ApiRequest, UrlRequest, TcpRequest, DnsRequest, IcmpRequest].map((s) => toResponseShape(s).properties)),
    ...REQUEST_LISTS,
  },
};

/** A heartbeat check's `heartbeat` object, with its server-assigned ping token and URL. */
export const Heartbeat = {
  $id: 'Heartbeat',
  ...toResponseShape(HeartbeatInput),
  required: ['period', 'periodUnit', 'grace', 'graceUnit', 'pingToken', 'pingUrl'],
  description: 'Expected ping period and grace; pingUrl is where the job pings',
};

const Subscription = {
  type: 'object',
  required: ['alertChannelId', 'activated'],
  properties: { alertChannelId: { type: 'integer' }, activated: { type: 'boolean' } },
};

/** The public config of each activated channel a check is subscribed to, by type. */
const AlertChannelsOfCheck = {
  type: 'object',
  description: 'The public config of each activated alert channel the check is subscribed to, by type',
  properties: {
    email: { type: 'array', items: { type: 'object', properties: { address: { type: 'string' } } } },
    webhook: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          url: { type: 'string' }, name: { type: 'string' }, method: { type: 'string' },
          headers: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, value: { type: ['string', 'null'] }, locked: { type: 'boolean' } } } },
          queryParameters: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, value: { type: ['string', 'null'] }, locked: { type: 'boolean' } } } },
        },
      },
    },
    slack: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' } } } },
    sms: { type: 'array', items: { type: 'object', properties: { number: { type: 'string' }, name: { type: 'string' } } } },
  },
};

/** Every property any check type accepts, in response form (the server echoes what it accepted). */
function acceptedProperties(): JsonSchema {
  const merged: JsonSchema = {};
  for (const type of CHECK_TYPES) Object.assign(merged, toResponseShape(CHECK_CREATE_SCHEMAS[type]).properties);
  return merged;
}

/**
 * A check as every route answers it, for every type: what the type accepts (with defaults filled
 * in) plus the server's fields. Type-specific keys are present only on their types.
 */
export const Check = {
  $id: 'Check',
  type: 'object',
  description: 'A check of any type; type-specific keys (request, heartbeat, script, prompt, ...) are present on their types only',
  required: ['id', 'checkType', 'name', 'activated', 'muted', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    checkType: { type: 'string', enum: [...CHECK_TYPES] },
    ...acceptedProperties(),
    // Filled by the defaults whatever was sent: never null on a read.
    activated: { type: 'boolean' },
    muted: { type: 'boolean' },
    doubleCheck: { type: 'boolean' },
    shouldFail: { type: 'boolean' },
    useGlobalAlertSettings: { type: 'boolean' },
    runParallel: { type: 'boolean' },
    frequency: { type: 'integer' },
    locations: { type: 'array', items: { type: 'string', enum: [...LOCATIONS] } },
    privateLocations: { type: 'array', items: { type: 'string' } },
    tags: { type: 'array', items: { type: 'string' } },
    dependencies: {
      type: ['array', 'null'],
      items: { type: 'object', required: ['path', 'content'], properties: { path: { type: 'string' }, content: { type: 'string' } } },
    },
    // API checks echo their script too (null when they have none).
    script: { type: ['string', 'null'], description: 'BROWSER, MULTI_STEP and PLAYWRIGHT: the script; API: null' },
    request: ref('CheckRequest'),
    heartbeat: ref('Heartbeat'),
    alertSettings: nullable(ref('AlertSettings')),
    retryStrategy: nullable(ref('RetryStrategy')),
    environmentVariables: { type: ['array', 'null'], items: ref('EnvironmentVariable') },
    alertChannelSubscriptions: { type: 'array', items: Subscription },
    alertChannels: AlertChannelsOfCheck,
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** Names `fields=` of the check routes accepts: every top-level field of a check. */
export const CHECK_FIELD_NAMES: ReadonlySet<string> = new Set(Object.keys(Check.properties));

/**
 * What `GET /v1/checks` and `GET /v1/checks/{id}` answer: a whole check, or with `fields=` only the
 * fields named (and `id`). Same properties as Check; only `id` is sure to be there.
 */
export const CheckFields = {
  $id: 'CheckFields',
  type: 'object',
  description: 'A check (see Check); with fields=, only the fields named, and id',
  required: ['id'],
  properties: Check.properties,
};

/** Schemas of this file registered as named components, in dependency order. */
export const CHECK_VIEW_SCHEMAS = [KeyValue, Assertion, EnvironmentVariable, RetryStrategy, AlertSettings, CheckRequest, Heartbeat, Check, CheckFields];
