import { DateTime, NullableDateTime } from './check-views.js';

/** An account environment variable (`/v1/variables`): a secret's value reads back as null. */
export const Variable = {
  $id: 'Variable',
  type: 'object',
  description: 'An account-level environment variable; a secret reads back with value null',
  required: ['key', 'value', 'locked', 'secret', 'created_at', 'updated_at'],
  properties: {
    key: { type: 'string' },
    value: { type: ['string', 'null'] },
    locked: { type: 'boolean' },
    secret: { type: 'boolean' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};
