/**
 * Response times of rolled-up runs are counted in fixed buckets (ms): bucket i holds times in
 * [BOUNDS[i], BOUNDS[i + 1]), the last one everything from its bound up. Percentiles of old windows
 * are estimated from these counts. The bounds are part of the stored data: changing them needs a
 * new roll-up table (or a rebuild), never an edit here.
 */
export const RESPONSE_TIME_BOUNDS: readonly number[] = [
  0, 5, 10, 20, 30, 50, 75, 100, 150, 200, 250, 300, 400, 500, 750, 1_000, 1_500, 2_000, 3_000, 4_000, 5_000,
  7_500, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 120_000, 300_000,
];

/** Index of the bucket a response time falls in (negative times count in the first). */
export function histogramBucket(ms: number): number {
  let i = 0;
  while (i + 1 < RESPONSE_TIME_BOUNDS.length && ms >= RESPONSE_TIME_BOUNDS[i + 1]!) i++;
  return i;
}

/** Counts of `times` per bucket. */
export function histogramOf(times: readonly number[]): number[] {
  const counts = RESPONSE_TIME_BOUNDS.map(() => 0);
  for (const t of times) counts[histogramBucket(t)]!++;
  return counts;
}

/** Bucket-wise sum of two histograms. */
export function addHistograms(a: readonly number[], b: readonly number[]): number[] {
  return RESPONSE_TIME_BOUNDS.map((_b, i) => (a[i] ?? 0) + (b[i] ?? 0));
}

/**
 * The `fraction` percentile (0..1) estimated from bucket counts, the way percentile_cont computes
 * it from the values: the values at the two positions around the rank are estimated (spread
 * evenly through their buckets, which the observed [min, max] narrows and closes at the top) and
 * interpolated. Each estimated value is off by at most the width of its bucket. Null without counts.
 */
export function estimatePercentile(counts: readonly number[], fraction: number, min: number, max: number): number | null {
  const total = counts.reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const rank = fraction * (total - 1);
  const below = Math.floor(rank);
  const at = valueAt(counts, below, min, max);
  return below + 1 < total ? at + (rank - below) * (valueAt(counts, below + 1, min, max) - at) : at;
}

/** The estimated value at `position` (0-based) of the sorted values the histogram counts. */
function valueAt(counts: readonly number[], position: number, min: number, max: number): number {
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i] ?? 0;
    if (position < before + n) {
      const lo = Math.min(max, Math.max(RESPONSE_TIME_BOUNDS[i]!, min));
      const hi = Math.max(lo, Math.min(RESPONSE_TIME_BOUNDS[i + 1] ?? max, max));
      return lo + ((hi - lo) * (position - before + 0.5)) / n;
    }
    before += n;
  }
  return max;
}
