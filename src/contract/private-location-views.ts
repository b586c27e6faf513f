import { DateTime, NullableDateTime } from './check-views.js';

/** A private location key: masked; `rawKey` only in the answer that created it. */
export const PrivateLocationKey = {
  $id: 'PrivateLocationKey',
  type: 'object',
  description: 'A key agents authenticate with; rawKey is only in the answer that created it',
  required: ['id', 'maskedKey', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    rawKey: { type: 'string', description: 'Only in the answer that created the key' },
    maskedKey: { type: 'string' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** A private location (`/v1/private-locations`). */
export const PrivateLocation = {
  $id: 'PrivateLocation',
  type: 'object',
  description: 'A location inside a customer network, run by agents',
  required: ['id', 'name', 'slugName', 'icon', 'proxyUrl', 'keys', 'lastSeen', 'agentCount', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    slugName: { type: 'string' },
    icon: { type: ['string', 'null'] },
    proxyUrl: { type: ['string', 'null'] },
    keys: { type: 'array', items: { $ref: 'PrivateLocationKey#' } },
    lastSeen: NullableDateTime,
    agentCount: { type: 'integer' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** Schemas of this file registered as named components. */
export const PRIVATE_LOCATION_VIEW_SCHEMAS = [PrivateLocationKey, PrivateLocation];
