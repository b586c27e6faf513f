import { mergeRollups, rollupMetricValue } from '../domain/result-rollup.js';
import { planAnalyticsWindow, rollupIssues } from '../domain/retention-analytics-plan.js';
import { ceilTo, HOUR_MS, rawResultsFrom, type RetentionSettings } from '../domain/retention-policy.js';
import { validationError, type InputSource } from '../domain/lookout-error.js';
import type { AnalyticsCell, AnalyticsQuery } from '../store/analytics-repository.js';
import type { Store } from '../store/create-store.js';
import { createResultRollupsRepository, type RollupCell } from '../store/result-rollups-repository.js';

/** Where the keys of a query came from, to name them in a refusal. */
export interface QueryOrigin {
  source: InputSource;
  /** The metric names as asked (issue keys are `metrics.<index in this list>`). */
  names: readonly string[];
}

const keyOf = (c: { checkId: string; group: string | number | null; bucketStart: number | null }) => `${c.checkId}|${c.group ?? ''}|${c.bucketStart ?? ''}`;
const compare = (a: string | number | null, b: string | number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/**
 * Analytics cells for any window: inside the raw result retention they are computed from raw
 * results (exactly as before); a window reaching past it is answered from the hourly and daily
 * roll-ups for that part and raw results for the rest, merged per cell. What roll-ups do not keep
 * is refused (a VALIDATION error naming the key), never answered with zeros.
 */
export function createAnalyticsAcrossRetention({ store, settings }: { store: Store; settings?: RetentionSettings }) {
  const rollups = createResultRollupsRepository(store.db);
  return {
    async aggregate(accountId: string, q: AnalyticsQuery, now: Date, origin: QueryOrigin): Promise<AnalyticsCell[]> {
      if (!settings || settings.resultDays <= 0) return store.analytics.aggregate(accountId, q);
      // Inside the retention raw results are complete whatever the roll-ups did: no need to ask where they are.
      if (q.from.getTime() >= ceilTo(rawResultsFrom(settings, now)!, HOUR_MS).getTime()) return store.analytics.aggregate(accountId, q);
      const plan = planAnalyticsWindow(q, now, settings, await rollups.watermarks());
      if (plan.parts.length === 1 && plan.parts[0]!.source === 'raw') return store.analytics.aggregate(accountId, q);
      const issues = rollupIssues(plan, {
        metrics: q.metrics, metricIndexes: q.metrics.map((m) => origin.names.indexOf(m.name)),
        bucketSeconds: q.bucketSeconds, groupBy: q.groupBy, status: q.status,
      });
      if (issues.length) throw validationError(issues, origin.source);
      const merged = new Map<string, RollupCell>();
      for (const part of plan.parts) {
        const cells = await rollups.cells(accountId, part.source, {
          checkIds: q.checkIds, from: part.from, to: part.to, bucketSeconds: q.bucketSeconds, byLocation: q.groupBy === 'runLocation',
        });
        for (const c of cells) {
          const seen = merged.get(keyOf(c));
          merged.set(keyOf(c), seen ? { ...c, rollup: mergeRollups(seen.rollup, c.rollup) } : c);
        }
      }
      let cells = [...merged.values()]
        .sort((a, b) => compare(a.checkId, b.checkId) || compare(a.group, b.group) || compare(a.bucketStart, b.bucketStart));
      if (q.groups) {
        const groups = [...new Set(cells.map((c) => `${c.checkId}|${c.group ?? ''}`))].slice(q.groups.offset, q.groups.offset + q.groups.limit);
        const page = new Set(groups);
        cells = cells.filter((c) => page.has(`${c.checkId}|${c.group ?? ''}`));
      }
      return cells.map((c) => ({ checkId: c.checkId, group: c.group, bucketStart: c.bucketStart, values: q.metrics.map((m) => rollupMetricValue(c.rollup, m)) }));
    },
  };
}
