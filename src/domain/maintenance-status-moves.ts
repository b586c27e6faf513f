import type { Issue } from './lookout-error.js';
import type { MaintenanceStatus } from './service-state.js';

/** The statuses of a maintenance (one occurrence of a window) and of its updates (service-api.md, "States"). */
export const MAINTENANCE_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'VERIFYING', 'COMPLETED', 'CANCELLED'] as const satisfies readonly MaintenanceStatus[];
export type { MaintenanceStatus };

/** Statuses during which the work is going on: checks pause, alerts are silenced, pages show it. */
export const ACTIVE_MAINTENANCE_STATUSES = ['IN_PROGRESS', 'VERIFYING'] as const satisfies readonly MaintenanceStatus[];

/** What posting an update with a status does to a maintenance in another (or the same) status. */
export type MaintenanceMove =
  | 'note' // the same status again: a progress note (a reschedule too, when it carries dates)
  | 'start' // SCHEDULED → IN_PROGRESS
  | 'verify' // IN_PROGRESS → VERIFYING
  | 'resume' // VERIFYING → IN_PROGRESS: the check did not pass, back to work
  | 'complete' // → COMPLETED from IN_PROGRESS, VERIFYING, or SCHEDULED once its start is due
  | 'cancel' // → CANCELLED from SCHEDULED, IN_PROGRESS or VERIFYING
  | 'reopen' // COMPLETED or CANCELLED → IN_PROGRESS
  | 'restore'; // CANCELLED → SCHEDULED while its start is still ahead

/**
 * The move table ("Scheduled → In progress → (Verifying) → Completed | Cancelled", with manual
 * start, complete, extend, cancel and reopen, as the real service documents its lifecycle):
 *
 * | from \ to   | SCHEDULED | IN_PROGRESS | VERIFYING | COMPLETED  | CANCELLED |
 * |-------------|-----------|-------------|-----------|------------|-----------|
 * | SCHEDULED   | note      | start       | —         | complete * | cancel    |
 * | IN_PROGRESS | —         | note        | verify    | complete   | cancel    |
 * | VERIFYING   | —         | resume      | note      | complete   | cancel    |
 * | COMPLETED   | —         | reopen      | —         | note       | —         |
 * | CANCELLED   | restore * | reopen      | —         | —          | note      |
 *
 * `*`: only while the maintenance's start is due (complete: it should have run; an occurrence whose
 * window does not auto-start stays SCHEDULED past its start) or still ahead (restore).
 *
 * Refused (—), and why:
 * - SCHEDULED after anything but CANCELLED: an occurrence that started cannot un-start; the public
 *   page would announce as upcoming work that already happened. Cancel it, or reopen it.
 * - VERIFYING from SCHEDULED, COMPLETED or CANCELLED: there is nothing to verify before work starts;
 *   reopen (IN_PROGRESS) first.
 * - CANCELLED after COMPLETED, COMPLETED after CANCELLED: one closed outcome cannot become the other;
 *   reopen first, so the history tells what happened.
 */
const MOVES: Readonly<Record<MaintenanceStatus, Partial<Record<MaintenanceStatus, MaintenanceMove>>>> = {
  SCHEDULED: { SCHEDULED: 'note', IN_PROGRESS: 'start', COMPLETED: 'complete', CANCELLED: 'cancel' },
  IN_PROGRESS: { IN_PROGRESS: 'note', VERIFYING: 'verify', COMPLETED: 'complete', CANCELLED: 'cancel' },
  VERIFYING: { IN_PROGRESS: 'resume', VERIFYING: 'note', COMPLETED: 'complete', CANCELLED: 'cancel' },
  COMPLETED: { IN_PROGRESS: 'reopen', COMPLETED: 'note' },
  CANCELLED: { SCHEDULED: 'restore', IN_PROGRESS: 'reopen', CANCELLED: 'note' },
};

const REFUSAL_HINT: Readonly<Record<MaintenanceStatus, string>> = {
  SCHEDULED: 'it can still be started, completed once due, or cancelled',
  IN_PROGRESS: 'it can move to VERIFYING, COMPLETED or CANCELLED',
  VERIFYING: 'it can go back to IN_PROGRESS, or move to COMPLETED or CANCELLED',
  COMPLETED: 'only IN_PROGRESS reopens it',
  CANCELLED: 'IN_PROGRESS reopens it; SCHEDULED restores it while its start is ahead',
};

/** True when `value` is one of the five maintenance statuses. */
export function isMaintenanceStatus(value: unknown): value is MaintenanceStatus {
  return typeof value === 'string' && (MAINTENANCE_STATUSES as readonly string[]).includes(value);
}

