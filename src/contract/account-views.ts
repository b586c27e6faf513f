import { LOCATIONS, RUNTIME_IDS } from '../domain/catalog.js';
import { ROLES } from '../domain/roles.js';
import { DateTime } from './check-views.js';
import { ref } from './response-shape.js';

const AddonTier = { type: 'object', required: ['tier', 'tierDisplayName'], properties: { tier: { type: 'string' }, tierDisplayName: { type: 'string' } } };
const Addons = {
  type: 'object',
  description: 'Add-on tiers of the hosted service; a self-hosted installation has them all',
  properties: { communicate: AddonTier, resolve: AddonTier },
};

/** What every view of an account shows. */
const ACCOUNT_CORE = {
  id: { type: 'string', format: 'uuid' },
  name: { type: 'string' },
  runtimeId: { type: 'string', enum: [...RUNTIME_IDS] },
  plan: { type: 'string' },
  planDisplayName: { type: 'string' },
  addons: Addons,
};

/** The caller's account (`/v1/accounts`). */
export const Account = {
  $id: 'Account',
  type: 'object',
  description: "The caller's account",
  required: ['id', 'name', 'runtimeId', 'plan', 'planDisplayName', 'created_at'],
  properties: {
    ...ACCOUNT_CORE,
    settings: { type: 'object', additionalProperties: true, description: 'Account settings (free-form)' },
    alertSettings: ref('AlertSettings'),
    created_at: DateTime,
  },
};

/** The account as `/next/accounts` shows it to CLIs. */
export const NextAccount = {
  $id: 'NextAccount',
  type: 'object',
  description: 'The account as CLIs read it before anything else',
  required: ['id', 'name', 'runtimeId', 'plan', 'planDisplayName'],
  properties: {
    ...ACCOUNT_CORE,
    features: { type: 'array', items: { type: 'string' }, description: 'Feature flags of the hosted service (none here)' },
  },
};

/** The user behind an API key. */
export const User = {
  $id: 'User',
  type: 'object',
  required: ['id', 'name', 'email'],
  properties: { id: { type: 'string' }, name: { type: ['string', 'null'] }, email: { type: ['string', 'null'] } },
};

/** A data-center location. */
export const Location = {
  $id: 'Location',
  type: 'object',
  required: ['region', 'name'],
  properties: { region: { type: 'string', enum: [...LOCATIONS] }, name: { type: 'string' } },
};

/** A runtime and the npm packages checks may import in it. */
export const Runtime = {
  $id: 'Runtime',
  type: 'object',
  required: ['name', 'stage', 'nodeJsVersion', 'runtimeEndOfLife', 'description', 'dependencies'],
  properties: {
    name: { type: 'string', enum: [...RUNTIME_IDS] },
    stage: { type: 'string', enum: ['CURRENT', 'DEPRECATED'] },
    multiStepSupport: { type: 'boolean', description: 'Whether MULTI_STEP checks may use it' },
    nodeJsVersion: { type: 'string' },
    runtimeEndOfLife: { type: ['string', 'null'], description: 'ISO date after which it no longer runs checks' },
    description: { type: 'string' },
    dependencies: { type: 'object', additionalProperties: { type: 'string' }, description: 'npm package name → version, plus node' },
  },
};

/** Source addresses of check runs. */
export const StaticIps = { $id: 'StaticIps', type: 'array', items: { type: 'string' }, description: 'Source addresses of check runs' };

/** Source addresses per location (every location runs on this machine, so each maps to the same list). */
export const StaticIpsByRegion = {
  $id: 'StaticIpsByRegion',
  type: 'object',
  description: 'Location → source addresses',
  properties: Object.fromEntries(LOCATIONS.map((l) => [l, { type: 'array', items: { type: 'string' } }])),
};

/** The account's plan and what it may use (`GET /v1/accounts/me/entitlements`, `checkly account plan`). */
export const AccountPlan = {
  $id: 'AccountPlan',
  type: 'object',
  required: ['plan', 'planDisplayName', 'addons', 'locations', 'entitlements'],
  properties: {
    plan: { type: 'string' },
    planDisplayName: { type: 'string' },
    addons: Addons,
    locations: {
      type: 'object',
      required: ['all', 'maxPerCheck'],
      properties: {
        all: {
          type: 'array',
          items: { type: 'object', required: ['id', 'name', 'available'], properties: { id: { type: 'string' }, name: { type: 'string' }, available: { type: 'boolean' } } },
        },
        maxPerCheck: { type: 'integer' },
      },
    },
    entitlements: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'name', 'description', 'type', 'enabled'],
        properties: {
          key: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' },
          type: { type: 'string', enum: ['metered', 'flag'] }, enabled: { type: 'boolean' },
        },
      },
    },
  },
};

