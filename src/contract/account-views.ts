import { LOCATIONS, RUNTIME_IDS } from '../domain/catalog.js';
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

/** A member of the account: its users (the owner made at bootstrap; there are no invitations or teams). */
export const AccountMember = {
  $id: 'AccountMember',
  type: 'object',
  required: ['type', 'accountId', 'userId', 'name', 'email', 'role', 'status', 'createdAt', 'updatedAt', 'isSupportMembership', 'ssoEnabled', 'mfaEnabled'],
  properties: {
    type: { type: 'string', enum: ['member'] },
    accountId: { type: 'string', format: 'uuid' },
    userId: { type: 'string', format: 'uuid' },
    name: { type: ['string', 'null'] },
    email: { type: 'string' },
    role: { type: 'string', enum: ['OWNER'], description: 'Every user of a Lookout account owns it: there are no roles yet' },
    status: { type: 'string', enum: ['ACTIVE'] },
    createdAt: DateTime,
    updatedAt: DateTime,
    isSupportMembership: { type: 'boolean' },
    ssoEnabled: { type: 'boolean', description: 'Lookout has no single sign-on: always false' },
    mfaEnabled: { type: 'boolean', description: 'Lookout authenticates API keys only: always false' },
  },
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
  { $id: 'ApiKeyList', type: 'array', items: ref('ApiKey'), description: "The account's API keys, oldest first" },
];
