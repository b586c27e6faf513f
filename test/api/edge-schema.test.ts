import { describe, expect, it } from 'vitest';
import type { LookoutError } from '../../src/domain/lookout-error.js';
import { INT_MAX, INT_MIN, toEdgeSchema, validateBody } from '../../src/contract/validation.js';

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

describe('the issues a failed validation names', () => {
  const nullableList = {
    type: 'object',
    properties: { list: { anyOf: [{ type: 'array', maxItems: 3, items: { enum: ['a', 'b'] } }, { type: 'null' }] } },
  };

  it.each([
    ['items of a nullable list: each item, not "must be null" for the list', { list: ['x', 'a', 'y'] }, [['list.0', 'must be one of a, b'], ['list.2', 'must be one of a, b']]],
    ['a nullable list that is too long: its length alone', { list: ['x', 'x', 'x', 'x'] }, [['list', 'must NOT have more than 3 items']]],
    ['a value of neither type: the first branch that says why', { list: 'text' }, [['list', 'must be array']]],
  ])('%s', (_name, body, expected) => {
    let keys: [string, string][] = [];
    try {
      validateBody(nullableList, body);
    } catch (err) {
      keys = (err as LookoutError).issues.map((i) => [i.key, i.message]);
    }
    expect(keys).toEqual(expected);
  });
});
