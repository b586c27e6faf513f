import { describe, expect, it } from 'vitest';
import { runUnsupportedCheck } from '../../src/runner/executors/run-unsupported-check.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

describe('executor of check types this runner cannot run', () => {
  it.each([
    ['AGENTIC', 'AGENTIC checks are not supported by this runner'],
    ['PLAYWRIGHT', 'PLAYWRIGHT check suites are not supported by this runner'],
  ] as const)('fails every %s run with NOT_SUPPORTED and says so', async (type, message) => {
    const result = await runUnsupportedCheck(runnableCheck(type, {}), runContext());
    expect(result.errors).toEqual([{ code: 'NOT_SUPPORTED', message }]);
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: false, assertions: [], responseTime: 0 });
  });

  it.each(['AGENTIC', 'PLAYWRIGHT'] as const)('never lets a %s check pass, not even with shouldFail', async (type) => {
    const result = await runUnsupportedCheck(runnableCheck(type, { shouldFail: true }), runContext());
    expect(result.hasFailures).toBe(true);
    expect(result.errors.map((e) => e.code)).toEqual(['NOT_SUPPORTED']);
  });
});
