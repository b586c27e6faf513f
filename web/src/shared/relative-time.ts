const UNITS: [limitSeconds: number, unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  [60, 'second', 1],
  [3600, 'minute', 60],
  [86_400, 'hour', 3600],
  [30 * 86_400, 'day', 86_400],
  [365 * 86_400, 'month', 30 * 86_400],
  [Infinity, 'year', 365 * 86_400],
];

/**
 * When `at` was (or will be) relative to `now`: `just now` within 5 seconds, else `3 minutes ago`,
 * `in 2 hours`; `never` for a missing time.
 */
export function formatRelativeTime(at: string | Date | null | undefined, now: Date = new Date(), locale = 'en'): string {
  if (at === null || at === undefined) return 'never';
  const time = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(time.getTime())) return 'never';
  const diffSeconds = (time.getTime() - now.getTime()) / 1000;
  if (Math.abs(diffSeconds) < 5) return 'just now';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  for (const [limit, unit, seconds] of UNITS) {
    if (Math.abs(diffSeconds) < limit) return format.format(Math.trunc(diffSeconds / seconds), unit);
  }
  return time.toISOString();
}