const RoleSchema = { type: 'string', enum: [...ROLES], description: 'Owner, Admin, Read & Write, Read & Run or Read Only (Checkly\'s roles)' };

/** A member of the account (`type: member`) or an open invitation (`type: invite`, no user yet). */
export const AccountMember = {
  $id: 'AccountMember',
  type: 'object',
  required: ['type', 'accountId', 'userId', 'name', 'email', 'role', 'status', 'createdAt', 'updatedAt', 'isSupportMembership', 'ssoEnabled', 'mfaEnabled'],
  properties: {
    type: { type: 'string', enum: ['member', 'invite'] },
    id: { type: 'string', format: 'uuid', description: 'An invitation\'s id (invitations only)' },
    accountId: { type: 'string', format: 'uuid' },
    userId: { type: ['string', 'null'], format: 'uuid', description: 'null for an invitation' },
    name: { type: ['string', 'null'] },
    email: { type: 'string' },
    role: RoleSchema,
    status: { type: 'string', enum: ['ACTIVE', 'PENDING', 'EXPIRED'], description: 'ACTIVE members; PENDING or EXPIRED invitations' },
    createdAt: DateTime,
    updatedAt: DateTime,
    expiresAt: { ...DateTime, description: 'When an invitation\'s link stops working (invitations only)' },
    isSupportMembership: { type: 'boolean' },
    ssoEnabled: { type: 'boolean', description: 'Whether the person signs in through single sign-on' },
    mfaEnabled: { type: 'boolean', description: 'Whether the person has a TOTP second factor' },
  },
};

/** The answer of `POST /v1/accounts/me/invitations`: the link, this once. */
export const CreatedInvitation = {
  $id: 'CreatedInvitation',
  type: 'object',
  required: ['type', 'id', 'email', 'role', 'status', 'expiresAt', 'link', 'emailed'],
  properties: {
    ...AccountMember.properties,
    link: { type: 'string', description: 'The link to accept the invitation (shown this once; mailed too when SMTP is configured)' },
    emailed: { type: 'boolean', description: 'Whether the link was mailed to the address' },
  },
};

/** The caller's rights (`GET /v1/accounts/me/access`). */
export const Access = {
  $id: 'Access',
  type: 'object',
  required: ['accountId', 'role', 'userId', 'keyId', 'sessionId', 'label'],
  properties: {
    accountId: { type: 'string', format: 'uuid' },
    role: RoleSchema,
    userId: { type: ['string', 'null'], format: 'uuid', description: 'The person acting; null for a service key' },
    keyId: { type: ['string', 'null'], format: 'uuid', description: 'The API key used; null for a console session' },
    sessionId: { type: ['string', 'null'], format: 'uuid', description: 'The console session used; null for a key' },
    label: { type: 'string', description: 'The caller in words (email or key name), as the audit log shows it' },
  },
};

/** A console session: the person, their accounts and the CSRF token writes must carry. */
export const Session = {
  $id: 'Session',
  type: 'object',
  required: ['user', 'accounts', 'accountId', 'role', 'csrfToken'],
  properties: {
    user: {
      type: 'object', required: ['id', 'name', 'email', 'totpEnabled'],
      properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, email: { type: 'string' }, totpEnabled: { type: 'boolean' } },
    },
    accounts: {
      type: 'array',
      items: { type: 'object', required: ['id', 'name', 'role'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, role: RoleSchema } },
    },
    accountId: { type: ['string', 'null'], format: 'uuid', description: 'The account requests act in unless they send X-Lookout-Account' },
    role: { type: ['string', 'null'], enum: [...ROLES, null] },
    csrfToken: { type: 'string', description: 'Send it as X-Lookout-Csrf with every request made with the session cookie' },
  },
};

/** What an invitation link offers (`GET /v1/invitations/{token}`). */
export const InvitationOffer = {
  $id: 'InvitationOffer',
  type: 'object',
  required: ['accountName', 'email', 'role', 'hasAccount'],
  properties: {
    accountName: { type: 'string' }, email: { type: 'string' }, role: RoleSchema,
    hasAccount: { type: 'boolean', description: 'Whether the address already signs in (then sign in first, and accept signed in)' },
  },
};

