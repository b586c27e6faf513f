import Type from 'typebox';

/** A variable key as scripts read it: `process.env.KEY`, `{{KEY}}`. */
export const VariableKey = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', minLength: 1, maxLength: 256 });
const Value = Type.String({ maxLength: 65_536 });

export const VariableCreate = Type.Object(
  { key: VariableKey, value: Value, locked: Type.Optional(Type.Boolean()), secret: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

/** Update: `key` may be sent but must be the path's key; `value` left out keeps the stored value. */
export const VariableUpdate = Type.Object(
  {
    key: Type.Optional(VariableKey),
    value: Type.Optional(Value),
    locked: Type.Optional(Type.Boolean()),
    secret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
