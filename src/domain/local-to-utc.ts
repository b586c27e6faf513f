/**
 * Wall-clock time in a named IANA time zone and the UTC instants it maps to, with `Intl` only (Node's
 * full ICU carries the tz database, so no dependency is needed and zone data follows the runtime).
 */

/** A wall-clock date and time with no zone: month 1–12, day 1–31, hour 0–23. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const DAY_MS = 86_400_000;
const MAX_DATE_MS = 8.64e15;

// "+05:00", "-0530", "+05", "−05:00": offsets are not zones (the API refuses them even where a newer ICU
// would accept them as offset time zones), so they are refused before `Intl` sees them.
const OFFSET_IDENTIFIER = /^[+\-\u2212]\d/;

// One formatter per zone: building an Intl.DateTimeFormat is far costlier than using one.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * The canonical name of a named IANA time zone (`Intl` matches names case-insensitively and maps
 * links such as `EST5EDT`), or null when `name` is not one. UTC offsets such as `+05:00` are refused.
 */
export function namedTimeZone(name: string): string | null {
  if (typeof name !== 'string' || name.trim() !== name || name === '' || OFFSET_IDENTIFIER.test(name)) return null;
  try {
    return formatter(name).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The wall-clock time in `timeZone` at the instant `at` (epoch ms or Date). */
export function utcToLocal(at: Date | number, timeZone: string): LocalDateTime {
  const t = typeof at === 'number' ? at : at.getTime();
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(t)) parts[p.type] = p.value;
  const yearOfEra = Number(parts.year);
  return {
    // Years before 1 CE come out as "n BC"; astronomical numbering keeps the arithmetic linear.
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - yearOfEra : yearOfEra,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    // Offsets are whole seconds in every zone, so the millisecond carries over unchanged.
    millisecond: ((t % 1000) + 1000) % 1000,
  };
}

/** The wall-clock fields read as if they were UTC: the "naive" epoch ms used for calendar arithmetic. */
export function naiveMs(local: LocalDateTime): number {
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  d.setUTCFullYear(local.year, local.month - 1, local.day);
  d.setUTCHours(local.hour, local.minute, local.second, local.millisecond);
  return d.getTime();
}

/** The offset (local minus UTC, in ms) of `timeZone` at instant `t`. */
function offsetAt(t: number, timeZone: string): number {
  return naiveMs(utcToLocal(t, timeZone)) - t;
}

/**
 * The UTC instant of a wall-clock time in `timeZone`, with the rules the maintenance-window docs give
 * for daylight-saving changes: a time that falls in a spring-forward gap is moved forward by the length
 * of the gap ("a 2:30 AM window starts at 3:30 AM"), and a time that occurs twice at fall-back resolves
 * to the first, earlier instant. Out-of-range fields (day 32, hour 24) roll over as in `Date.UTC`.
 *
 * Assumes at most one offset change within a day either side, which holds for every real zone.
 * Gives an invalid Date (NaN) for times within two days of the ends of the `Date` range, where the
 * offsets around them cannot be read.
 */
export function localToUtc(local: LocalDateTime, timeZone: string): Date {
  const naive = naiveMs(local);
  if (!(Math.abs(naive) <= MAX_DATE_MS - 2 * DAY_MS)) return new Date(NaN);
  const before = offsetAt(naive - DAY_MS, timeZone);
  const after = offsetAt(naive + DAY_MS, timeZone);
  // Each offset in force around the time gives one candidate; a candidate is real when the zone has that
  // offset at that instant. Two real ones: an overlap, take the earlier. None: a gap.
  const candidates = [naive - before, naive - after].filter((t) => offsetAt(t, timeZone) === naive - t);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  // In a gap, reading the time with the offset from before the change lands exactly the gap's length
  // later on the wall clock (02:30 at +01:00 is 03:30 at +02:00).
  return new Date(naive - before);
}
