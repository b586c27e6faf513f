import { describe, expect, it } from 'vitest';
import { CHECK_FORM_FIELDS, checkFormErrors, checkFormValues, checkInput, EMPTY_CHECK_FORM, FORM_CHECK_TYPES, isFormCheckType, mutationName } from '../../web/src/lib/check-form.js';

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
      degradedResponseTime: undefined, maxResponseTime: undefined,
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
      byField: { 'request.port': ['must be at most 65535'], group: ['no such group'] },
      general: ['heartbeat.period: not on a TCP check'],
    });
  });
});
