import { describe, expect, it } from 'vitest';
import { runOutcome } from '../../src/domain/run-outcome.js';
import { statusClass } from '../../src/domain/status-class.js';

describe('the outcome label of a run', () => {
  it.each([
    [{ hasErrors: false, hasFailures: false, isDegraded: false }, 'passed'],
    [{ hasErrors: false, hasFailures: false, isDegraded: true }, 'degraded'],
    [{ hasErrors: false, hasFailures: true, isDegraded: false }, 'failed'],
    [{ hasErrors: false, hasFailures: true, isDegraded: true }, 'failed'],
    [{ hasErrors: true, hasFailures: true, isDegraded: false }, 'error'],
    [{ hasErrors: true, hasFailures: false, isDegraded: true }, 'error'],
  ] as const)('is %o → %s: an error outranks a failure, which outranks a degradation', (flags, outcome) => {
    expect(runOutcome(flags)).toBe(outcome);
  });
});

describe('the status class label of an HTTP answer', () => {
  it.each([
    [100, '1xx'], [200, '2xx'], [204, '2xx'], [304, '3xx'], [401, '4xx'], [404, '4xx'], [429, '4xx'], [500, '5xx'], [599, '5xx'],
    [0, 'other'], [99, 'other'], [600, 'other'], [200.5, 'other'],
  ])('is %s → %s', (status, label) => {
    expect(statusClass(status)).toBe(label);
  });
});
