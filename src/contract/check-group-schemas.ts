import Type from 'typebox';
import { ASSERTION_SOURCES } from '../domain/catalog.js';
import {
  AlertChannelSubscriptionInput, AlertSettings, Assertion, EnvironmentVariables, KeyValue, LocationList, Nullable,
  Name, PrivateLocationList, RetryStrategy, RuntimeIdField, Tags,
  IntId, nullWhereOptional, toUpdateSchema,
} from './common.js';
import { BasicAuth } from './check-schemas.js';

const ApiCheckDefaults = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    headers: Type.Optional(Type.Array(KeyValue, { maxItems: 100 })),
    queryParameters: Type.Optional(Type.Array(KeyValue, { maxItems: 100 })),
    assertions: Type.Optional(
      Type.Array(Type.Object({ ...Assertion.properties, source: Type.Enum([...(ASSERTION_SOURCES.API ?? [])]) }, { additionalProperties: false }), { maxItems: 100 }),
    ),
    basicAuth: Type.Optional(BasicAuth),
  },
  { additionalProperties: false },
);

/** Body of check group creation (`POST /v2/check-groups`); optional keys also take null ("not given"), at every depth. */
export const CheckGroupCreate = nullWhereOptional(Type.Object(
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
)) as Type.TObject;

/** Body of check group updates: every key optional and nullable at every depth (merged by the update semantics). */
export const CheckGroupUpdate = toUpdateSchema(CheckGroupCreate) as Type.TObject;
