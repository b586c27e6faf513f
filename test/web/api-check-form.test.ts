import { describe, expect, it } from 'vitest';
import { apiCheckFormValues, apiCheckInput, EMPTY_API_CHECK_FORM, parseTags } from '../../web/src/lib/api-check-form.js';

describe('the API check form', () => {
  it.each([['web, prod', ['web', 'prod']], [' web  prod,,web ', ['web', 'prod']], ['', []]])('reads the tags %j as %j', (text, tags) => {
    expect(parseTags(text)).toEqual(tags);
  });

  it('sends a new check with its expected status as an assertion and blank numbers left out', () => {
    expect(apiCheckInput({ ...EMPTY_API_CHECK_FORM, name: ' Shop ', url: ' https://shop.example.test ', locations: ['eu-west-1'], tags: 'web' })).toEqual({
      name: 'Shop', activated: true, frequency: 10, locations: ['eu-west-1'], tags: ['web'], degradedResponseTime: undefined, maxResponseTime: undefined,
      request: { method: 'GET', url: 'https://shop.example.test', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
  });

  it('sends no assertion when the expected status is left empty', () => {
    expect(apiCheckInput({ ...EMPTY_API_CHECK_FORM, expectedStatus: '' }).request.assertions).toEqual([]);
  });

  it('reads a stored check back into the form and keeps its other assertions when saved', () => {
    const stored = {
      name: 'Shop', activated: false, frequency: 5, locations: ['eu-west-1'], tags: ['web', 'prod'], degradedResponseTime: 3000, maxResponseTime: null,
      request: { method: 'POST', url: 'https://shop.example.test', assertions: [
        { source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true', regex: null },
        { source: 'STATUS_CODE', property: null, comparison: 'EQUALS', target: '201', regex: null },
      ] },
    };
    const values = apiCheckFormValues(stored);
    expect(values).toEqual({
      name: 'Shop', method: 'POST', url: 'https://shop.example.test', frequency: '5', locations: ['eu-west-1'], tags: 'web, prod',
      degradedResponseTime: '3000', maxResponseTime: '', activated: false, expectedStatus: '201',
    });
    expect(apiCheckInput({ ...values, expectedStatus: '202' }, stored.request.assertions).request.assertions).toEqual([
      { source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true', regex: undefined },
      { source: 'STATUS_CODE', comparison: 'EQUALS', target: '202' },
    ]);
  });
});
