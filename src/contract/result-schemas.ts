import Type from 'typebox';
import { CHECK_TYPES } from '../domain/catalog.js';
import { PageQuery } from './common.js';
import { SLUG_PATTERN } from './private-location-schemas.js';

/** A UNIX time in seconds (fractions allowed), up to the end of year 9999. */
export const unixSeconds = (description: string) => Type.Number({ minimum: 0, maximum: 253_402_300_799, description });

export const CheckIdParams = Type.Object({ checkId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const CheckResultParams = Type.Object(
  { checkId: Type.String({ format: 'uuid' }), checkResultId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);

const ResultFilters = {
  from: Type.Optional(unixSeconds('UNIX seconds, inclusive lower bound of startedAt')),
  to: Type.Optional(unixSeconds('UNIX seconds, exclusive upper bound of startedAt')),
  location: Type.Optional(Type.String({ pattern: SLUG_PATTERN, description: 'A location, or the slug of a private location' })),
  checkType: Type.Optional(Type.Enum([...CHECK_TYPES])),
  hasFailures: Type.Optional(Type.Boolean()),
  resultType: Type.Optional(Type.Enum(['FINAL', 'ATTEMPT', 'ALL'], { description: 'FINAL (default), ATTEMPT or ALL' })),
};

/** Query of `GET /v2/check-results/{checkId}`. */
export const ResultCursorQuery = Type.Object(
  {
    ...ResultFilters,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    nextId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'The nextId of the previous page' })),
    fields: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 50, description: 'Fields to return for each entry (comma-separated or repeated); unknown names are ignored',
    })),
  },
  { additionalProperties: false },
);

/** Most results per check `GET /v2/check-results` answers: a dashboard's "latest results", not a history. */
export const MAX_RESULTS_PER_CHECK = 10;

/** Query of `GET /v2/check-results` (the latest results of several checks). */
export const ResultBatchQuery = Type.Object(
  {
    ...ResultFilters,
    checkIds: Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1, maxItems: 100, description: 'Checks whose latest results to return (comma-separated or repeated)',
    }),
    perCheck: Type.Optional(Type.Integer({
      minimum: 1, maximum: MAX_RESULTS_PER_CHECK, default: 5, description: 'Newest results per check',
    })),
    fields: ResultCursorQuery.properties.fields,
  },
  { additionalProperties: false },
);

/** Query of `GET /v1/check-results/{checkId}`. */
export const ResultPageQuery = Type.Object({ ...ResultFilters, ...PageQuery }, { additionalProperties: false });
