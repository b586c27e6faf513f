import { describe, expect, it } from 'vitest';
import { fieldErrors, fieldLabel, userErrorText } from '../../../web/src/shared/user-errors.js';

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
    const result = fieldErrors([{ field, code: 'BAD_USER_INPUT', message: 'Something is off' }], FIELDS);
    if (expected) expect(result).toEqual({ byField: { [expected]: ['Something is off'] }, general: [] });
    else expect(result).toEqual({ byField: {}, general: [field ? `${fieldLabel(field)}: Something is off` : 'Something is off'] });
  });

  it('keeps every message of a field, in order, worded for people', () => {
    expect(fieldErrors([
      { field: 'name', code: 'BAD_USER_INPUT', message: 'is required' },
      { field: 'name', code: 'BAD_USER_INPUT', message: 'must NOT have more than 200 characters' },
      { field: null, code: 'TOO_MANY_ERRORS', message: '3 more invalid fields' },
    ], FIELDS)).toEqual({ byField: { name: ['Name is required', 'Name must be at most 200 characters long'] }, general: ['3 more invalid fields'] });
  });
});

describe('userErrors in words for people', () => {
  const text = (field: string | null, message: string, reason?: string) => userErrorText({ field, code: 'BAD_USER_INPUT', message, reason });

  it('names fields in words', () => {
    expect(fieldLabel('request.url')).toBe('URL');
    expect(fieldLabel('request.assertions.0.target')).toBe('Target');
    expect(fieldLabel('repeatInterval')).toBe('Repeat interval');
    expect(fieldLabel('alertSettings.reminders.interval')).toBe('Minutes between reminders');
    expect(fieldLabel('(root)')).toBe('This');
  });

  it.each([
    ['an empty name (Ajv\'s minLength 1)', 'name', 'must NOT have fewer than 1 characters', 'TOO_SHORT', 'Name is required'],
    ['a missing name', 'name', 'is required', 'REQUIRED', 'Name is required'],
    ['a long description', 'description', 'must NOT have more than 500 characters', 'TOO_LONG', 'Description must be at most 500 characters long'],
    ['a frequency not offered', 'frequency', 'must be one of 0, 1, 2, 5, 10', 'INVALID', 'Frequency must be one of 0, 1, 2, 5, 10'],
    ['a port too large', 'request.port', 'must be <= 65535', 'TOO_LARGE', 'Port must be at most 65535'],
    ['a negative time', 'maxResponseTime', 'must be >= 0', 'TOO_SMALL', 'Fails after must be at least 0'],
    ['a bad URL', 'request.url', 'must match format "uri"', 'BAD_FORMAT', 'URL must be a valid URL (https://…)'],
    ['text for a number', 'request.port', 'must be integer', 'WRONG_TYPE', 'Port must be a whole number'],
    ['too many tags', 'tags', 'must NOT have more than 100 items', 'TOO_MANY_ITEMS', 'Tags takes at most 100 entries'],
    ['no locations', 'locations', 'must NOT have fewer than 1 items', 'TOO_FEW_ITEMS', 'Locations needs at least one entry'],
    ['a twice-named location', 'locations', 'must NOT have duplicate items (items ## 1 and 0 are identical)', 'DUPLICATE', 'Locations lists the same entry twice'],
  ])('words %s by its reason', (_name, field, message, reason, expected) => {
    expect(text(field, message, reason)).toBe(expected);
  });

  it('words Ajv\'s messages the same when the answer carries no reason', () => {
    expect(text('name', 'must NOT have fewer than 1 characters')).toBe('Name is required');
    expect(text('request.port', 'must be <= 65535')).toBe('Port must be at most 65535');
  });

  it('keeps messages it has no words for, and messages of no field', () => {
    expect(text('request.assertions.0.target', 'must be a number for LESS_THAN')).toBe('Target must be a number for LESS_THAN');
    expect(text('group', 'no such group')).toBe('no such group');
    expect(text(null, 'Body is not valid JSON')).toBe('Body is not valid JSON');
  });
});
