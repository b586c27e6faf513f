import type { Issue } from './lookout-error.js';
import { localToUtc, namedTimeZone, naiveMs, utcToLocal, type LocalDateTime } from './local-to-utc.js';
import { beforeYearOneIssue } from './before-year-one-issue.js';

/** How a maintenance window repeats (`repeatUnit` of the public API). */
export const REPEAT_UNITS = ['DAY', 'WEEK', 'MONTH'] as const;
export type RepeatUnit = (typeof REPEAT_UNITS)[number];

/** `repeatInterval` bounds, from the API reference (1–365). */
export const MIN_REPEAT_INTERVAL = 1;
export const MAX_REPEAT_INTERVAL = 365;

/** The most occurrences one call returns, whatever the caller asks for. */
export const MAX_OCCURRENCES = 1000;

/** The scheduling fields of a maintenance window, with the wire names of the public API. */
export interface MaintenanceSchedule {
  /** The first occurrence's start, an instant (ISO 8601 date-time with `Z` or an offset). */
  startsAt: string | Date;
  /** The first occurrence's end; every occurrence lasts `endsAt − startsAt`. */
  endsAt: string | Date;
  /** Absent or null: a one-off window. */
  repeatUnit?: string | null;
  /** Every how many units; absent or null with a unit means 1. */
  repeatInterval?: number | null;
  /** Inclusive calendar date in `timezone` (YYYY-MM-DD preferred; a date-time counts by its local date). */
  repeatEndsAt?: string | Date | null;
  /** Named IANA zone; absent or null means UTC. */
  timezone?: string | null;
}

/** One occurrence ("maintenance") of a window: `index` counts from 0, the window's own first occurrence. */
export interface MaintenanceOccurrence {
  index: number;
  startsAt: Date;
  endsAt: Date;
}

/** The instants to list occurrences for: those overlapping `[from, to)`, at most `limit` (≤ 1,000). */
export interface OccurrenceRange {
  from: Date;
  to: Date;
  limit?: number;
}

