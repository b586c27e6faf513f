/**
 * A duration in milliseconds as people read it: `850 ms`, `1.25 s`, `12.5 s`, `2 min 5 s`, `1 h 3 min`;
 * `–` for a missing value.
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${trim((ms / 1000).toFixed(2))} s`;
  if (ms < 60_000) return `${trim((ms / 1000).toFixed(1))} s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) {
    const minutes = Math.floor(totalSeconds / 60);
    const seconds = totalSeconds % 60;
    return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  }
  const totalMinutes = Math.round(totalSeconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
}

/** `1.50` → `1.5`, `2.00` → `2`. */
function trim(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** An availability fraction or percentage (0..100) as `99.95 %`; `–` for a missing value. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (value === 100 || value === 0) return `${value} %`;
  return `${trim(value.toFixed(2))} %`;
}

/** Percentile metric names (`responseTime_p95`) as labels (`p95`); other names unchanged. */
export function percentileLabel(metric: string): string {
  const match = /_(p\d{2}|median|avg|min|max)$/.exec(metric);
  return match ? match[1]! : metric;
}