/** The move from `from` to `to`, or null when the table refuses it (time conditions aside). */
export function maintenanceStatusMove(from: MaintenanceStatus, to: MaintenanceStatus): MaintenanceMove | null {
  return MOVES[from][to] ?? null;
}

/** A maintenance as an update finds it. */
export interface MaintenanceTimes {
  status: MaintenanceStatus;
  startsAt: Date;
  endsAt: Date;
}

/** What an update asks for: the new status and, optionally, new dates (absent or null: not sent). */
export interface MaintenanceUpdateRequest {
  status: MaintenanceStatus;
  startsAt?: Date | null;
  endsAt?: Date | null;
}

/** What an accepted update does: the move, and the maintenance's dates after it. */
export interface MaintenanceUpdateOutcome {
  move: MaintenanceMove;
  startsAt: Date;
  endsAt: Date;
  /** Whether either date changed (the update records a date adjustment). */
  datesChanged: boolean;
}

const later = (a: Date, b: Date) => a.getTime() > b.getTime();

/**
 * The outcome of posting `request` on `current` at `now`, or the issues refusing it (keyed `status`,
 * `startsAt`, `endsAt`). Dates sent win; a date not sent follows the move, so the public page and
 * uptime tell what really happened:
 * - start before the planned start: startsAt becomes now (an early start);
 * - complete or cancel (from IN_PROGRESS or VERIFYING) before the planned end: endsAt becomes now;
 * - reopen after the end: the end moves to now plus the maintenance's length ("reopen extends the
 *   end"), otherwise an auto-ending window would close it again at once;
 * - every other move keeps the dates.
 * The dates after the move must have endsAt after startsAt.
 */
export function maintenanceUpdateOutcome(current: MaintenanceTimes, request: MaintenanceUpdateRequest, now: Date): { issues: Issue[]; outcome?: MaintenanceUpdateOutcome } {
  const move = maintenanceStatusMove(current.status, request.status);
  if (!move) {
    return { issues: [{ key: 'status', message: `cannot be ${request.status} after ${current.status}: ${REFUSAL_HINT[current.status]}` }] };
  }
  const sentStart = request.startsAt ?? null;
  const sentEnd = request.endsAt ?? null;
  let startsAt = sentStart ?? current.startsAt;
  let endsAt = sentEnd ?? current.endsAt;

  if (move === 'start' && !sentStart && later(startsAt, now)) startsAt = now;
  const stopping = (move === 'complete' || move === 'cancel') && current.status !== 'SCHEDULED';
  if (stopping && !sentEnd && later(endsAt, now) && later(now, startsAt)) endsAt = now;
  if (move === 'reopen' && !sentEnd && !later(endsAt, now)) endsAt = new Date(now.getTime() + (current.endsAt.getTime() - current.startsAt.getTime()));

  const issues: Issue[] = [];
  if (move === 'complete' && current.status === 'SCHEDULED' && later(startsAt, now)) {
    issues.push({ key: 'status', message: 'cannot be COMPLETED before the maintenance is due to start: cancel it, or start it first' });
  }
  if (move === 'restore' && !later(startsAt, now)) {
    issues.push({ key: 'status', message: 'cannot be SCHEDULED again once the start has passed: send a later startsAt, or reopen it with IN_PROGRESS' });
  }
  if (!later(endsAt, startsAt)) {
    issues.push({ key: sentEnd || !sentStart ? 'endsAt' : 'startsAt', message: sentEnd || !sentStart ? 'must be after startsAt' : 'must be before endsAt' });
  }
  if (issues.length > 0) return { issues };
  const datesChanged = startsAt.getTime() !== current.startsAt.getTime() || endsAt.getTime() !== current.endsAt.getTime();
  return { issues: [], outcome: { move, startsAt, endsAt, datesChanged } };
}

/**
 * The issues of editing the status of a posted update from `stored` to `to` (null: none). Only the
 * latest update of a maintenance may change its status (the maintenance's status is its latest
 * update's; rewriting an older one would break the chain each later update's previousStatus
 * records), and the move from the status before that update (`previous`) must be allowed at `now`
 * as a post would be. Edits never move dates.
 */
export function maintenanceUpdateEditIssues(
  edit: { previous: MaintenanceStatus; stored: MaintenanceStatus; to: MaintenanceStatus; isLatest: boolean },
  times: { startsAt: Date; endsAt: Date },
  now: Date,
): Issue[] {
  if (edit.to === edit.stored) return [];
  if (!edit.isLatest) return [{ key: 'status', message: 'can change only on the latest update of the maintenance: post a new update instead' }];
  // The dates go in as if sent, so the move keeps them.
  return maintenanceUpdateOutcome({ status: edit.previous, ...times }, { status: edit.to, ...times }, now).issues;
}
