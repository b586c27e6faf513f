import type { AssertionOutcome, ProbeResult } from './check-result.js';

function assertionMessage(a: AssertionOutcome): string {
  const subject = [a.source, a.property].filter((part) => part != null && part !== '').join(' ');
  const target = a.target == null ? '' : ` ${String(a.target)}`;
  const actual = a.actual == null ? '' : ` (actual: ${a.actual})`;
  const why = a.error ? `: ${a.error}` : '';
  return `Assertion failed: ${subject} ${a.comparison}${target}${actual}${why}`;
}

/**
 * The error messages of one run, as error groups collect them: each error's message (its code
 * when the message is blank); when a failed run has no errors, one message per failed assertion
 * so that assertion-only failures are grouped too. Duplicates are dropped, order kept.
 */
export function runErrorMessages(probe: Pick<ProbeResult, 'errors' | 'assertions' | 'hasFailures'>): string[] {
  const messages = probe.errors.map((e) => (e.message.trim() ? e.message : e.code)).filter((m) => m.trim() !== '');
  if (messages.length === 0 && probe.hasFailures) {
    messages.push(...probe.assertions.filter((a) => !a.passed).map(assertionMessage));
  }
  return [...new Set(messages)];
}
