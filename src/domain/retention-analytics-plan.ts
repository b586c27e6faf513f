import type { MetricSpec } from './analytics-metrics.js';
import type { Issue } from './lookout-error.js';
import { rollupAnswers } from './result-rollup.js';
import { ceilTo, DAY_MS, floorTo, HOUR_MS, rawResultsFrom, type RetentionSettings, type RollupWatermarks } from './retention-policy.js';

/** Where one part of an analytics window is read from. */
export type AnalyticsSource = 'raw' | 'hourly' | 'daily';

/**
 * One part of a window and its source. Roll-up parts start at their hour (day) boundary: rows
 * whose hour (day) starts in [from, to) are read, so past the raw retention a window widens to
 * whole hours (days).
 */
export interface AnalyticsPart {
  source: AnalyticsSource;
  from: Date;
  to: Date;
}

/** The parts of a window and where raw results are complete from (null: everywhere, nothing was pruned). */
export interface AnalyticsPlan {
  parts: AnalyticsPart[];
  rawFrom: Date | null;
}

/** The earlier of a date and a watermark; a missing watermark means nothing was pruned below the date. */
const upTo = (at: Date, watermark: Date | null) => (watermark && watermark.getTime() < at.getTime() ? watermark : at);

/**
 * Splits `window` by where its results still are at `now`. Raw results are complete from the
 * earlier of "retention (and a day) ago, up to the hour" and "where hourly roll-ups stop" (results are only
 * pruned below both); before that the hourly roll-ups answer, and before the hourly roll-ups' own
 * retention (days the daily table holds, ending before the raw part) the daily ones. The parts
 * never overlap, so no run is counted twice. Relies on the tiers being kept at least as long as
 * the finer one before them (config enforces it).
 */
export function planAnalyticsWindow(window: { from: Date; to: Date }, now: Date, settings: RetentionSettings, watermarks: RollupWatermarks): AnalyticsPlan {
  const raw = (from: Date): AnalyticsPart => ({ source: 'raw', from, to: window.to });
  if (settings.resultDays <= 0 || !watermarks.hourly) return { parts: [raw(window.from)], rawFrom: null };
  const rawFrom = upTo(ceilTo(rawResultsFrom(settings, now)!, HOUR_MS), watermarks.hourly);
  if (window.from.getTime() >= rawFrom.getTime()) return { parts: [raw(window.from)], rawFrom };
  const parts: AnalyticsPart[] = [];
  let hourlyFrom = window.from;
  if (settings.hourlyRollupDays > 0 && watermarks.daily) {
    // Days end before the raw part starts: a day row overlapping raw results would count them twice.
    const dailyUntil = minDate(
      upTo(ceilTo(new Date(now.getTime() - settings.hourlyRollupDays * DAY_MS), DAY_MS), watermarks.daily), floorTo(rawFrom, DAY_MS),
    );
    if (window.from.getTime() < dailyUntil.getTime()) {
      parts.push({ source: 'daily', from: floorTo(window.from, DAY_MS), to: minDate(window.to, dailyUntil) });
      hourlyFrom = dailyUntil;
    }
  }
  if (hourlyFrom.getTime() < window.to.getTime() && hourlyFrom.getTime() < rawFrom.getTime()) {
    parts.push({ source: 'hourly', from: floorTo(hourlyFrom, HOUR_MS), to: minDate(window.to, rawFrom) });
  }
  if (window.to.getTime() > rawFrom.getTime()) parts.push(raw(rawFrom));
  return { parts, rawFrom };
}

const minDate = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/** What an analytics query asks besides its window; `source` names where its keys came from. */
export interface RollupQuestion {
  metrics: MetricSpec[];
  /** Indexes of `metrics` in the request (the issue key is `metrics.<index>`). */
  metricIndexes?: number[];
  bucketSeconds: number | null;
  groupBy: 'runLocation' | 'statusCode' | null;
  status: 'success' | 'failure' | null;
}

/**
 * Why a plan reaching into roll-ups cannot answer a query, one issue per key: metrics roll-ups do
 * not keep (timings other than the response time), grouping by status code, filtering by status,
 * and buckets that are not whole hours (whole days where daily roll-ups answer). Empty when the
 * plan reads raw results only or roll-ups answer everything.
 */
export function rollupIssues(plan: AnalyticsPlan, q: RollupQuestion): Issue[] {
  const sources = new Set(plan.parts.map((p) => p.source));
  if (!sources.has('hourly') && !sources.has('daily')) return [];
  const since = `raw results are kept from ${plan.rawFrom!.toISOString()} only`;
  const issues: Issue[] = [];
  q.metrics.forEach((m, i) => {
    if (!rollupAnswers(m)) issues.push({ key: `metrics.${q.metricIndexes?.[i] ?? i}`, message: `"${m.name}" is not kept in roll-ups: ${since}` });
  });
  if (q.groupBy === 'statusCode') issues.push({ key: 'groupBy', message: `statusCode is not kept in roll-ups: ${since}` });
  if (q.status) issues.push({ key: 'filterByStatus', message: `a status filter cannot be applied to roll-ups: ${since}` });
  if (q.bucketSeconds !== null) {
    const unit = sources.has('daily') ? DAY_MS / 1000 : HOUR_MS / 1000;
    if (q.bucketSeconds % unit !== 0) {
      issues.push({ key: 'aggregationInterval', message: `must be a multiple of ${unit / 60} minutes for roll-ups (${sources.has('daily') ? 'daily' : 'hourly'}): ${since}` });
    }
  }
  return issues;
}
