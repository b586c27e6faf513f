import Type from 'typebox';
import { API_KEY_NAME_MAX } from '../domain/api-key.js';
import { RUNTIME_IDS } from '../domain/catalog.js';
import { PASSWORD_MAX } from '../domain/password-issues.js';
import { ROLES } from '../domain/roles.js';
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
    role: Type.Optional(Type.Enum([...ROLES])),
    status: Type.Optional(Type.Enum(['ACTIVE', 'PENDING', 'EXPIRED'])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    nextId: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { additionalProperties: false },
);

const RoleInput = Type.Enum([...ROLES], { description: 'OWNER, ADMIN, READ_WRITE, READ_RUN or READ_ONLY' });
const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$', description: 'An email address' });
const Password = Type.String({ minLength: 1, maxLength: PASSWORD_MAX });
const Token = Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });

/** Body of `POST /v1/accounts/me/api-keys`. */
export const ApiKeyCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX, pattern: '\\S', description: 'What the key is for (shown in lists)' }),
    kind: Type.Optional(Type.Enum(['service', 'personal'], {
      description: 'service: carries `role`; personal: acts as the caller\'s person. Default: personal for a person unless `role` is given, else service',
    })),
    role: Type.Optional({ ...RoleInput, description: 'A service key\'s role: at most the caller\'s (default: the caller\'s)' }),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the key stops working (default: never)' })),
  },
  { additionalProperties: false },
);

/** Body of `POST /v1/session`. */
export const SignIn = Type.Object(
  { email: Email, password: Password, totp: Type.Optional(Type.String({ pattern: '^\\s*\\d{6}\\s*$', description: 'The 6-digit code, when the person has a second factor' })) },
  { additionalProperties: false },
);

export const SwitchAccount = Type.Object({ accountId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const MemberParams = Type.Object({ userId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const MemberUpdate = Type.Object({ role: RoleInput }, { additionalProperties: false });
export const InvitationCreate = Type.Object({ email: Email, role: RoleInput }, { additionalProperties: false });
export const InvitationIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const TokenParams = Type.Object({ token: Token }, { additionalProperties: false });
export const InvitationAccept = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' })), password: Type.Optional(Password) },
  { additionalProperties: false },
);
export const PasswordChange = Type.Object({ currentPassword: Password, newPassword: Password }, { additionalProperties: false });
export const TotpCode = Type.Object({ code: Type.String({ pattern: '^\\s*\\d{6}\\s*$' }) }, { additionalProperties: false });
export const ResetRequest = Type.Object({ email: Email }, { additionalProperties: false });
export const ResetPassword = Type.Object({ password: Password }, { additionalProperties: false });

export const ApiKeyIdParams = Type.Object({ keyId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

/**
 * Query of `GET /v1/sso/oidc/start`: where to land once signed in. Any value is taken (a browser
 * follows this link: a 400 would strand the person); one that is not a local path lands on `/`.
 */
export const SsoStartQuery = Type.Object({ returnTo: Type.Optional(Type.String()) });

/**
 * Query of `GET /v1/sso/oidc/callback`, as the provider sends it: `code` and `state`, or `error`;
 * providers add more (`iss`, `session_state`), so other keys are accepted.
 */
export const SsoCallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
});
