import Type from 'typebox';
import { Nullable } from './common.js';

/** A variable key as scripts read it: `process.env.KEY`, `{{KEY}}`. */
export const VariableKey = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', minLength: 1, maxLength: 256 });
const Value = Type.String({ maxLength: 65_536 });

/** Create: `value` is required (service-api.md); `locked` and `secret` left out or null are false. */
export const VariableCreate = Type.Object(
  { key: VariableKey, value: Value, locked: Type.Optional(Nullable(Type.Boolean())), secret: Type.Optional(Nullable(Type.Boolean())) },
  { additionalProperties: false },
);

/** Update: `key` may be sent but must be the path's key; any field left out or null keeps the stored value. */
export const VariableUpdate = Type.Object(
  {
    key: Type.Optional(Nullable(VariableKey)),
    value: Type.Optional(Nullable(Value)),
    locked: Type.Optional(Nullable(Type.Boolean())),
    secret: Type.Optional(Nullable(Type.Boolean())),
  },
  { additionalProperties: false },
);
