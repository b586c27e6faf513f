import type { MetricSpec } from './analytics-metrics.js';
import { addHistograms, estimatePercentile } from './response-time-histogram.js';

/**
 * What a roll-up keeps of a set of runs (one check, one location, one hour or day), enough to
 * merge with others and answer availability, retries and the response time metrics. Counts and
 * response times are over FINAL results, as analytics computes them from raw rows; `attempts`
 * counts the ATTEMPT results (retries).
 */
export interface ResultRollup {
  finalCount: number;
  failureCount: number;
  degradedCount: number;
  attemptCount: number;
  responseTimeSum: number;
  responseTimeSumSq: number;
  /** Null when there was no FINAL result. */
  responseTimeMin: number | null;
  responseTimeMax: number | null;
  /** Counts per bucket of RESPONSE_TIME_BOUNDS. */
  responseTimeHistogram: number[];
}

const minOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Two roll-ups as one (the runs of both). */
export function mergeRollups(a: ResultRollup, b: ResultRollup): ResultRollup {
  return {
    finalCount: a.finalCount + b.finalCount,
    failureCount: a.failureCount + b.failureCount,
    degradedCount: a.degradedCount + b.degradedCount,
    attemptCount: a.attemptCount + b.attemptCount,
    responseTimeSum: a.responseTimeSum + b.responseTimeSum,
    responseTimeSumSq: a.responseTimeSumSq + b.responseTimeSumSq,
    responseTimeMin: minOf(a.responseTimeMin, b.responseTimeMin),
    responseTimeMax: maxOf(a.responseTimeMax, b.responseTimeMax),
    responseTimeHistogram: addHistograms(a.responseTimeHistogram, b.responseTimeHistogram),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

const PERCENTILES: Record<string, number> = { median: 0.5, p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 };

/** Whether a roll-up can answer `metric`: availability, retries and response time (percentiles estimated). */
export function rollupAnswers(metric: MetricSpec): boolean {
  return metric.kind !== 'timing' || metric.timing === 'responseTime';
}

/**
 * The value of `metric` over the runs of `r`, rounded to 2 decimals as analytics rounds; null
 * where there is nothing to aggregate (retries: 0). Only metrics `rollupAnswers` accepts.
 */
export function rollupMetricValue(r: ResultRollup, metric: MetricSpec): number | null {
  if (metric.kind === 'retries') return r.attemptCount;
  if (r.finalCount === 0) return null;
  if (metric.kind === 'availability') return round2((100 * (r.finalCount - r.failureCount)) / r.finalCount);
  if (metric.timing !== 'responseTime') throw new Error(`roll-ups do not keep ${metric.name}`);
  const n = r.finalCount;
  const fraction = PERCENTILES[metric.aggregation];
  if (fraction !== undefined) {
    const p = estimatePercentile(r.responseTimeHistogram, fraction, r.responseTimeMin ?? 0, r.responseTimeMax ?? 0);
    return p === null ? null : round2(p);
  }
  switch (metric.aggregation) {
    case 'avg': return round2(r.responseTimeSum / n);
    case 'sum': return round2(r.responseTimeSum);
    case 'min': return round2(r.responseTimeMin ?? 0);
    case 'max': return round2(r.responseTimeMax ?? 0);
    case 'stddev': {
      if (n < 2) return null;
      // Sample variance from the running sums; clamped at 0 against rounding below it.
      const variance = Math.max(0, (r.responseTimeSumSq - (r.responseTimeSum * r.responseTimeSum) / n) / (n - 1));
      return round2(Math.sqrt(variance));
    }
    default: throw new Error(`unknown aggregation ${metric.aggregation}`);
  }
}
