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

/** A header or query parameter of a request; `value` defaults to "" (clients that drop empty strings leave it out). */
export const KeyValue = Type.Object(
  { key: Type.String({ maxLength: 1024 }), value: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))), locked: Type.Optional(Nullable(Type.Boolean())) },
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

/**
 * An environment variable of a check or group. `value` left out or null keeps the stored value of
 * the same key (a secret reads back as null), else it is "".
 */
export const EnvironmentVariableInput = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 256 }),
    value: Type.Optional(Nullable(Type.String({ maxLength: 65_536 }))),
    locked: Type.Optional(Nullable(Type.Boolean())),
    secret: Type.Optional(Nullable(Type.Boolean())),
  },
  { additionalProperties: false },
);
export const EnvironmentVariables = Nullable(Type.Array(EnvironmentVariableInput, { maxItems: 100 }));

/** An optional field that also accepts null: "not given" (the default on create, left as stored on update). */
const opt = <T extends Type.TSchema>(schema: T) => Type.Optional(Nullable(schema));
/** An object every key of which may be left out (filled from its defaults, or merged over the stored one). */
const partialOf = (props: Type.TProperties) => opt(Type.Object(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, opt(v)])), { additionalProperties: false }));

/** Alert settings: every key, at every depth, may be left out (see merge-update.ts). */
export const AlertSettings = Type.Object(
  {
    escalationType: opt(Type.Enum([...ESCALATION_TYPES])),
    runBasedEscalation: partialOf({ failedRunThreshold: Type.Integer({ minimum: 1, maximum: 5 }) }),
    timeBasedEscalation: partialOf({ minutesFailingThreshold: Type.Union([5, 10, 15, 30].map((n) => Type.Literal(n))) }),
    reminders: partialOf({
      amount: Type.Union([0, 1, 2, 3, 4, 5, 100000].map((n) => Type.Literal(n))),
      interval: Type.Integer({ minimum: 1, maximum: 1440 }),
    }),
    parallelRunFailureThreshold: partialOf({ enabled: Type.Boolean(), percentage: Type.Integer({ minimum: 10, maximum: 100 }) }),
    sslCertificates: partialOf({ enabled: Type.Boolean(), alertThreshold: Type.Integer({ minimum: 1, maximum: 30 }) }),
  },
  { additionalProperties: false },
);

export const RetryStrategy = Type.Object(
  {
    type: Type.Enum([...RETRY_TYPES]),
    baseBackoffSeconds: opt(Type.Number({ minimum: 0, maximum: 600 })),
    maxRetries: opt(Type.Integer({ minimum: 1, maximum: 10 })),
    maxDurationSeconds: opt(Type.Integer({ minimum: 0, maximum: 600 })),
    sameRegion: opt(Type.Boolean()),
    onlyOn: Type.Optional(Nullable(Type.Array(Type.Literal('NETWORK_ERROR'), { maxItems: 1 }))),
  },
  { additionalProperties: false },
);

export const AlertChannelSubscriptionInput = Type.Object(
  { alertChannelId: IntId, activated: opt(Type.Boolean()) },
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

/** Whether a schema accepts null already. */
function acceptsNull(schema: Type.TSchema): boolean {
  return Type.IsNull(schema) || (schema as { nullable?: boolean }).nullable === true || (Type.IsUnion(schema) && schema.anyOf.some(acceptsNull));
}

/** Options of a schema (its keywords besides the structural ones), to rebuild it. */
function optionsOf(schema: Type.TSchema, structural: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !structural.includes(k)));
}

/**
 * `schema` also accepting null. An object takes Ajv's `nullable` keyword rather than a union with
 * null, so a bad key inside it is named once (`request.port`), not also as "request must be null".
 */
function orNull(schema: Type.TSchema): Type.TSchema {
  if (acceptsNull(schema)) return schema;
  if (Type.IsObject(schema)) return Type.Object(schema.properties, { ...optionsOf(schema, ['type', 'properties', 'required']), nullable: true });
  return Nullable(schema);
}

/**
 * The update form of a request schema (update semantics, README "Update semantics"): every key
 * of every object may be left out or sent as null ("leave as stored"), at every depth, objects
 * inside unions included. List items stay whole: a list sent replaces the stored one.
 */
export function toUpdateSchema(schema: Type.TSchema): Type.TSchema {
  if (Type.IsUnion(schema)) return Type.Union(schema.anyOf.map(toUpdateSchema), optionsOf(schema, ['anyOf']));
  if (!Type.IsObject(schema)) return schema;
  const props = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => {
      return [k, Type.Optional(orNull(toUpdateSchema(v)))];
    }),
  );
  return Type.Object(props, optionsOf(schema, ['type', 'properties', 'required']));
}

/**
 * A create schema as the update semantics read it: every optional key also accepts null ("not
 * given": its default), at every depth, list items included. Required keys stay required.
 */
export function nullWhereOptional(schema: Type.TSchema): Type.TSchema {
  if (Type.IsUnion(schema)) return Type.Union(schema.anyOf.map(nullWhereOptional), optionsOf(schema, ['anyOf']));
  if (Type.IsArray(schema)) return Type.Array(nullWhereOptional(schema.items), optionsOf(schema, ['type', 'items']));
  if (!Type.IsObject(schema)) return schema;
  const props = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => {
      const inner = nullWhereOptional(v);
      return [k, Type.IsOptional(v) ? Type.Optional(orNull(inner)) : inner];
    }),
  );
  return Type.Object(props, optionsOf(schema, ['type', 'properties', 'required']));
}
