import { ISSUE_CODES } from '../domain/issue-code.js';

/**
 * The body of every REST error (conventions.md): `{statusCode, error, message}`, plus `validation`
 * on 400 and `attributes` where the error carries facts of its own (429: limit, window, retryAfter).
 */
export const ErrorBody = {
  $id: 'Error',
  type: 'object',
  description: 'Every error answer: the status, its reason phrase and a message',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', description: 'The HTTP reason phrase' },
    message: { type: 'string' },
    validation: {
      type: 'object',
      description: '400 only: the invalid keys (each once, at most LOOKOUT_MAX_ERROR_ISSUES), each key\'s own message, and how many more there were',
      required: ['source', 'keys', 'issues', 'omitted'],
      properties: {
        source: { type: 'string', enum: ['payload', 'query', 'params', 'headers'] },
        keys: { type: 'array', items: { type: 'string' } },
        issues: {
          type: 'array',
          items: {
            type: 'object',
            required: ['key', 'message'],
            properties: {
              key: { type: 'string' },
              message: { type: 'string' },
              code: { type: 'string', enum: [...ISSUE_CODES], description: 'What kind of problem: REQUIRED, WRONG_TYPE, TOO_SHORT, TOO_LONG, TOO_SMALL, TOO_LARGE, NOT_ALLOWED, BAD_FORMAT, TOO_FEW_ITEMS, TOO_MANY_ITEMS, DUPLICATE or INVALID (a rule between fields, an unknown reference)' },
            },
          },
        },
        omitted: { type: 'integer' },
      },
    },
    attributes: {
      type: 'object',
      additionalProperties: true,
      description: 'Facts of the error; 429: {limit, window, retryAfter}; 503: {code: DATABASE_UNAVAILABLE, retryAfter}; 507: {code: STORAGE_FULL, cause}',
      properties: {
        limit: { type: 'integer', description: '429: requests allowed per window' },
        window: { type: 'integer', description: '429: the window in seconds' },
        retryAfter: { type: 'integer', description: '429: seconds until the next request is allowed' },
      },
    },
  },
};
