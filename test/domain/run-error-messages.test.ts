import { describe, expect, it } from 'vitest';
import type { AssertionOutcome } from '../../src/domain/check-result.js';
import { runErrorMessages } from '../../src/domain/run-error-messages.js';

const failed = (o: Partial<AssertionOutcome>): AssertionOutcome => ({
  source: 'STATUS_CODE', property: null, comparison: 'EQUALS', target: 200, regex: null, actual: '500', passed: false, ...o,
});

describe('runErrorMessages', () => {
  it('takes each error\'s message once, in order, and the code of an error without message', () => {
    const errors = [{ code: 'A', message: 'first' }, { code: 'B', message: '  ' }, { code: 'A', message: 'first' }, { code: 'C', message: 'third' }];
    expect(runErrorMessages({ errors, assertions: [failed({})], hasFailures: true })).toEqual(['first', 'B', 'third']);
  });

  it('names each failed assertion of a failed run without errors', () => {
    const assertions = [
      failed({}),
      failed({ source: 'JSON_BODY', property: '$.status', comparison: 'NOT_EQUALS', target: 'down', actual: null, error: 'no value at $.status' }),
      failed({ source: 'TEXT_BODY', comparison: 'IS_EMPTY', target: null, actual: 'x', passed: true }),
    ];
    expect(runErrorMessages({ errors: [], assertions, hasFailures: true })).toEqual([
      'Assertion failed: STATUS_CODE EQUALS 200 (actual: 500)',
      'Assertion failed: JSON_BODY $.status NOT_EQUALS down: no value at $.status',
    ]);
  });

  it('has nothing to say about a passing run', () => {
    expect(runErrorMessages({ errors: [], assertions: [failed({})], hasFailures: false })).toEqual([]);
  });
});
