/** The flags of a FINAL result that decide how a test session entry ended. */
export interface EntryFinal {
  hasFailures: boolean;
  hasErrors?: boolean | null;
  isDegraded?: boolean | null;
}

/** How one check of a test session ended, as `checkly test-sessions get` shows it. */
export interface TestSessionEntryOutcome {
  status: 'PASSED' | 'FAILED';
  /** A FINAL result ran into errors (the run broke down: connection refused, script error, …), not only failed assertions. */
  hasErrors: boolean;
  /** A FINAL result was degraded (slower than its degraded response time) but passed. */
  isDegraded: boolean;
}

/**
 * The outcome of an entry from its FINAL results (one per location): FAILED when any failed;
 * `hasErrors` and `isDegraded` when any result says so, as the check's own results do.
 */
export function testSessionEntryOutcome(finals: readonly EntryFinal[]): TestSessionEntryOutcome {
  return {
    status: finals.some((r) => r.hasFailures) ? 'FAILED' : 'PASSED',
    hasErrors: finals.some((r) => r.hasErrors === true),
    isDegraded: finals.some((r) => r.isDegraded === true),
  };
}

/** The outcome of an entry whose run could not happen (the runner threw): failed, with an error. */
export const BROKEN_ENTRY_OUTCOME: TestSessionEntryOutcome = { status: 'FAILED', hasErrors: true, isDegraded: false };
