import { CheckGroupCreate } from './check-group-schemas.js';
import { DateTime, NullableDateTime } from './check-views.js';
import { nullable, ref, toResponseShape } from './response-shape.js';

const accepted = toResponseShape(CheckGroupCreate).properties;

/** `apiCheckDefaults` of a group: what its API checks inherit. */
export const ApiCheckDefaults = {
  $id: 'ApiCheckDefaults',
  ...accepted.apiCheckDefaults,
  type: 'object',
  description: 'What the API checks of a group inherit: base URL, headers, query parameters, assertions, basic auth',
  properties: {
    ...accepted.apiCheckDefaults.properties,
    headers: { type: 'array', items: ref('KeyValue') },
    queryParameters: { type: 'array', items: ref('KeyValue') },
    assertions: { type: 'array', items: ref('Assertion') },
  },
};

/** A check group as every route answers it: what it accepts, with defaults filled in, plus the server's fields. */
export const CheckGroup = {
  $id: 'CheckGroup',
  type: 'object',
  description: 'A check group: defaults and settings applied to its checks',
  required: ['id', 'name', 'activated', 'muted', 'concurrency', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    ...accepted,
    apiCheckDefaults: nullable(ref('ApiCheckDefaults')),
    alertSettings: nullable(ref('AlertSettings')),
    retryStrategy: { anyOf: [ref('RetryStrategy'), { type: 'string', enum: ['FALLBACK'] }, { type: 'null' }], description: '"FALLBACK": each check uses its own' },
    environmentVariables: { type: ['array', 'null'], items: ref('EnvironmentVariable') },
    alertChannelSubscriptions: {
      type: 'array',
      items: { type: 'object', required: ['alertChannelId', 'activated'], properties: { alertChannelId: { type: 'integer' }, activated: { type: 'boolean' } } },
    },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** Schemas of this file registered as named components. */
export const CHECK_GROUP_VIEW_SCHEMAS = [ApiCheckDefaults, CheckGroup];
