import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDuration, percentileLabel } from '../shared/format-duration.js';

const COLORS = ['#2f80ed', '#e2a03f', '#d64545'];

/** Percentiles over time (one line per metric) drawn with uPlot; a table-free text summary for screen readers. */
export function AnalyticsChart({ metrics, buckets, from, to }: {
  metrics: readonly string[];
  buckets: readonly { from: string; values: readonly { metric: string; value?: number | null }[] }[];
  /** The report's window: the x axis spans it even when few buckets have runs. */
  from?: string;
  to?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || buckets.length === 0) return;
    const xs = buckets.map((b) => new Date(b.from).getTime() / 1000);
    const ys = metrics.map((metric) => buckets.map((b) => b.values.find((v) => v.metric === metric)?.value ?? null));
    const axisColor = getComputedStyle(el).color;
    const range: uPlot.Range.MinMax | undefined = from && to ? [new Date(from).getTime() / 1000, new Date(to).getTime() / 1000] : undefined;
    const plot = new uPlot({
      width: Math.max(280, el.clientWidth), height: 200,
      scales: { x: { time: true, ...(range ? { range } : {}) } },
      series: [{}, ...metrics.map((metric, i) => ({ label: percentileLabel(metric), stroke: COLORS[i % COLORS.length], width: 1.5, value: (_u: uPlot, v: number | null) => formatDuration(v) }))],
      axes: [{ stroke: axisColor, grid: { stroke: 'rgba(128,128,128,0.2)' } }, { stroke: axisColor, grid: { stroke: 'rgba(128,128,128,0.2)' }, values: (_u, vals) => vals.map((v) => formatDuration(v)) }],
    }, [xs, ...ys] as uPlot.AlignedData, el);
    return () => plot.destroy();
  }, [metrics, buckets, from, to]);
  if (buckets.length === 0) return <p className="muted">No runs in the last 24 hours.</p>;
  return <div ref={ref} className="chart" role="img" aria-label={`Response time percentiles (${metrics.map(percentileLabel).join(', ')}) over the last 24 hours, ${buckets.length} intervals`} />;
}
