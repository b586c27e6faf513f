import Type from 'typebox';
import { RUNTIME_IDS } from '../domain/catalog.js';
import { AlertSettings } from './common.js';

/** Body of `PUT /v1/accounts/me`: the fields given replace the stored ones. */
export const AccountUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' })),
    runtimeId: Type.Optional(Type.Enum([...RUNTIME_IDS])),
    alertSettings: Type.Optional(AlertSettings),
  },
  { additionalProperties: false },
);

export const AccountIdParams = Type.Object({ accountId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
