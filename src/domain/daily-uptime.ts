import type { IncidentSeverity } from './service-state.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Severities whose time counts as downtime; MINOR is degraded only and keeps the service "up". */
export const DOWNTIME_SEVERITIES: ReadonlySet<IncidentSeverity> = new Set(['MEDIUM', 'MAJOR', 'CRITICAL']);

export interface UptimeIncident {
  /** The incident's first update. */
  start: Date;
  /** The closing RESOLVED update; null while open (runs until `now`). */
  end: Date | null;
  severity: IncidentSeverity;
}

export interface UptimeMaintenance {
  start: Date;
  end: Date;
}

/**
 * One hour of a service's check results: the share of its checks' FINAL runs in that hour that
 * failed, and that were degraded (each check that ran weighs the same, see serviceResultHours).
 */
export interface ResultHour {
  /** Start of the hour, ms since the epoch. */
  start: number;
  failureShare: number;
  degradedShare: number;
}

export interface UptimeInput {
  incidents: readonly UptimeIncident[];
  /** Only maintenances that are excluded from uptime: leave out those with `showAffectedServices: false`. */
  maintenances: readonly UptimeMaintenance[];
  now: Date;
  /** Number of bars; the status page shows 90. */
  days: number;
  /** When the service was created: time before it has no data. */
  createdAt: Date;
  /** Hours of check results of a service built from checks; absent or empty: incidents alone. */
  results?: readonly ResultHour[];
}

export interface UptimeDay {
  /** The UTC day, YYYY-MM-DD. */
  date: string;
  /** Time of the day that counts: after creation, up to `now`, outside maintenance. */
  measuredMs: number;
  /** Measured time covered by a MEDIUM, MAJOR or CRITICAL incident, or failing checks' share (the larger). */
  downtimeMs: number;
  /** Measured time covered only by MINOR incidents, or degraded checks' share (the larger), outside downtime. */
  degradedMs: number;
  /** 100 × (measured − downtime) / measured; null when nothing was measured (no data). */
  uptime: number | null;
}

export interface DailyUptime {
  /** Oldest first; the last bar is the day of `now`. */
  days: UptimeDay[];
  /** Over the whole range, weighted by measured time; null when nothing was measured. */
  uptime: number | null;
}

type Span = readonly [number, number];

/** Sorted, disjoint, non-empty spans covering the same time as `spans`. */
function union(spans: readonly Span[]): Span[] {
  const sorted = spans.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = merged.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** The parts of disjoint sorted `spans` outside disjoint sorted `cut`. */
function subtract(spans: readonly Span[], cut: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const [a, b] of spans) {
    let from = a;
    for (const [c, d] of cut) {
      if (d <= from || c >= b) continue;
      if (c > from) out.push([from, c]);
      from = Math.max(from, d);
    }
    if (from < b) out.push([from, b]);
  }
  return out;
}

function clip(spans: readonly Span[], [a, b]: Span): Span[] {
  return union(spans.map(([c, d]) => [Math.max(a, c), Math.min(b, d)] as const));
}

function total(spans: readonly Span[]): number {
  return spans.reduce((sum, [a, b]) => sum + (b - a), 0);
}

function percent(measured: number, down: number): number | null {
  return measured > 0 ? (100 * (measured - down)) / measured : null;
}

/** Downtime and degraded time the result hours give within the measured spans of one day. */
function resultTime(hours: readonly ResultHour[], measured: readonly Span[]): { down: number; degraded: number } {
  let down = 0;
  let degraded = 0;
  for (const h of hours) {
    const inHour = total(clip(measured, [h.start, h.start + HOUR_MS]));
    down += h.failureShare * inHour;
    degraded += h.degradedShare * inHour;
  }
  return { down: Math.round(down), degraded: Math.round(degraded) };
}

/**
 * The per-day uptime bars of one service: uptime = (total − downtime) / total, "driven by
 * incidents, not check results" (status-pages-reference.md §2). Rules:
 * - days are UTC days ("all times shown in UTC"), the last `days` of them ending with the day of
 *   `now`; today counts only up to `now`, so the future is neither up nor down;
 * - time before `createdAt` has no data: a day wholly before it has `uptime: null`, the creation day
 *   counts from `createdAt`; incidents before creation are ignored;
 * - MEDIUM, MAJOR and CRITICAL incidents are downtime; MINOR ones are reported as degraded time but
 *   do not lower uptime (a degraded service is still up);
 * - overlapping incidents count once; degraded time under downtime counts as downtime only;
 * - maintenance is cut from both the downtime and the day's length ("maintenance overlapping incident
 *   downtime is excluded"), so a day entirely in maintenance has no data;
 * - an open incident runs until `now`;
 * - for a service built from checks, each hour of results counts its failure share of that hour's
 *   measured time (maintenance and time outside the window cut first) as downtime and its
 *   degraded share as degraded; per day the larger of the incidents' and the results' downtime
 *   counts (the worst wins), likewise for degraded time.
 */
export function dailyUptime(input: UptimeInput): DailyUptime {
  const now = input.now.getTime();
  const created = input.createdAt.getTime();
  const close = (end: Date | null) => Math.min(end?.getTime() ?? now, now);
  const down = union(input.incidents.filter((i) => DOWNTIME_SEVERITIES.has(i.severity)).map((i) => [i.start.getTime(), close(i.end)] as const));
  const minor = union(input.incidents.filter((i) => !DOWNTIME_SEVERITIES.has(i.severity)).map((i) => [i.start.getTime(), close(i.end)] as const));
  const maintenance = union(input.maintenances.map((m) => [m.start.getTime(), m.end.getTime()] as const));

  const hoursByDay = new Map<number, ResultHour[]>();
  for (const h of input.results ?? []) {
    const day = Math.floor(h.start / DAY_MS) * DAY_MS;
    hoursByDay.set(day, [...(hoursByDay.get(day) ?? []), h]);
  }
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const days: UptimeDay[] = [];
  let measuredSum = 0;
  let downSum = 0;
  for (let n = input.days - 1; n >= 0; n -= 1) {
    const dayStart = today - n * DAY_MS;
    const window: Span = [Math.max(dayStart, created), Math.min(dayStart + DAY_MS, now)];
    const measured = subtract(union([window]), maintenance);
    const dayDown = subtract(clip(down, window), maintenance);
    const dayDegraded = subtract(subtract(clip(minor, window), dayDown), maintenance);
    const measuredMs = total(measured);
    const fromResults = resultTime(hoursByDay.get(dayStart) ?? [], measured);
    const downtimeMs = Math.max(total(dayDown), fromResults.down);
    const degradedMs = Math.min(Math.max(total(dayDegraded), fromResults.degraded), measuredMs - downtimeMs);
    measuredSum += measuredMs;
    downSum += downtimeMs;
    days.push({
      date: new Date(dayStart).toISOString().slice(0, 10),
      measuredMs,
      downtimeMs,
      degradedMs,
      uptime: percent(measuredMs, downtimeMs),
    });
  }
  return { days, uptime: percent(measuredSum, downSum) };
}
