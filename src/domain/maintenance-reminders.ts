/** `statusPageVisibility.reminderMinutesBefore` bounds, from the API reference: at most 3, each 60–10,080 (a week). */
export const REMINDER_MINUTES_MIN = 60;
export const REMINDER_MINUTES_MAX = 10_080;
export const REMINDERS_MAX = 3;

const MINUTE_MS = 60_000;

/** A reminder to record for one start of a maintenance. */
export interface ReminderToRecord {
  minutesBefore: number;
  dueAt: Date;
  /**
   * True when a reminder closer to the start is due at the same time (the clock found several due
   * at once: the window was created, or the maintenance moved, inside their lead times, or the clock
   * was down). It is recorded so it is never due again, but is not for delivery: subscribers get one
   * reminder, the one that tells the time left best.
   */
  superseded: boolean;
}

/** When the reminder `minutesBefore` of a start at `startsAt` is due. */
export function reminderDueAt(startsAt: Date, minutesBefore: number): Date {
  return new Date(startsAt.getTime() - minutesBefore * MINUTE_MS);
}

/**
 * The reminders to record now for a SCHEDULED maintenance starting at `startsAt`: those of
 * `minutesBefore` that are due (due time at or before `now`), not recorded yet for this start
 * (`recorded`: the minutes already recorded for it), while the start is still ahead. A reminder for
 * a start that has passed is never recorded (it would announce something already begun). Of the
 * reminders due together, all but the nearest to the start are superseded.
 */
export function dueReminders(startsAt: Date, minutesBefore: readonly number[], recorded: ReadonlySet<number>, now: Date): ReminderToRecord[] {
  if (startsAt.getTime() <= now.getTime()) return [];
  const due = [...new Set(minutesBefore)]
    .filter((m) => !recorded.has(m) && reminderDueAt(startsAt, m).getTime() <= now.getTime())
    .sort((a, b) => a - b);
  return due.map((m, i) => ({ minutesBefore: m, dueAt: reminderDueAt(startsAt, m), superseded: i > 0 }));
}
