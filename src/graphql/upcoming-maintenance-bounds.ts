import { codedError } from './errors.js';
import type { UpcomingMaintenanceBounds } from './maintenance-loaders.js';

/** Most maintenances one `upcomingMaintenances` field answers: one REST page. */
export const MAX_UPCOMING_MAINTENANCES = 50;

/** Milliseconds of a DateTime argument; BAD_USER_INPUT naming it when it is not a date. */
function instant(value: string, argumentName: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw codedError('BAD_USER_INPUT', `"${argumentName}" must be an ISO-8601 date-time`, { argumentName });
  return ms;
}

/**
 * The bounds of an `upcomingMaintenances` field: `from` defaults to `now`, `to` must come after it and
 * `first` lies in 1..50, so that each window costs exactly one REST call. Refused bounds are
 * BAD_USER_INPUT naming the argument, before any REST call.
 */
export function toUpcomingMaintenanceBounds(
  args: { from?: string | null; to?: string | null; first?: number | null },
  now: Date = new Date(),
): UpcomingMaintenanceBounds {
  const first = args.first ?? MAX_UPCOMING_MAINTENANCES;
  if (!Number.isInteger(first) || first < 1 || first > MAX_UPCOMING_MAINTENANCES) {
    throw codedError('BAD_USER_INPUT', `"first" must be between 1 and ${MAX_UPCOMING_MAINTENANCES}`, { argumentName: 'first' });
  }
  const fromMs = args.from === null || args.from === undefined ? now.getTime() : instant(args.from, 'from');
  const toMs = args.to === null || args.to === undefined ? null : instant(args.to, 'to');
  if (toMs !== null && toMs <= fromMs) throw codedError('BAD_USER_INPUT', '"to" must be after "from"', { argumentName: 'to' });
  return { from: new Date(fromMs).toISOString(), to: toMs === null ? null : new Date(toMs).toISOString(), first };
}