/** TOTP enrolment: the secret, shown this once. */
export const TotpEnrolment = {
  $id: 'TotpEnrolment',
  type: 'object',
  required: ['secret', 'uri'],
  properties: { secret: { type: 'string', description: 'Base32, for typing into an authenticator app' }, uri: { type: 'string', description: 'otpauth:// URI (for a QR code)' } },
};

/** An admin-issued password-reset link. */
export const ResetLink = {
  $id: 'ResetLink', type: 'object', required: ['link', 'expiresAt'], properties: { link: { type: 'string' }, expiresAt: DateTime },
};

/** Which single sign-on the server offers (`GET /v1/sso`). */
export const SsoOptions = {
  $id: 'SsoOptions',
  type: 'object',
  required: ['oidc'],
  properties: { oidc: { type: 'object', required: ['enabled', 'name'], properties: { enabled: { type: 'boolean' }, name: { type: 'string' } } } },
};

/** A page of `GET /v1/accounts/me/members`. */
export const AccountMemberPage = {
  $id: 'AccountMemberPage',
  type: 'object',
  required: ['members', 'length', 'nextId'],
  properties: { members: { type: 'array', items: ref('AccountMember') }, length: { type: 'integer' }, nextId: { type: ['string', 'null'] } },
};

const API_KEY_FIELDS = {
  id: { type: 'string', format: 'uuid' },
  name: { type: 'string' },
  prefix: { type: ['string', 'null'], description: 'The first characters of the key (`lo_` and 8 more); null for keys made before prefixes were kept' },
  maskedKey: { type: 'string', description: 'The last four characters of the key, after eight asterisks' },
  createdAt: DateTime,
  lastUsedAt: { type: ['string', 'null'], format: 'date-time', description: 'When the key last authenticated a request (to the minute); null when never' },
  kind: { type: 'string', enum: ['service', 'personal'], description: 'service: carries a role, acts for no person; personal: acts as its person' },
  role: { type: ['string', 'null'], enum: [...ROLES, null], description: "A service key's role, or a personal key's person's role now (null once they left)" },
  userId: { type: ['string', 'null'], format: 'uuid', description: 'The person a personal key acts as' },
  expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'When the key stops working; null: never' },
};

/** An API key of the account: never the key itself, nor its hash. */
export const ApiKey = {
  $id: 'ApiKey',
  type: 'object',
  description: 'An API key of the account (the key itself is shown only when it is created)',
  required: ['id', 'name', 'prefix', 'maskedKey', 'createdAt', 'lastUsedAt'],
  properties: API_KEY_FIELDS,
};

/** The answer of `POST /v1/accounts/me/api-keys`: the key, this once. */
export const CreatedApiKey = {
  $id: 'CreatedApiKey',
  type: 'object',
  description: 'A new API key with the key itself: it is stored hashed and never shown again',
  required: ['id', 'name', 'prefix', 'maskedKey', 'createdAt', 'lastUsedAt', 'key'],
  properties: { ...API_KEY_FIELDS, key: { type: 'string', description: 'The key; send it as `Authorization: Bearer <key>`' } },
};

/** The answer of `POST /v1/admin/accounts` (the command line's `lookout accounts create`). */
export const AdminCreatedAccount = {
  $id: 'AdminCreatedAccount',
  type: 'object',
  description: 'A new account and its first API key (shown this once)',
  required: ['accountId', 'key'],
  properties: { accountId: { type: 'string', format: 'uuid' }, key: { type: 'string' } },
};

/** Schemas of this file registered as named components. */
export const ACCOUNT_VIEW_SCHEMAS = [
  Account, NextAccount, User, Location, Runtime, StaticIps, StaticIpsByRegion, AccountPlan, AccountMember, AccountMemberPage, ApiKey, CreatedApiKey, AdminCreatedAccount,
  CreatedInvitation, Access, Session, InvitationOffer, TotpEnrolment, ResetLink, SsoOptions,
  { $id: 'InvitationList', type: 'array', items: ref('AccountMember'), description: 'Open invitations, newest first' },
  { $id: 'ApiKeyList', type: 'array', items: ref('ApiKey'), description: "The account's API keys, oldest first" },
];
