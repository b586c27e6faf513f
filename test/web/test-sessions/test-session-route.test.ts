import { describe, expect, it } from 'vitest';
import { testSessionPath, testSessionRoute } from '../../../web/src/test-sessions/test-session-route.js';
import { resultErrorMessage } from '../../../web/src/test-sessions/result-error-message.js';

describe('test session paths of the console', () => {
  it('reads the CLI\'s Open session path, its result links and the console\'s own paths', () => {
    expect(testSessionRoute('/accounts/acc-1/test-sessions/s-1')).toEqual({ screen: 'session', testSessionId: 's-1', accountId: 'acc-1' });
    expect(testSessionRoute('/accounts/acc-1/test-sessions/s-1/results/r-1')).toEqual({ screen: 'result', testSessionId: 's-1', resultId: 'r-1', accountId: 'acc-1' });
    expect(testSessionRoute('/test-sessions/s-1')).toEqual({ screen: 'session', testSessionId: 's-1', accountId: null });
    expect(testSessionRoute('/test-sessions')).toEqual({ screen: 'list' });
    expect(testSessionRoute('/checks/s-1')).toBeNull();
    expect(testSessionRoute('/accounts/acc-1/test-sessions/s-1/other')).toBeNull();
  });

  it('builds paths that read back to the same session and result', () => {
    expect(testSessionRoute(testSessionPath('a b', 'r/1'))).toEqual({ screen: 'result', testSessionId: 'a b', resultId: 'r/1', accountId: null });
  });
});

describe('the error line of a session result', () => {
  const base = { hasFailures: true, errors: [], assertions: [] };
  it('prefers the run\'s error, then the request\'s and the script\'s, then a failed assertion', () => {
    expect(resultErrorMessage({ ...base, errors: [{ message: 'ECONNREFUSED' }] })).toBe('ECONNREFUSED');
    expect(resultErrorMessage({ ...base, apiCheckResult: { requestError: 'timeout' } })).toBe('timeout');
    expect(resultErrorMessage({ ...base, browserCheckResult: { errors: [{ message: 'locator failed' }] } })).toBe('locator failed');
    expect(resultErrorMessage({ ...base, assertions: [{ passed: false, source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', actual: '503' }] }))
      .toBe('Assertion failed: STATUS_CODE EQUALS 200 (got 503)');
  });
  it('says nothing of a passing run', () => {
    expect(resultErrorMessage({ ...base, hasFailures: false, assertions: [{ passed: true, source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', actual: '200' }] })).toBeNull();
  });
});