const DAY_MS = 86_400_000;
// Covers the largest offset swing between two instants (−12:00 to +14:00) plus a whole-day gap (Samoa
// skipped 2011-12-30): no occurrence moves further than this from its place on a fixed-offset clock.
const DRIFT_MS = 3 * DAY_MS;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseInstant(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string' || !DATE_TIME.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A calendar date as a sortable number (YYYYMMDD). */
function dateKey(year: number, month: number, day: number): number {
  return year * 10_000 + month * 100 + day;
}

function daysInMonth(year: number, month: number): number {
  return new Date(naiveMs({ year, month: month + 1, day: 0, hour: 0, minute: 0, second: 0, millisecond: 0 })).getUTCDate();
}

/** `repeatEndsAt` as YYYYMMDD in the window's zone, or null when it is neither a real date nor a date-time. */
function parseEndDate(value: unknown, timeZone: string): number | null {
  if (typeof value === 'string') {
    const m = CALENDAR_DATE.exec(value);
    if (m) {
      const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
      return dateKey(year, month, day);
    }
  }
  const instant = parseInstant(value);
  if (!instant) return null;
  const local = utcToLocal(instant, timeZone);
  return dateKey(local.year, local.month, local.day);
}

function present<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/**
 * What is wrong with a window's schedule, keyed by the REST field names. Refused: a `timezone` that is
 * not a named IANA zone (UTC offsets such as "+05:00" are not zones, as the API documents); `startsAt`,
 * `endsAt` that are not ISO 8601 date-times or fall before the year 1; `endsAt` before `startsAt`; a `repeatUnit` other than
 * DAY/WEEK/MONTH; a `repeatInterval` that is not an integer 1–365; a `repeatEndsAt` that is not a date
 * or falls before the local date of `startsAt`; `repeatInterval` or `repeatEndsAt` without `repeatUnit`
 * (a one-off window cannot have them: ignoring them would silently drop what the client asked for).
 * A `repeatUnit` without `repeatInterval` is accepted as every 1 unit, as the API's own examples do.
 * `endsAt == startsAt` is accepted (the Go SDK's own suite creates such windows): its maintenances are
 * points in time, listed like any other, that never start and so pause or silence nothing.
 */
export function maintenanceWindowIssues(window: MaintenanceSchedule): Issue[] {
  const issues: Issue[] = [];
  let timeZone: string | null = 'UTC';
  if (present(window.timezone)) {
    timeZone = typeof window.timezone === 'string' ? namedTimeZone(window.timezone) : null;
    if (!timeZone) {
      issues.push({ key: 'timezone', message: 'must be a named IANA time zone such as "Europe/Berlin"; UTC offsets such as "+05:00" are not accepted' });
    }
  }
  const startsAt = parseInstant(window.startsAt);
  if (!startsAt) issues.push({ key: 'startsAt', message: 'must be an ISO 8601 date-time such as "2025-03-30T00:30:00Z"' });
  const endsAt = parseInstant(window.endsAt);
  if (!endsAt) issues.push({ key: 'endsAt', message: 'must be an ISO 8601 date-time such as "2025-03-30T02:30:00Z"' });
  else if (startsAt && endsAt.getTime() < startsAt.getTime()) issues.push({ key: 'endsAt', message: 'must not be before startsAt' });
  for (const early of [beforeYearOneIssue('startsAt', startsAt), beforeYearOneIssue('endsAt', endsAt)]) if (early) issues.push(early);

  const unit = window.repeatUnit;
  if (present(unit) && !(REPEAT_UNITS as readonly unknown[]).includes(unit)) {
    issues.push({ key: 'repeatUnit', message: `must be one of ${REPEAT_UNITS.join(', ')}` });
  }
  const interval = window.repeatInterval;
  if (present(interval) && !(Number.isInteger(interval) && interval >= MIN_REPEAT_INTERVAL && interval <= MAX_REPEAT_INTERVAL)) {
    issues.push({ key: 'repeatInterval', message: `must be an integer from ${MIN_REPEAT_INTERVAL} to ${MAX_REPEAT_INTERVAL}` });
  }
  if (!present(unit) && (present(interval) || present(window.repeatEndsAt))) {
    issues.push({ key: 'repeatUnit', message: 'is required when repeatInterval or repeatEndsAt is set' });
  }
  if (present(window.repeatEndsAt)) {
    const endDate = parseEndDate(window.repeatEndsAt, timeZone ?? 'UTC');
    if (endDate === null) {
      issues.push({ key: 'repeatEndsAt', message: 'must be a calendar date (YYYY-MM-DD) or an ISO 8601 date-time' });
    } else if (startsAt && timeZone) {
      const first = utcToLocal(startsAt, timeZone);
      if (endDate < dateKey(first.year, first.month, first.day)) {
        issues.push({ key: 'repeatEndsAt', message: 'must not be before the date startsAt falls on in the window\'s time zone' });
      }
    }
  }
  return issues;
}

/** The local wall-clock time of occurrence `k` before any daylight-saving adjustment. */
function nominalLocal(base: LocalDateTime, unit: RepeatUnit, interval: number, k: number): LocalDateTime {
  if (unit === 'MONTH') {
    const months = base.year * 12 + (base.month - 1) + k * interval;
    const year = Math.floor(months / 12);
    const month = months - year * 12 + 1;
    // Always clamp from the original day, so the 31st gives 30 Apr and then 31 May again, not 30 May.
    return { ...base, year, month, day: Math.min(base.day, daysInMonth(year, month)) };
  }
  const d = new Date(naiveMs(base) + k * interval * (unit === 'WEEK' ? 7 : 1) * DAY_MS);
  return {
    ...base,
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
  };
}

/** The first occurrence worth computing for a range starting at `from` (earlier ones all end before it). */
function firstCandidate(start: Date, durationMs: number, base: LocalDateTime, unit: RepeatUnit, interval: number, from: Date): number {
  // Every occurrence is within DRIFT_MS of its wall-clock time read as UTC, so one ending before this
  // point on that clock ends before `from`.
  const horizon = from.getTime() - durationMs - DRIFT_MS;
  if (unit === 'MONTH') {
    const h = new Date(horizon);
    const months = h.getUTCFullYear() * 12 + h.getUTCMonth() - (base.year * 12 + base.month - 1) - 1;
    // A horizon before the earliest Date reads as NaN: start from the first occurrence then.
    return Number.isFinite(months) ? Math.max(0, Math.floor(months / interval)) : 0;
  }
  const period = interval * (unit === 'WEEK' ? 7 : 1) * DAY_MS;
  return Math.max(0, Math.floor((horizon - start.getTime()) / period));
}

/**
 * The occurrences of a window that overlap `[range.from, range.to)`, in order, at most `range.limit`
 * (default and ceiling 1,000). Rules, from the maintenance-window docs where they speak:
 * - "a recurring window keeps local time": each occurrence starts at the wall-clock time `startsAt` has
 *   in `timezone` (UTC when absent), every `repeatInterval` (default 1) days, weeks or months after it;
 *   the first occurrence is exactly `startsAt`, even when that is the second instance of an ambiguous time;
 * - spring-forward gap: moved forward by the gap's length ("a 2:30 AM window starts at 3:30 AM");
 * - fall-back overlap: the first, earlier instance ("runs at the first 2:30");
 * - monthly on a day a month lacks: its last day ("on the 31st runs on the 30th / 28th–29th in short
 *   months"), counted from the original day each time;
 * - `repeatEndsAt` is an "inclusive calendar date in the configured timezone": the last occurrence is the
 *   last whose nominal local date (before a gap moves it) is on or before it, and "the final occurrence
 *   runs for its full configured duration";
 * - duration (docs silent beyond "full configured duration"): every occurrence lasts exactly
 *   `endsAt − startsAt` of elapsed time, so a 01:00–05:00 window on a spring-forward night ends at 06:00
 *   local. Keeping the local end instead could make a window that starts in a gap empty.
 * Occurrences may overlap when the duration exceeds the repeat period (the API accepts such windows);
 * an occurrence that a whole-day gap would put at the same instant as the one before is skipped.
 * Throws a RangeError for a window with issues (validate with `maintenanceWindowIssues` first).
 */
export function maintenanceOccurrences(window: MaintenanceSchedule, range: OccurrenceRange): MaintenanceOccurrence[] {
  const issues = maintenanceWindowIssues(window);
  if (issues.length > 0) throw new RangeError(`invalid maintenance window: ${issues.map((i) => `${i.key} ${i.message}`).join('; ')}`);
  const asked = range.limit ?? MAX_OCCURRENCES;
  const limit = Number.isNaN(asked) ? MAX_OCCURRENCES : Math.min(MAX_OCCURRENCES, Math.max(0, Math.floor(asked)));
  const from = range.from.getTime();
  const to = range.to.getTime();
  if (!(from < to) || limit === 0) return [];

  const start = parseInstant(window.startsAt) as Date;
  const durationMs = (parseInstant(window.endsAt) as Date).getTime() - start.getTime();
  // A point in time (zero-length window) is in the range when it falls in `[from, to)`.
  const overlaps = (s: number) => s < to && (s + durationMs > from || (durationMs === 0 && s >= from));
  const occurrence = (index: number, s: number): MaintenanceOccurrence => ({ index, startsAt: new Date(s), endsAt: new Date(s + durationMs) });

  if (!present(window.repeatUnit)) return overlaps(start.getTime()) ? [occurrence(0, start.getTime())] : [];

  const timeZone = present(window.timezone) ? (namedTimeZone(window.timezone) as string) : 'UTC';
  const unit = window.repeatUnit as RepeatUnit;
  const interval = window.repeatInterval ?? 1;
  const lastDate = present(window.repeatEndsAt) ? (parseEndDate(window.repeatEndsAt, timeZone) as number) : Infinity;
  const base = utcToLocal(start, timeZone);

  const result: MaintenanceOccurrence[] = [];
  let previous = -Infinity;
  // Candidates before the first overlap are few (the skip errs by at most a few periods), so the loop
  // runs about `limit` times; the explicit cap keeps it finite whatever the inputs.
  const maxSteps = limit + 1000;
  for (let k = firstCandidate(start, durationMs, base, unit, interval, range.from), steps = 0; steps < maxSteps; k++, steps++) {
    const local = nominalLocal(base, unit, interval, k);
    if (dateKey(local.year, local.month, local.day) > lastDate) break;
    const s = k === 0 ? start.getTime() : localToUtc(local, timeZone).getTime();
    if (!Number.isFinite(s) || s >= to) break;
    if (s > previous && overlaps(s)) {
      result.push(occurrence(k, s));
      if (result.length >= limit) break;
    }
    previous = Math.max(previous, s);
  }
  return result;
}
