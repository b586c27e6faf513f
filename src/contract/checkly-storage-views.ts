/** A file stored through `/next/checkly-storage/*`: its key, account-scoped. */
export const StoredFile = {
  $id: 'StoredFile',
  type: 'object',
  description: 'The key of a stored code bundle or file; only the account that uploaded it can use it',
  required: ['key'],
  properties: { key: { type: 'string' } },
};
