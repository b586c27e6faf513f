import type { BulkOutcome } from './run-bulk.js';

/** What can be done to many checks at once from the list. */
export type BulkCheckAction = 'pause' | 'resume' | 'mute' | 'unmute' | 'delete';

/** Button labels, past tenses and what the confirmation warns of, per action. */
export const BULK_CHECK_ACTIONS: Record<BulkCheckAction, { label: string; done: string; consequence: string }> = {
  pause: { label: 'Pause', done: 'Paused', consequence: 'They stop running until resumed.' },
  resume: { label: 'Resume', done: 'Resumed', consequence: 'They run on their schedules again.' },
  mute: { label: 'Mute', done: 'Muted', consequence: 'They keep running but send no alerts.' },
  unmute: { label: 'Unmute', done: 'Unmuted', consequence: 'Their alerts are sent again.' },
  delete: { label: 'Delete', done: 'Deleted', consequence: 'Their results and settings are removed for good.' },
};

const checks = (n: number) => `${n} ${n === 1 ? 'check' : 'checks'}`;

/** The question asked before `action` runs on `count` checks, e.g. "Pause 3 checks? They stop running until resumed." */
export function bulkQuestion(action: BulkCheckAction, count: number): string {
  const { label, consequence } = BULK_CHECK_ACTIONS[action];
  return `${label} ${checks(count)}? ${consequence}`;
}

/** What happened, in words: "Paused 3 checks." and, per check that failed, its name and the reasons. */
export function bulkOutcomeMessage(action: BulkCheckAction, outcome: BulkOutcome, nameOf: (id: string) => string): string {
  const { label, done } = BULK_CHECK_ACTIONS[action];
  const parts: string[] = [];
  if (outcome.succeeded.length) parts.push(`${done} ${checks(outcome.succeeded.length)}.`);
  if (outcome.failed.length) {
    const reasons = outcome.failed.map((f) => `${nameOf(f.id)}: ${f.problems.join(' ')}`).join('; ');
    parts.push(`Could not ${label.toLowerCase()} ${checks(outcome.failed.length)} (${reasons}).`);
  }
  return parts.join(' ') || `No check to ${label.toLowerCase()}.`;
}
