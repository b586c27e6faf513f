import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../../web/src/shared/user-errors.js';

const FIELDS = ['name', 'request', 'request.url', 'request.assertions', 'locations'];

describe('placing userErrors on form fields', () => {
  it.each<[string, string | null, string | null]>([
    ['an exact path', 'request.url', 'request.url'],
    ['a list item, on its list', 'locations.0', 'locations'],
    ['a nested path, on the longest field naming a prefix', 'request.assertions.0.target', 'request.assertions'],
    ['a sibling of a known field, on its parent', 'request.port', 'request'],
    ['a path no field names, on the form', 'frequencyOffset', null],
    ['no path (the input as a whole), on the form', null, null],
  ])('puts an error of %s', (_name, field, expected) => {
    const result = fieldErrors([{ field, code: 'BAD_USER_INPUT', message: 'is wrong' }], FIELDS);
    if (expected) expect(result).toEqual({ byField: { [expected]: ['is wrong'] }, general: [] });
    else expect(result).toEqual({ byField: {}, general: [field ? `${field}: is wrong` : 'is wrong'] });
  });

  it('keeps every message of a field, in order', () => {
    expect(fieldErrors([
      { field: 'name', code: 'BAD_USER_INPUT', message: 'is required' },
      { field: 'name', code: 'BAD_USER_INPUT', message: 'is too long' },
      { field: null, code: 'TOO_MANY_ERRORS', message: '3 more invalid fields' },
    ], FIELDS)).toEqual({ byField: { name: ['is required', 'is too long'] }, general: ['3 more invalid fields'] });
  });
});
