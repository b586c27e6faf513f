import { describe, expect, it } from 'vitest';
import { parseMetric } from '../../src/domain/analytics-metrics.js';
import { planAnalyticsWindow, rollupIssues, type AnalyticsPlan } from '../../src/domain/retention-analytics-plan.js';
import { DAY_MS, DEFAULT_RETENTION, type RetentionSettings } from '../../src/domain/retention-policy.js';

const now = new Date('2024-06-30T12:34:56.000Z');
const at = (iso: string) => new Date(iso);
const settings = (patch: Partial<RetentionSettings> = {}): RetentionSettings => ({ ...DEFAULT_RETENTION, resultDays: 30, hourlyRollupDays: 90, ...patch });
const rolled = { hourly: at('2024-06-30T11:00:00.000Z'), daily: at('2024-06-30T00:00:00.000Z') };
const iso = (p: AnalyticsPlan) => p.parts.map((x) => ({ source: x.source, from: x.from.toISOString(), to: x.to.toISOString() }));

describe('analytics window plan', () => {
  it('reads raw results only for a window inside the raw retention, such as the last 30 days', () => {
    const plan = planAnalyticsWindow({ from: new Date(now.getTime() - 30 * DAY_MS), to: now }, now, settings(), rolled);
    expect(plan.parts).toEqual([{ source: 'raw', from: new Date(now.getTime() - 30 * DAY_MS), to: now }]);
  });

  it.each([
    ['results are kept for ever', settings({ resultDays: 0 }), rolled],
    ['nothing was rolled up (so nothing was pruned)', settings(), { hourly: null, daily: null }],
  ])('reads raw results only when %s', (_name, s, watermarks) => {
    const plan = planAnalyticsWindow({ from: at('2020-01-01T00:00:00.000Z'), to: now }, now, s, watermarks);
    expect(plan.parts.map((p) => p.source)).toEqual(['raw']);
  });

  it('reads hourly roll-ups up to where raw results are complete, whole hours, and raw results after', () => {
    const plan = planAnalyticsWindow({ from: at('2024-05-20T10:30:00.000Z'), to: now }, now, settings(), rolled);
    // Raw results are kept 30 days and one more: from 2024-05-30T12:34:56, rounded up to the hour.
    expect(iso(plan)).toEqual([
      { source: 'hourly', from: '2024-05-20T10:00:00.000Z', to: '2024-05-30T13:00:00.000Z' },
      { source: 'raw', from: '2024-05-30T13:00:00.000Z', to: now.toISOString() },
    ]);
  });

  it('reads raw results from where hourly roll-ups stopped when they lag', () => {
    const plan = planAnalyticsWindow({ from: at('2024-05-01T00:00:00.000Z'), to: now }, now, settings(), { hourly: at('2024-05-10T00:00:00.000Z'), daily: null });
    expect(iso(plan)).toEqual([
      { source: 'hourly', from: '2024-05-01T00:00:00.000Z', to: '2024-05-10T00:00:00.000Z' },
      { source: 'raw', from: '2024-05-10T00:00:00.000Z', to: now.toISOString() },
    ]);
  });

  it('reads daily roll-ups, whole days, before the hourly ones are kept, and never past the start of the raw part', () => {
    const plan = planAnalyticsWindow({ from: at('2024-01-15T08:00:00.000Z'), to: at('2024-06-01T00:00:00.000Z') }, now, settings(), rolled);
    expect(iso(plan)).toEqual([
      { source: 'daily', from: '2024-01-15T00:00:00.000Z', to: '2024-04-02T00:00:00.000Z' },
      { source: 'hourly', from: '2024-04-02T00:00:00.000Z', to: '2024-05-30T13:00:00.000Z' },
      { source: 'raw', from: '2024-05-30T13:00:00.000Z', to: '2024-06-01T00:00:00.000Z' },
    ]);
  });

  it('ends a window that ends before the raw results inside the roll-ups', () => {
    const plan = planAnalyticsWindow({ from: at('2024-05-01T00:00:00.000Z'), to: at('2024-05-02T00:00:00.000Z') }, now, settings(), rolled);
    expect(iso(plan)).toEqual([{ source: 'hourly', from: '2024-05-01T00:00:00.000Z', to: '2024-05-02T00:00:00.000Z' }]);
  });
});

describe('what roll-ups cannot answer', () => {
  const old = planAnalyticsWindow({ from: at('2024-05-01T00:00:00.000Z'), to: now }, now, settings(), rolled);
  const recent = planAnalyticsWindow({ from: at('2024-06-29T00:00:00.000Z'), to: now }, now, settings(), rolled);
  const metrics = (...names: string[]) => names.map((n) => parseMetric(n)!);
  const question = { metrics: metrics('availability'), bucketSeconds: null, groupBy: null, status: null } as const;

  it('asks nothing of a window inside the raw retention', () => {
    expect(rollupIssues(recent, { ...question, metrics: metrics('dns'), groupBy: 'statusCode', status: 'failure', bucketSeconds: 60 })).toEqual([]);
  });

  it('accepts availability, retries and every response time aggregation, by location, in hourly buckets', () => {
    expect(rollupIssues(old, { ...question, metrics: metrics('availability', 'retries', 'responseTime_p99', 'responseTime_stddev'), groupBy: 'runLocation', bucketSeconds: 7200 })).toEqual([]);
  });

  it.each([
    ['a timing roll-ups do not keep', { metrics: metrics('availability', 'wait_p95'), metricIndexes: [0, 3] }, 'metrics.3'],
    ['grouping by status code', { groupBy: 'statusCode' as const }, 'groupBy'],
    ['a status filter', { status: 'success' as const }, 'filterByStatus'],
    ['buckets that are not whole hours', { bucketSeconds: 1800 }, 'aggregationInterval'],
  ])('refuses %s, naming the key and where raw results start', (_name, patch, key) => {
    const issues = rollupIssues(old, { ...question, ...patch });
    expect(issues).toEqual([{ key, message: expect.stringContaining('raw results are kept from 2024-05-30T13:00:00.000Z') }]);
  });

  it('asks for whole days where daily roll-ups answer', () => {
    const older = planAnalyticsWindow({ from: at('2024-01-01T00:00:00.000Z'), to: now }, now, settings(), rolled);
    expect(rollupIssues(older, { ...question, bucketSeconds: 3600 })).toEqual([{ key: 'aggregationInterval', message: expect.stringContaining('1440 minutes') }]);
    expect(rollupIssues(older, { ...question, bucketSeconds: 86_400 })).toEqual([]);
  });
});
