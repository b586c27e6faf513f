import { LookoutError, type InputSource } from './lookout-error.js';

/** The preset windows of the analytics routes. */
export const QUICK_RANGES = ['last24Hours', 'last7Days', 'last30Days', 'thisWeek', 'thisMonth', 'lastWeek', 'lastMonth'] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

/** A time window: `from` inclusive, `to` exclusive. */
export interface TimeWindow {
  from: Date;
  to: Date;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Midnight UTC of the Monday of the week `at` falls in. */
function startOfWeek(at: Date): Date {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS);
}

/**
 * The window of a quick range at `now`, in UTC: the `lastN` ranges end now; `this*` run from the
 * start of the current week (Monday 00:00) or month (the 1st, 00:00) to now; `last*` are the whole
 * previous week or calendar month.
 */
export function quickRangeWindow(range: QuickRange, now: Date): TimeWindow {
  const t = now.getTime();
  switch (range) {
    case 'last24Hours':
      return { from: new Date(t - DAY_MS), to: now };
    case 'last7Days':
      return { from: new Date(t - 7 * DAY_MS), to: now };
    case 'last30Days':
      return { from: new Date(t - 30 * DAY_MS), to: now };
    case 'thisWeek':
      return { from: startOfWeek(now), to: now };
    case 'lastWeek': {
      const monday = startOfWeek(now);
      return { from: new Date(monday.getTime() - 7 * DAY_MS), to: monday };
    }
    case 'thisMonth':
      return { from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), to: now };
    case 'lastMonth':
      return {
        from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)),
        to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
      };
  }
}

/** A window as the analytics routes take it: a quick range, or UNIX seconds that override it. */
export interface WindowQuery {
  quickRange?: QuickRange;
  from?: number;
  to?: number;
}

/**
 * The window a query asks for: `from`/`to` (UNIX seconds) override the quick range; `from` alone
 * runs to now, `to` alone covers the 24 hours before it; otherwise the quick range (last24Hours
 * by default) at `now`. A window that ends before it starts is a VALIDATION error naming `from`.
 */
export function requestedWindow(q: WindowQuery, now: Date, source: InputSource): TimeWindow {
  if (q.from === undefined && q.to === undefined) return quickRangeWindow(q.quickRange ?? 'last24Hours', now);
  const to = q.to !== undefined ? new Date(q.to * 1000) : now;
  const from = q.from !== undefined ? new Date(q.from * 1000) : new Date(to.getTime() - DAY_MS);
  if (from.getTime() >= to.getTime()) {
    throw new LookoutError('VALIDATION', '"from" must be before "to"', { issues: [{ key: 'from', message: 'must be before to' }], source });
  }
  return { from, to };
}
