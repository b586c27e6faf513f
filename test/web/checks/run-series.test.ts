import { describe, expect, it } from 'vitest';
import { runChartFrom, toRunSeries } from '../../../web/src/checks/run-series.js';

describe('per-run chart series', () => {
  it('put runs oldest first in seconds, once each, failed ones also in the failed series', () => {
    const series = toRunSeries([
      { id: 'c', startedAt: '2026-11-29T10:02:00Z', responseTime: 300, hasFailures: true },
      { id: 'a', startedAt: '2026-11-29T10:00:00Z', responseTime: 100, hasFailures: false },
      { id: 'b', startedAt: '2026-11-29T10:01:00Z', responseTime: 200, hasFailures: false },
      { id: 'a', startedAt: '2026-11-29T10:00:00Z', responseTime: 100, hasFailures: false },
    ]);
    const t0 = Date.parse('2026-11-29T10:00:00Z') / 1000;
    expect(series).toEqual({ xs: [t0, t0 + 60, t0 + 120], all: [100, 200, 300], failed: [null, null, 300] });
  });

  it('leave out runs without a response time or a readable start', () => {
    expect(toRunSeries([
      { id: 'a', startedAt: '2026-11-29T10:00:00Z', responseTime: null, hasFailures: true },
      { id: 'b', startedAt: 'soon', responseTime: 5, hasFailures: false },
    ])).toEqual({ xs: [], all: [], failed: [] });
  });

  it('start an hour or a day before now', () => {
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(runChartFrom('hour', now).toISOString()).toBe('2026-11-29T09:00:00.000Z');
    expect(runChartFrom('day', now).toISOString()).toBe('2026-11-28T10:00:00.000Z');
  });
});
