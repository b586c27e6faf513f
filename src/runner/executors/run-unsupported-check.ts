import type { CheckType } from '../../domain/catalog.js';
import type { Executor } from '../executor.js';
import { finishProbe } from './finish-probe.js';

/** What each type this runner cannot execute is called in its error message. */
const KIND_NAMES: Partial<Record<CheckType, string>> = {
  AGENTIC: 'AGENTIC checks',
  PLAYWRIGHT: 'PLAYWRIGHT check suites',
};

/**
 * The executor of check types the API accepts but this runner cannot execute (AGENTIC checks
 * and PLAYWRIGHT check suites): every attempt is a failed run with the error NOT_SUPPORTED,
 * e.g. "AGENTIC checks are not supported by this runner". It fails even with `shouldFail`, so an
 * unsupported check never shows as passing. Nothing is contacted.
 */
export const runUnsupportedCheck: Executor = async (check, ctx) => {
  const what = KIND_NAMES[check.checkType] ?? `${check.checkType} checks`;
  const result = finishProbe(check, ctx, {
    startedAt: new Date(),
    responseTime: 0,
    errors: [{ code: 'NOT_SUPPORTED', message: `${what} are not supported by this runner` }],
    assertions: [],
    networkError: false,
    details: null,
  });
  return { ...result, hasFailures: true };
};
