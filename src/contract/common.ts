import Type from 'typebox';
import {
  COMPARISONS, ALL_ASSERTION_SOURCES, ESCALATION_TYPES, LOCATIONS, RETRY_TYPES, RUNTIME_IDS,
} from '../domain/catalog.js';

/** An integer id (groups, channels, snippets): a PostgreSQL `integer`, so at most 2^31 − 1. */
export const IntId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** A display name: not blank. */
export const Name = Type.String({ minLength: 1, maxLength: 2048, pattern: '\\S' });

/** `T | null`: most optional fields of the API also accept an explicit null. */
export const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const KeyValue = Type.Object(
  { key: Type.String({ maxLength: 1024 }), value: Type.String({ maxLength: 10_000 }), locked: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const Assertion = Type.Object(
  {
    source: Type.Enum(ALL_ASSERTION_SOURCES),
    property: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
    comparison: Type.Enum([...COMPARISONS]),
    target: Type.Optional(Nullable(Type.Union([Type.String({ maxLength: 10_000 }), Type.Number()]))),
    regex: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  },
  { additionalProperties: false },
);

export const EnvironmentVariableInput = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 256 }),
    value: Type.String({ maxLength: 65_536 }),
    locked: Type.Optional(Type.Boolean()),
    secret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const EnvironmentVariables = Nullable(Type.Array(EnvironmentVariableInput, { maxItems: 100 }));

export const AlertSettings = Type.Object(
  {
    escalationType: Type.Optional(Type.Enum([...ESCALATION_TYPES])),
    runBasedEscalation: Type.Optional(
      Type.Object({ failedRunThreshold: Type.Integer({ minimum: 1, maximum: 5 }) }, { additionalProperties: false }),
    ),
    timeBasedEscalation: Type.Optional(
      Type.Object(
        { minutesFailingThreshold: Type.Union([5, 10, 15, 30].map((n) => Type.Literal(n))) },
        { additionalProperties: false },
      ),
    ),
    reminders: Type.Optional(
      Type.Object(
        {
          amount: Type.Union([0, 1, 2, 3, 4, 5, 100000].map((n) => Type.Literal(n))),
          interval: Type.Integer({ minimum: 1, maximum: 1440 }),
        },
        { additionalProperties: false },
      ),
    ),
    parallelRunFailureThreshold: Type.Optional(
      Type.Object(
        { enabled: Type.Boolean(), percentage: Type.Integer({ minimum: 10, maximum: 100 }) },
        { additionalProperties: false },
      ),
    ),
    sslCertificates: Type.Optional(
      Type.Object(
        { enabled: Type.Boolean(), alertThreshold: Type.Integer({ minimum: 1, maximum: 30 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const RetryStrategy = Type.Object(
  {
    type: Type.Enum([...RETRY_TYPES]),
    baseBackoffSeconds: Type.Optional(Type.Number({ minimum: 0, maximum: 600 })),
    maxRetries: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    maxDurationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600 })),
    sameRegion: Type.Optional(Type.Boolean()),
    onlyOn: Type.Optional(Nullable(Type.Array(Type.Literal('NETWORK_ERROR'), { maxItems: 1 }))),
  },
  { additionalProperties: false },
);

export const AlertChannelSubscriptionInput = Type.Object(
  { alertChannelId: IntId, activated: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const LocationList = Nullable(Type.Array(Type.Enum([...LOCATIONS]), { maxItems: LOCATIONS.length, uniqueItems: true }));
export const PrivateLocationList = Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100 }));
export const RuntimeIdField = Nullable(Type.Enum([...RUNTIME_IDS]));
export const Tags = Nullable(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100 }));

/** Offset pagination query (`page`, `limit`) shared by list routes. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
};

export const AutoAssignQuery = Type.Object(
  { autoAssignAlerts: Type.Optional(Type.Boolean({ default: true })) },
  { additionalProperties: false },
);
