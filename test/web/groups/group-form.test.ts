import { describe, expect, it } from 'vitest';
import { EMPTY_GROUP_FORM, GROUP_FORM_FIELDS, groupFormValues, groupInput } from '../../../web/src/groups/group-form.js';
import { fieldErrors } from '../../../web/src/shared/user-errors.js';

describe('the check group form', () => {
  it('sends the name trimmed, tags parsed and concurrency as a number', () => {
    expect(groupInput({ ...EMPTY_GROUP_FORM, name: ' Shop ', tags: 'web, prod', locations: ['eu-west-1'] })).toEqual({
      name: 'Shop', activated: true, muted: false, tags: ['web', 'prod'], locations: ['eu-west-1'], concurrency: 3,
    });
  });

  it('leaves a blank concurrency out and sends a non-number as null, for the API to name', () => {
    expect(groupInput({ ...EMPTY_GROUP_FORM, concurrency: ' ' }).concurrency).toBeUndefined();
    expect(groupInput({ ...EMPTY_GROUP_FORM, concurrency: 'many' }).concurrency).toBeNull();
  });

  it('reads a stored group back into the form', () => {
    expect(groupFormValues({ name: 'G', activated: false, muted: true, tags: ['a', 'b'], locations: ['us-east-1'], concurrency: 5 })).toEqual({
      name: 'G', activated: false, muted: true, tags: 'a, b', locations: ['us-east-1'], concurrency: '5',
    });
  });

  it('puts a location\'s error on the locations field', () => {
    expect(fieldErrors([{ field: 'locations.0', code: 'BAD_USER_INPUT', message: 'unknown location' }], GROUP_FORM_FIELDS).byField).toEqual({ locations: ['unknown location'] });
  });
});
