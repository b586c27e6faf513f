import type { Issue } from './lookout-error.js';
import { maintenanceOccurrences, MAX_OCCURRENCES, type MaintenanceOccurrence, type MaintenanceSchedule } from './maintenance-occurrences.js';
import type { MaintenanceStatus } from './service-state.js';

/** How far ahead the occurrences of a recurring window without `repeatEndsAt` are stored. */
export const PLAN_HORIZON_DAYS = 400;
/** A rolling plan is extended once it reaches less than this far ahead (so about once a day). */
export const PLAN_EXTEND_BELOW_DAYS = PLAN_HORIZON_DAYS - 1;
/** The most occurrences one write may plan for a window (a `repeatEndsAt` further away is refused). */
export const MAX_PLANNED_OCCURRENCES = MAX_OCCURRENCES;

const DAY_MS = 86_400_000;
// Past the last instant any real repeatEndsAt can reach: the occurrence rules stop at that date first.
const FAR_FUTURE = new Date(8.64e15 - 3 * DAY_MS);

const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** Whether a window keeps planning ahead by itself: recurring with no end date. */
export function isRollingPlan(schedule: MaintenanceSchedule): boolean {
  return present(schedule.repeatUnit) && !present(schedule.repeatEndsAt);
}

/** The instant a rolling plan made at `now` reaches. */
export function planHorizon(now: Date): Date {
  return new Date(now.getTime() + PLAN_HORIZON_DAYS * DAY_MS);
}

/**
 * The occurrences a write at `now` plans for a valid schedule: those that have not ended by `now`
 * (a window has no history before it was written), through `repeatEndsAt` or, for a rolling plan,
 * up to the horizon. A one-off window that ended before `now` plans nothing. Refused with an issue
 * keyed `repeatEndsAt`: more than MAX_PLANNED_OCCURRENCES of them.
 */
export function plannedOccurrences(schedule: MaintenanceSchedule, now: Date): { occurrences: MaintenanceOccurrence[]; issues: Issue[] } {
  const rolling = isRollingPlan(schedule);
  const to = rolling ? planHorizon(now) : FAR_FUTURE;
  const occurrences = maintenanceOccurrences(schedule, { from: now, to, limit: MAX_PLANNED_OCCURRENCES });
  const last = occurrences.at(-1);
  if (!rolling && last && occurrences.length >= MAX_PLANNED_OCCURRENCES) {
    // Occurrences all last as long and start on distinct milliseconds, so any after the last one listed
    // ends at least 1 ms after it (a zero-length one is a point: from its end alone it would be listed again).
    const more = maintenanceOccurrences(schedule, { from: new Date(last.endsAt.getTime() + 1), to, limit: 1 });
    if (more.length > 0) {
      return {
        occurrences: [],
        issues: [{ key: 'repeatEndsAt', message: `plans more than ${MAX_PLANNED_OCCURRENCES} occurrences from now: end the repetition sooner, or repeat less often` }],
      };
    }
  }
  return { occurrences, issues: [] };
}

/** An occurrence as stored. */
export interface StoredOccurrence {
  id: string;
  index: number;
  startsAt: Date;
  endsAt: Date;
  status: MaintenanceStatus;
  /** Its dates were set by hand (PATCH, or an update's date adjustment). */
  dateAdjusted: boolean;
}

/** What a re-plan writes. */
export interface OccurrenceChanges {
  insert: MaintenanceOccurrence[];
  move: { id: string; startsAt: Date; endsAt: Date }[];
  remove: string[];
}

/**
 * Whether a re-plan may move or remove a stored occurrence: only one still SCHEDULED, in the
 * future, whose dates nobody set by hand. Everything else is history or a decision someone made.
 */
export function isReplannable(o: StoredOccurrence, now: Date): boolean {
  return o.status === 'SCHEDULED' && !o.dateAdjusted && o.startsAt.getTime() > now.getTime();
}

/**
 * The changes that bring the stored occurrences of a window in line with a new plan, by occurrence
 * number (`index`, 0 for the window's first): a replannable stored occurrence moves to the planned
 * dates of its number, or goes when the plan no longer has that number (or it was deleted: `skipped`);
 * other stored occurrences stay as they are; planned numbers with no stored occurrence are added,
 * except deleted ones.
 */
export function replanOccurrences(stored: readonly StoredOccurrence[], planned: readonly MaintenanceOccurrence[], skipped: ReadonlySet<number>, now: Date): OccurrenceChanges {
  const plannedByIndex = new Map(planned.map((p) => [p.index, p]));
  const storedIndexes = new Set(stored.map((o) => o.index));
  const changes: OccurrenceChanges = { insert: [], move: [], remove: [] };
  for (const o of stored) {
    if (!isReplannable(o, now)) continue;
    const p = skipped.has(o.index) ? undefined : plannedByIndex.get(o.index);
    if (!p) changes.remove.push(o.id);
    else if (p.startsAt.getTime() !== o.startsAt.getTime() || p.endsAt.getTime() !== o.endsAt.getTime()) {
      changes.move.push({ id: o.id, startsAt: p.startsAt, endsAt: p.endsAt });
    }
  }
  for (const p of planned) {
    if (!storedIndexes.has(p.index) && !skipped.has(p.index)) changes.insert.push(p);
  }
  return changes;
}
