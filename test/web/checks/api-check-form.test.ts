import { describe, expect, it } from 'vitest';
import { apiCheckFormValues, apiCheckInput, EMPTY_API_CHECK_FORM, keyValueInputs, parseTags, sentRowIndexes } from '../../../web/src/checks/api-check-form.js';
import { assertionInputs, assertionRows, NEW_API_ASSERTION, showsProperty, showsTarget } from '../../../web/src/checks/assertion-rows.js';

describe('the API check form', () => {
  it.each([['web, prod', ['web', 'prod']], [' web  prod,,web ', ['web', 'prod']], ['', []]])('reads the tags %j as %j', (text, tags) => {
    expect(parseTags(text)).toEqual(tags);
  });

  it('sends a new check with one status-code-equals-200 assertion, no headers, no body and blank numbers left out', () => {
    expect(apiCheckInput({ ...EMPTY_API_CHECK_FORM, name: ' Shop ', url: ' https://shop.example.test ', locations: ['eu-west-1'], tags: 'web' })).toEqual({
      name: 'Shop', activated: true, frequency: 10, locations: ['eu-west-1'], tags: ['web'], degradedResponseTime: undefined, maxResponseTime: undefined,
      request: {
        method: 'GET', url: 'https://shop.example.test', headers: [], queryParameters: [], bodyType: 'NONE', body: null,
        assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', property: undefined, target: '200', regex: undefined }],
      },
    });
  });

  it('sends no assertion when every assertion row is removed', () => {
    expect(apiCheckInput({ ...EMPTY_API_CHECK_FORM, assertions: [] }).request.assertions).toEqual([]);
  });

  it('sends a JSON body with its type, as typed', () => {
    const request = apiCheckInput({ ...EMPTY_API_CHECK_FORM, method: 'POST', bodyType: 'JSON', body: '{ "a": 1 }\n' }).request;
    expect(request).toMatchObject({ method: 'POST', bodyType: 'JSON', body: '{ "a": 1 }\n' });
  });

  it.each([
    ['a named row', [{ key: ' Accept ', value: 'application/json' }], [{ key: 'Accept', value: 'application/json' }], [0]],
    ['a blank row between two named ones', [{ key: 'a', value: '1' }, { key: ' ', value: '' }, { key: 'b', value: '' }], [{ key: 'a', value: '1' }, { key: 'b', value: '' }], [0, 2]],
    ['a row with a value but no name, left for the API to judge', [{ key: '', value: 'x' }], [{ key: '', value: 'x' }], [0]],
    ['a locked row, kept locked', [{ key: 'Authorization', value: 'Bearer t', locked: true }], [{ key: 'Authorization', value: 'Bearer t', locked: true }], [0]],
  ])('sends %s of headers as key/value inputs, each naming its form row', (_, rows, inputs, indexes) => {
    expect(keyValueInputs(rows)).toEqual(inputs);
    expect(sentRowIndexes(rows)).toEqual(indexes);
  });

  it('reads a stored check back into the form with every header, parameter, the body and all its assertions, and sends them back unchanged', () => {
    const stored = {
      name: 'Shop', activated: false, frequency: 5, locations: ['eu-west-1'], tags: ['web', 'prod'], degradedResponseTime: 3000, maxResponseTime: null,
      request: {
        method: 'POST', url: 'https://shop.example.test', bodyType: 'JSON', body: '{"q":1}',
        headers: [{ key: 'X-Token', value: 'abc', locked: true }, { key: 'Accept', value: 'application/json', locked: false }],
        queryParameters: [{ key: 'page', value: '2', locked: false }],
        assertions: [
          { source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true', regex: null },
          { source: 'STATUS_CODE', property: null, comparison: 'EQUALS', target: '201', regex: null },
          { source: 'TEXT_BODY', property: null, comparison: 'CONTAINS', target: 'id', regex: 'id=(\\d+)' },
        ],
      },
    };
    const values = apiCheckFormValues(stored);
    expect(values).toEqual({
      name: 'Shop', method: 'POST', url: 'https://shop.example.test', frequency: '5', locations: ['eu-west-1'], tags: 'web, prod',
      degradedResponseTime: '3000', maxResponseTime: '', activated: false, bodyType: 'JSON', body: '{"q":1}',
      headers: [{ key: 'X-Token', value: 'abc', locked: true }, { key: 'Accept', value: 'application/json' }],
      queryParameters: [{ key: 'page', value: '2' }],
      assertions: [
        { source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true', regex: '' },
        { source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '201', regex: '' },
        { source: 'TEXT_BODY', property: '', comparison: 'CONTAINS', target: 'id', regex: 'id=(\\d+)' },
      ],
    });
    expect(apiCheckInput(values).request).toEqual({
      method: 'POST', url: 'https://shop.example.test', bodyType: 'JSON', body: '{"q":1}',
      headers: [{ key: 'X-Token', value: 'abc', locked: true }, { key: 'Accept', value: 'application/json' }],
      queryParameters: [{ key: 'page', value: '2' }],
      assertions: [
        { source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true', regex: undefined },
        { source: 'STATUS_CODE', property: undefined, comparison: 'EQUALS', target: '201', regex: undefined },
        { source: 'TEXT_BODY', property: undefined, comparison: 'CONTAINS', target: 'id', regex: 'id=(\\d+)' },
      ],
    });
  });

  it('sends an emptied body as null, so saving an edit clears the stored body', () => {
    expect(apiCheckInput({ ...EMPTY_API_CHECK_FORM, bodyType: 'RAW', body: '' }).request.body).toBeNull();
  });

  it('reads a stored request without headers, parameters or body type as empty rows and no body', () => {
    const values = apiCheckFormValues({ name: 'A', activated: true, frequency: 1, locations: [], tags: [], request: { method: 'GET', url: 'https://a.test', assertions: [] } });
    expect(values).toMatchObject({ headers: [], queryParameters: [], bodyType: 'NONE', body: '', assertions: [] });
  });
});

describe('the assertion rows of an API check', () => {
  it('starts a new check with status code equals 200', () => {
    expect(NEW_API_ASSERTION).toEqual({ source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '200', regex: '' });
  });

  it.each([
    ['STATUS_CODE', '', false],
    ['RESPONSE_TIME', '', false],
    ['TEXT_BODY', '', false],
    ['JSON_BODY', '', true],
    ['HEADERS', '', true],
    ['STATUS_CODE', 'left over', true],
  ])('shows the property of a %s row holding %j: %s', (source, property, shown) => {
    expect(showsProperty({ ...NEW_API_ASSERTION, source, property })).toBe(shown);
  });

  it.each([
    ['EQUALS', '', true],
    ['LESS_THAN', '', true],
    ['IS_EMPTY', '', false],
    ['NOT_NULL', '', false],
    ['IS_NULL', 'left over', true],
  ])('shows the target of a %s row holding %j: %s', (comparison, target, shown) => {
    expect(showsTarget({ ...NEW_API_ASSERTION, comparison, target })).toBe(shown);
  });

  it('sends every row in order, with blank optional parts left out and a target kept as typed', () => {
    const rows = assertionRows([
      { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '2000' },
      { source: 'HEADERS', property: ' content-type ', comparison: 'CONTAINS', target: ' json' },
      { source: 'TEXT_BODY', comparison: 'NOT_EMPTY', target: null, property: null, regex: null },
    ]);
    expect(assertionInputs(rows)).toEqual([
      { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', property: undefined, target: '2000', regex: undefined },
      { source: 'HEADERS', comparison: 'CONTAINS', property: 'content-type', target: ' json', regex: undefined },
      { source: 'TEXT_BODY', comparison: 'NOT_EMPTY', property: undefined, target: undefined, regex: undefined },
    ]);
  });
});
