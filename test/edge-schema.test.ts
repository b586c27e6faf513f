import { describe, expect, it } from 'vitest';
import { INT_MAX, INT_MIN, toEdgeSchema } from '../src/contract/validation.js';

describe('the schema rules every route is compiled with', () => {
  it.each([
    ['an unbounded integer', { type: 'integer' }, { type: 'integer', minimum: INT_MIN, maximum: INT_MAX }],
    ['an integer with a minimum of its own', { type: 'integer', minimum: 1 }, { type: 'integer', minimum: 1, maximum: INT_MAX }],
    ['an integer with both bounds', { type: 'integer', minimum: 0, maximum: 5 }, { type: 'integer', minimum: 0, maximum: 5 }],
    ['an integer with an exclusive bound', { type: 'integer', exclusiveMaximum: 10 }, { type: 'integer', exclusiveMaximum: 10, minimum: INT_MIN }],
    ['a nullable integer', { type: ['integer', 'null'] }, { type: ['integer', 'null'], minimum: INT_MIN, maximum: INT_MAX }],
    ['a number (left alone)', { type: 'number' }, { type: 'number' }],
    ['an untyped enum of strings', { enum: ['A', 'B'] }, { enum: ['A', 'B'], type: 'string' }],
    ['an enum of mixed values (left alone)', { enum: ['A', 1] }, { enum: ['A', 1] }],
    ['a list with a length limit: its items are checked only within the limit', { type: 'array', maxItems: 3, items: { type: 'string' } }, { if: { maxItems: 3 }, then: { type: 'array', items: { type: 'string' } }, else: { maxItems: 3 } }],
    ['a length limit on a list of anything (left alone)', { type: 'array', maxItems: 3 }, { type: 'array', maxItems: 3 }],
  ])('%s', (_name, schema, expected) => {
    expect(toEdgeSchema(schema)).toEqual(expected);
  });

  it('applies them at every depth, leaving data keywords as they are', () => {
    const schema = {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['X'] }, page: { type: 'integer', default: 1 }, list: { type: 'array', items: { anyOf: [{ type: 'integer' }] } } },
      default: { page: { type: 'integer' } },
    };
    expect(toEdgeSchema(schema)).toEqual({
      type: 'object',
      required: ['type'],
      properties: {
        type: { enum: ['X'], type: 'string' },
        page: { type: 'integer', default: 1, minimum: INT_MIN, maximum: INT_MAX },
        list: { type: 'array', items: { anyOf: [{ type: 'integer', minimum: INT_MIN, maximum: INT_MAX }] } },
      },
      default: { page: { type: 'integer' } },
    });
  });
});
