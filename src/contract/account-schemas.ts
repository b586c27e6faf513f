import Type from 'typebox';
import { API_KEY_NAME_MAX } from '../domain/api-key.js';
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

/** Query of `GET /v1/accounts/me/members` (the CLI's `members` flags). */
export const AccountMemberQuery = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: 200 })),
    type: Type.Optional(Type.Enum(['member', 'invite'])),
    role: Type.Optional(Type.Enum(['OWNER', 'ADMIN', 'READ_WRITE', 'READ_RUN', 'READ_ONLY'])),
    status: Type.Optional(Type.Enum(['ACTIVE', 'PENDING', 'EXPIRED'])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    nextId: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { additionalProperties: false },
);

/** Body of `POST /v1/accounts/me/api-keys`. */
export const ApiKeyCreate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX, pattern: '\\S', description: 'What the key is for (shown in lists)' }) },
  { additionalProperties: false },
);

export const ApiKeyIdParams = Type.Object({ keyId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
