import { DateTime, NullableDateTime } from './check-views.js';

/** A snippet (`/v1/snippets`): code checks and groups use as setup or teardown script. */
export const Snippet = {
  $id: 'Snippet',
  type: 'object',
  description: 'Code shared by checks and groups as setup and teardown scripts',
  required: ['id', 'name', 'script', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    script: { type: 'string' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};
