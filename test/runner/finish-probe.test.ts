import { describe, expect, it } from 'vitest';
import type { AssertionOutcome } from '../../src/domain/check-result.js';
import { finishProbe } from '../../src/runner/executors/finish-probe.js';
import { runnableCheck } from '../support/net-probe-fixtures.js';

const passed: AssertionOutcome = { source: 'RESPONSE_TIME', property: null, comparison: 'LESS_THAN', target: 10, regex: null, actual: '1', passed: true };
const failed: AssertionOutcome = { ...passed, actual: '20', passed: false, error: 'expected RESPONSE_TIME 20 to be less than 10' };
const refused = { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' };

describe('finishProbe', () => {
  it.each([
    // label, responseTime, errors, assertions, shouldFail, expected verdict
    ['a fast clean run passes', 10, [], [passed], false, { hasFailures: false, hasErrors: false, isDegraded: false, overMaxResponseTime: false }],
    ['a run slower than degraded is degraded and still passes', 3001, [], [], false, { hasFailures: false, isDegraded: true, overMaxResponseTime: false }],
    ['a run exactly at the degraded limit is not degraded', 3000, [], [], false, { hasFailures: false, isDegraded: false }],
    ['a run slower than max fails and is not called degraded', 5001, [], [], false, { hasFailures: true, hasErrors: false, isDegraded: false, overMaxResponseTime: true }],
    ['a failed assertion fails without an error', 10, [], [passed, failed], false, { hasFailures: true, hasErrors: false }],
    ['an error fails with hasErrors', 10, [refused], [], false, { hasFailures: true, hasErrors: true }],
    ['shouldFail turns an error into a pass and keeps hasErrors', 10, [refused], [], true, { hasFailures: false, hasErrors: true }],
    ['shouldFail turns a failed assertion into a pass', 10, [], [failed], true, { hasFailures: false, hasErrors: false }],
    ['shouldFail fails a run that would have passed', 10, [], [passed], true, { hasFailures: true, hasErrors: false }],
  ])('%s', (_label, responseTime, errors, assertions, shouldFail, verdict) => {
    const check = runnableCheck('TCP', { request: { hostname: 'h', port: 1 }, shouldFail });
    const result = finishProbe(check, { variables: [] }, {
      startedAt: new Date(0), responseTime, errors, assertions, networkError: errors.length > 0, details: null,
    });
    expect(result).toMatchObject(verdict);
    expect(result.responseTime).toBe(responseTime);
  });

  it('uses the check limits over the type defaults', () => {
    const check = runnableCheck('DNS', { request: { query: 'example.test' }, degradedResponseTime: 10, maxResponseTime: 20 });
    const facts = { startedAt: new Date(0), errors: [], assertions: [], networkError: false, details: null };
    expect(finishProbe(check, { variables: [] }, { ...facts, responseTime: 15 })).toMatchObject({ isDegraded: true, hasFailures: false });
    expect(finishProbe(check, { variables: [] }, { ...facts, responseTime: 21 })).toMatchObject({ overMaxResponseTime: true, hasFailures: true });
  });

  it('compares nothing with the limits when there is no time to compare', () => {
    const check = runnableCheck('ICMP', { request: { hostname: 'h' }, maxResponseTime: 1 });
    const result = finishProbe(check, { variables: [] }, {
      startedAt: new Date(0), responseTime: 5000, limitedTime: null, errors: [], assertions: [], networkError: false, details: null,
    });
    expect(result).toMatchObject({ isDegraded: false, overMaxResponseTime: false, hasFailures: false });
  });

  it('scrubs secret values from errors, assertions and details', () => {
    const check = runnableCheck('TCP', { request: { hostname: 'h', port: 1 } });
    const result = finishProbe(check, { variables: [{ key: 'K', value: 'hunter2', secret: true }, { key: 'P', value: 'public', secret: false }] }, {
      startedAt: new Date(0), responseTime: 1, networkError: false,
      errors: [{ code: 'X', message: 'bad hunter2 public' }],
      assertions: [{ ...failed, actual: 'hunter2' }],
      details: { response: ['hunter2', { nested: 'aHVudGVyMg==' }] },
    });
    expect(result.errors[0]?.message).toBe('bad ***** public');
    expect(result.assertions[0]?.actual).toBe('*****');
    expect(result.details).toEqual({ response: ['*****', { nested: '*****' }] });
  });
});
