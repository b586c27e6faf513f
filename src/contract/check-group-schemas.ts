import Type from 'typebox';
import { ASSERTION_SOURCES } from '../domain/catalog.js';
import {
  AlertChannelSubscriptionInput, AlertSettings, Assertion, EnvironmentVariables, KeyValue, LocationList, Nullable,
  Name, PrivateLocationList, RetryStrategy, RuntimeIdField, Tags,
  IntId,
} from './common.js';
import { partialObject } from './check-schemas.js';

const ApiCheckDefaults = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    headers: Type.Optional(Type.Array(KeyValue, { maxItems: 100 })),
    queryParameters: Type.Optional(Type.Array(KeyValue, { maxItems: 100 })),
    assertions: Type.Optional(
      Type.Array(Type.Object({ ...Assertion.properties, source: Type.Enum([...(ASSERTION_SOURCES.API ?? [])]) }, { additionalProperties: false }), { maxItems: 100 }),
    ),
    basicAuth: Type.Optional(
      Nullable(Type.Object({ username: Type.String({ maxLength: 1024 }), password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
);

/** Body of check group creation (`POST /v2/check-groups`). */
export const CheckGroupCreate = Type.Object(
  {
    name: Name,
    activated: Type.Optional(Type.Boolean()),
    muted: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Tags),
    locations: Type.Optional(LocationList),
    privateLocations: Type.Optional(PrivateLocationList),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    apiCheckDefaults: Type.Optional(Nullable(ApiCheckDefaults)),
    browserCheckDefaults: Type.Optional(Nullable(Type.Union([Type.String({ maxLength: 100_000 }), Type.Object({})]))),
    runtimeId: Type.Optional(RuntimeIdField),
    environmentVariables: Type.Optional(EnvironmentVariables),
    alertChannelSubscriptions: Type.Optional(Nullable(Type.Array(AlertChannelSubscriptionInput, { maxItems: 100 }))),
    setupSnippetId: Type.Optional(Nullable(IntId)),
    tearDownSnippetId: Type.Optional(Nullable(IntId)),
    localSetupScript: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
    localTearDownScript: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
    runParallel: Type.Optional(Nullable(Type.Boolean())),
    alertSettings: Type.Optional(Nullable(AlertSettings)),
    retryStrategy: Type.Optional(Nullable(Type.Union([RetryStrategy, Type.Literal('FALLBACK')]))),
    useGlobalAlertSettings: Type.Optional(Nullable(Type.Boolean())),
    doubleCheck: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Body of check group updates: every field optional. */
export const CheckGroupUpdate = partialObject(CheckGroupCreate);
