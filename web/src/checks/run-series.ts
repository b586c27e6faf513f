/** The windows the per-run response-time chart offers, with their length. */
export const RUN_CHART_RANGES = {
  hour: { label: 'Last hour', ms: 3_600_000 },
  day: { label: 'Last day', ms: 86_400_000 },
} as const;

export type RunChartRange = keyof typeof RUN_CHART_RANGES;

/** A run as the chart reads it. */
export interface RunPoint {
  id: string;
  startedAt: string;
  responseTime?: number | null;
  hasFailures: boolean;
}

/** Columns uPlot draws: start times (s), response times (ms) of every run, and of failed runs only. */
export interface RunSeries {
  xs: number[];
  all: (number | null)[];
  failed: (number | null)[];
}

/** Start of a chart window ending at `now`. */
export function runChartFrom(range: RunChartRange, now: number): Date {
  return new Date(now - RUN_CHART_RANGES[range].ms);
}

/**
 * Runs (in any order, possibly repeated across pages) as chart columns, oldest first; runs
 * without a response time are left out, failed runs also make a point of the failed series.
 */
export function toRunSeries(runs: readonly RunPoint[]): RunSeries {
  const seen = new Set<string>();
  const points = runs
    .filter((r) => typeof r.responseTime === 'number' && Number.isFinite(r.responseTime) && !Number.isNaN(Date.parse(r.startedAt)))
    .filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)))
    .map((r) => ({ x: Date.parse(r.startedAt) / 1000, y: r.responseTime as number, failed: r.hasFailures }))
    .sort((a, b) => a.x - b.x);
  return { xs: points.map((p) => p.x), all: points.map((p) => p.y), failed: points.map((p) => (p.failed ? p.y : null)) };
}
