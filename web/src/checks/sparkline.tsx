import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { formatDuration } from '../shared/format-duration.js';

/** Response times of the latest runs (oldest first) as a small uPlot line, with a text equivalent. */
export function Sparkline({ values, label }: { values: readonly number[]; label: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || values.length < 2) return;
    const xs = values.map((_, i) => i);
    const plot = new uPlot({
      width: 120, height: 28, pxAlign: false, cursor: { show: false }, legend: { show: false }, select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      scales: { x: { time: false }, y: { range: (_u, min, max) => [Math.min(0, min), max * 1.1 || 1] } },
      axes: [{ show: false }, { show: false }],
      series: [{}, { stroke: getComputedStyle(el).color, width: 1.5, points: { show: false } }],
    }, [xs, [...values]], el);
    return () => plot.destroy();
  }, [values]);
  const summary = values.length ? `${label}: ${values.length} latest runs, ${formatDuration(Math.min(...values))} to ${formatDuration(Math.max(...values))}` : `${label}: no runs yet`;
  return <span ref={ref} className="sparkline" role="img" aria-label={summary} title={summary}>{values.length < 2 && <span className="muted">{values.length ? formatDuration(values[0]) : '–'}</span>}</span>;
}
