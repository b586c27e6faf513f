import { pino } from 'pino';
import type { CheckType } from '../../src/domain/catalog.js';
import { withCheckDefaults } from '../../src/domain/check-defaults.js';
import type { RunContext, RunnableCheck, RunVariable } from '../../src/runner/executor.js';

/** A runnable check of `type` with the stored defaults filled in, as the scheduler hands it over. */
export function runnableCheck(type: CheckType, data: Record<string, unknown>): RunnableCheck {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    accountId: '00000000-0000-4000-8000-000000000002',
    checkType: type,
    name: `${type} probe`,
    data: withCheckDefaults(type, { name: `${type} probe`, ...data }, 'http://127.0.0.1'),
    groupId: null,
  };
}

/** A run context on one lane, with a silent logger. */
export function runContext(overrides: { timeoutMs?: number; variables?: RunVariable[]; signal?: AbortSignal } = {}): RunContext {
  return {
    location: 'eu-west-1',
    variables: overrides.variables ?? [],
    timeoutMs: overrides.timeoutMs ?? 5000,
    signal: overrides.signal ?? new AbortController().signal,
    logger: pino({ level: 'silent' }),
  };
}
