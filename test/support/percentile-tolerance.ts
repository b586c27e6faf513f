import { histogramBucket, RESPONSE_TIME_BOUNDS } from '../../src/domain/response-time-histogram.js';

/** percentile_cont as PostgreSQL computes it. */
export function exactPercentile(values: readonly number[], fraction: number): number {
  const s = [...values].sort((a, b) => a - b);
  const rank = fraction * (s.length - 1);
  const lo = Math.floor(rank);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (rank - lo);
}

/** The width of the bucket `ms` falls in (the last bucket is closed by the largest value). */
const widthAt = (ms: number, max: number) => (RESPONSE_TIME_BOUNDS[histogramBucket(ms) + 1] ?? max) - RESPONSE_TIME_BOUNDS[histogramBucket(ms)]!;

/** How far an estimated percentile may be off: the widest bucket of the two values percentile_cont interpolates between. */
export function percentileTolerance(values: readonly number[], fraction: number): number {
  const s = [...values].sort((a, b) => a - b);
  const lo = Math.floor(fraction * (s.length - 1));
  const max = s[s.length - 1]!;
  return Math.max(widthAt(s[lo]!, max), widthAt(s[Math.min(lo + 1, s.length - 1)]!, max));
}
