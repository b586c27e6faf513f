import { describe, expect, it } from 'vitest';
import {
  CHECK_FORM_FIELDS, checkFormErrors, checkFormFields, checkFormValues, checkInput, EMPTY_CHECK_FORM, FORM_CHECK_TYPES, isFormCheckType, mutationName,
} from '../../../web/src/checks/check-form-rules.js';

const base = { ...EMPTY_CHECK_FORM, name: ' Probe ', locations: ['eu-west-1'], tags: 'db, prod' };

describe('the check form of every type', () => {
  it('edits every runnable type but Playwright and agentic checks', () => {
    expect(FORM_CHECK_TYPES).toEqual(['API', 'URL', 'TCP', 'DNS', 'ICMP', 'HEARTBEAT', 'BROWSER', 'MULTI_STEP']);
    expect(isFormCheckType('TCP')).toBe(true);
    expect(isFormCheckType('PLAYWRIGHT')).toBe(false);
    expect(mutationName('create', 'MULTI_STEP')).toBe('createMultiStepCheck');
    expect(mutationName('update', 'TCP')).toBe('updateTcpCheck');
  });

  it('sends a TCP check\'s host and port, a typed non-number as null so the API names the field', () => {
    expect(checkInput({ ...base, checkType: 'TCP', hostname: ' db.example.test ', port: '5432' })).toEqual({
      name: 'Probe', activated: true, tags: ['db', 'prod'], description: undefined, group: undefined, frequency: 10, locations: ['eu-west-1'],
      degradedResponseTime: undefined, maxResponseTime: undefined, retryStrategy: null, useGlobalAlertSettings: true,
      request: { hostname: 'db.example.test', port: 5432, data: undefined, ipFamily: 'IPv4', assertions: [] },
    });
    expect((checkInput({ ...base, checkType: 'TCP', port: 'abc' }).request as { port: unknown }).port).toBeNull();
    expect((checkInput({ ...base, checkType: 'TCP', port: '' }).request as { port: unknown }).port).toBeUndefined();
  });

  it('sends a DNS query with its optional name server left out when blank', () => {
    expect(checkInput({ ...base, checkType: 'DNS', query: 'example.test', recordType: 'MX' }).request).toEqual({
      query: 'example.test', recordType: 'MX', nameServer: undefined, port: undefined, protocol: 'UDP', assertions: [],
    });
  });

  it('sends a heartbeat\'s period and grace, without schedule or locations', () => {
    const input = checkInput({ ...base, checkType: 'HEARTBEAT', period: '2', periodUnit: 'days', grace: '0', graceUnit: 'hours' });
    expect(input.heartbeat).toEqual({ period: 2, periodUnit: 'days', grace: 0, graceUnit: 'hours' });
    expect(input).not.toHaveProperty('frequency');
    expect(input).not.toHaveProperty('locations');
  });

  it('sends a script for browser and multi-step checks', () => {
    for (const checkType of ['BROWSER', 'MULTI_STEP'] as const) {
      expect(checkInput({ ...base, checkType, script: 'test()' })).toMatchObject({ script: 'test()', frequency: 10 });
    }
  });

  it('on edit, clears the group and description with null and keeps the stored assertions', () => {
    const kept = [{ source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '100' }];
    const input = checkInput({ ...base, checkType: 'ICMP', hostname: 'host.test', pingCount: '3' }, { editing: true, existingAssertions: kept });
    expect(input).toMatchObject({ group: null, description: null, request: { hostname: 'host.test', pingCount: 3, assertions: [{ source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '100' }] } });
  });

  it('reads stored checks of each type back into the form', () => {
    const common = { name: 'X', activated: false, frequency: 5, locations: ['us-east-1'], tags: ['a', 'b'], description: null, group: { id: 'G1' } };
    expect(checkFormValues({ ...common, checkType: 'TCP', tcpRequest: { hostname: 'h', port: 22, data: null, ipFamily: 'IPv6', assertions: [] } })).toMatchObject({
      checkType: 'TCP', hostname: 'h', port: '22', ipFamily: 'IPv6', tags: 'a, b', group: 'G1', frequency: '5', activated: false,
    });
    expect(checkFormValues({ ...common, checkType: 'HEARTBEAT', heartbeat: { period: 30, periodUnit: 'minutes', grace: 1, graceUnit: 'hours' } })).toMatchObject({
      period: '30', periodUnit: 'minutes', grace: '1', graceUnit: 'hours',
    });
    expect(checkFormValues({ ...common, checkType: 'MULTI_STEP', script: 'steps()' })?.script).toBe('steps()');
    expect(checkFormValues({ ...common, checkType: 'PLAYWRIGHT' })).toBeNull();
  });

  it('puts userErrors on the fields of the type\'s form, the REST groupId on the group field', () => {
    expect(CHECK_FORM_FIELDS.HEARTBEAT).not.toContain('locations');
    expect(checkFormErrors([
      { field: 'request.port', code: 'BAD_USER_INPUT', message: 'must be at most 65535' },
      { field: 'groupId', code: 'BAD_USER_INPUT', message: 'no such group' },
      { field: 'heartbeat.period', code: 'BAD_USER_INPUT', message: 'not on a TCP check' },
    ], 'TCP')).toEqual({
      byField: { 'request.port': ['Port must be at most 65535'], group: ['no such group'] },
      general: ['Period: not on a TCP check'],
    });
  });
  it('sends an API check\'s headers, body and assertion rows, not the stored assertions it was opened with', () => {
    const values = {
      ...base, checkType: 'API' as const, method: 'POST', url: 'https://api.example.test', headers: [{ key: 'Accept', value: 'application/json' }], bodyType: 'JSON', body: '{}',
      assertions: [{ source: 'RESPONSE_TIME', property: '', comparison: 'LESS_THAN', target: '2000', regex: '' }],
    };
    const input = checkInput(values, { editing: true, existingAssertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] });
    expect(input.request).toEqual({
      method: 'POST', url: 'https://api.example.test', headers: [{ key: 'Accept', value: 'application/json' }], queryParameters: [], bodyType: 'JSON', body: '{}',
      assertions: [{ source: 'RESPONSE_TIME', comparison: 'LESS_THAN', property: undefined, target: '2000', regex: undefined }],
    });
  });

  it('reads a stored API check\'s headers, body and every assertion into rows', () => {
    const common = { name: 'X', activated: true, frequency: 5, locations: [], tags: [], description: null, group: null };
    expect(checkFormValues({
      ...common, checkType: 'API', apiRequest: {
        method: 'PUT', url: 'https://a.test', bodyType: 'RAW', body: 'hi', headers: [{ key: 'A', value: '1', locked: false }], queryParameters: [],
        assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '204' }, { source: 'HEADERS', property: 'etag', comparison: 'NOT_EMPTY', target: null }],
      },
    })).toMatchObject({
      method: 'PUT', bodyType: 'RAW', body: 'hi', headers: [{ key: 'A', value: '1' }], queryParameters: [],
      assertions: [
        { source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '204', regex: '' },
        { source: 'HEADERS', property: 'etag', comparison: 'NOT_EMPTY', target: '', regex: '' },
      ],
    });
  });

  it('lists an API check\'s row controls in the order they show, before the body and assertion list fields', () => {
    const values = { ...EMPTY_CHECK_FORM, headers: [{ key: 'a', value: '' }] };
    const fields = checkFormFields(values);
    expect(fields.slice(fields.indexOf('request.url'), fields.indexOf('request.url') + 7)).toEqual([
      'request.url', 'request.headers.0.key', 'request.headers.0.value',
      'request.assertions.0.source', 'request.assertions.0.property', 'request.assertions.0.comparison', 'request.assertions.0.target',
    ]);
    expect(checkFormFields({ ...values, checkType: 'TCP' })).toBe(CHECK_FORM_FIELDS.TCP);
  });

  it.each([
    ['request.assertions.1.target', 'request.assertions.1.target'],
    ['request.assertions.0.regex', 'request.assertions'],
    ['request.assertions', 'request.assertions'],
    ['request.headers.0.key', 'request.headers.0.key'],
    ['request.headers.1.value', 'request.headers.2.value'],
    ['request.queryParameters.0.value', 'request.queryParameters.0.value'],
    ['request.bodyType', 'request.bodyType'],
  ])('shows an API check\'s error on %s on the control %s (a blank header row 1 is not sent)', (path, field) => {
    const values = {
      ...EMPTY_CHECK_FORM,
      headers: [{ key: 'a', value: '1' }, { key: '', value: '' }, { key: 'b', value: '2' }],
      queryParameters: [{ key: 'q', value: '' }],
      assertions: [EMPTY_CHECK_FORM.assertions[0]!, { source: 'RESPONSE_TIME', property: '', comparison: 'LESS_THAN', target: 'x', regex: '' }],
    };
    expect(checkFormErrors([{ field: path, code: 'BAD_USER_INPUT', message: 'wrong' }], 'API', values)).toEqual({ byField: { [field]: ['wrong'] }, general: [] });
  });
});
