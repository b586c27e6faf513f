import { formatPercent } from '../shared/format-duration.js';

/** An analytics summary as GraphQL answers it (or null for check types without analytics). */
type Summary = { values: readonly { metric: string; value?: number | null }[] } | null | undefined;

/** The windows uptime is shown over, in order, with how they read. */
export const UPTIME_WINDOWS = [
  { key: 'uptime24h', label: '24 h', long: 'last 24 hours' },
  { key: 'uptime7d', label: '7 d', long: 'last 7 days' },
  { key: 'uptime30d', label: '30 d', long: 'last 30 days' },
] as const;

/** The three summaries a check carries under the aliases of UPTIME_WINDOWS. */
export type UptimeSummaries = Partial<Record<(typeof UPTIME_WINDOWS)[number]['key'], Summary>>;

/** The availability (percentage) of a summary; null without runs in its window. */
export function availabilityOf(summary: Summary): number | null {
  const value = summary?.values.find((v) => v.metric === 'availability')?.value;
  return value === null || value === undefined || !Number.isFinite(value) ? null : value;
}

/** Uptime per window, as shown: "99.5 %", or "–" where the window has no runs. */
export function uptimeFigures(summaries: UptimeSummaries): { label: string; long: string; text: string; value: number | null }[] {
  return UPTIME_WINDOWS.map((w) => {
    const value = availabilityOf(summaries[w.key]);
    return { label: w.label, long: w.long, text: formatPercent(value), value };
  });
}
