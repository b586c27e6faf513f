import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetric } from '../../src/domain/analytics-metrics.js';
import { DAY_MS, DEFAULT_RETENTION, HOUR_MS, type RetentionSettings } from '../../src/domain/retention-policy.js';
import { createAnalyticsService } from '../../src/service/analytics-service.js';
import { createDataRetention } from '../../src/jobs/data-retention.js';
import { rollUpResults } from '../../src/service/result-rollups.js';
import type { AnalyticsCell } from '../../src/store/analytics-repository.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../support/backends.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { seedCheck } from '../support/retention-seed.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { percentileTolerance } from '../support/percentile-tolerance.js';

const logger = pino({ level: 'silent' });
const LOCATIONS = ['eu-west-1', 'us-east-1', 'ap-south-1'];
const EXACT = ['availability', 'retries', 'responseTime', 'responseTime_min', 'responseTime_max', 'responseTime_sum'];
const ESTIMATED = ['responseTime_p50', 'responseTime_median', 'responseTime_p90', 'responseTime_p95', 'responseTime_p99'];
const METRICS = [...EXACT, 'responseTime_stddev', ...ESTIMATED];
const SETTINGS: RetentionSettings = { ...DEFAULT_RETENTION, resultDays: 30, hourlyRollupDays: 90, dailyRollupDays: 365 };

/** Seeds three days of runs starting at `start`: every 20 minutes per location, some failing, some retried. */
async function seedRuns(store: Store, start: Date) {
  const check = await seedCheck(store, 'API');
  for (let k = 0; k < 3 * 72; k++) {
    const at = new Date(start.getTime() + k * 20 * 60_000 + (k % 7) * 1000);
    const location = LOCATIONS[k % 3]!;
    // Integral times keep sums exact in floating point, as in numeric.
    const responseTime = 40 + ((k * 7919) % 613) + (k % 29 === 0 ? 3000 : 0);
    if (k % 5 === 0) await check.result({ at: new Date(at.getTime() - 5000), location, responseTime: 999, failed: true, resultType: 'ATTEMPT' });
    await check.result({ at, location, responseTime, failed: k % 11 === 0, degraded: k % 13 === 0 });
  }
  return check;
}

const round = (cells: AnalyticsCell[]) => cells.map((c) => ({ checkId: c.checkId, group: c.group, bucketStart: c.bucketStart }));

describe.each(BACKENDS)('result roll-ups on $name', (backend) => {
  let store: Store;
  let clock: ManualClock;
  let assetsDir: string;
  const ago = (days: number) => new Date(clock.now().getTime() - days * DAY_MS);
  /**
   * Rolls up from the oldest result again. Tests backdate runs below the watermarks an earlier test
   * left, which live runs never are (they are stored within the 15-minute grace of their hour).
   */
  const rollUpAfresh = async () => {
    await store.db.query('DELETE FROM rollup_watermarks');
    return rollUpResults(store.db, clock.now());
  };

  beforeAll(async () => {
    store = await openTestStore(backend);
    clock = createManualClock(new Date('2024-06-30T12:34:56.000Z'));
    assetsDir = await mkdtemp(path.join(tmpdir(), 'lookout-rollups-'));
  });
  afterAll(async () => {
    await store?.close();
    await rm(assetsDir, { recursive: true, force: true });
  });

  it('say what the raw results said: counts, availability and sums exactly, percentiles within their bucket, per location and day', async () => {
    const start = new Date('2024-05-01T00:00:00.000Z');
    const { accountId, checkId } = await seedRuns(store, start);
    const metrics = METRICS.map((m) => parseMetric(m)!);
    const window = { from: start, to: new Date(start.getTime() + 3 * DAY_MS) };
    const query = { checkIds: [checkId], ...window, metrics, bucketSeconds: 86_400, groupBy: 'runLocation' as const, status: null };
    const raw = await store.analytics.aggregate(accountId, query);
    const times = new Map<string, number[]>();
    for (const r of await store.db.query<{ run_location: string; started_at: Date; response_time: number }>(
      `SELECT run_location, started_at, response_time FROM check_results WHERE check_id = $1 AND result_type = 'FINAL'`, [checkId],
    )) {
      const key = `${r.run_location}|${Math.floor(r.started_at.getTime() / DAY_MS) * 86_400}`;
      times.set(key, [...(times.get(key) ?? []), r.response_time]);
    }

    await rollUpAfresh();
    // Read only through the roll-ups: a service whose clock is so late that raw results of the window would be gone.
    const late = createAnalyticsService({ store, retention: SETTINGS, now: () => new Date(clock.now().getTime() + 10 * DAY_MS) });
    const report = await late.report(accountId, 'API', checkId, {
      from: window.from.getTime() / 1000, to: window.to.getTime() / 1000, metrics: METRICS, aggregationInterval: 1440, groupBy: 'runLocation', page: 1, limit: 10,
    });
    const rolled = report.series.flatMap((s: any) => s.data.map((d: any) => ({ group: s.runLocation, bucketStart: Date.parse(d.from) / 1000, values: METRICS.map((m) => d[m]) })));

    expect(rolled.map((c) => ({ checkId, group: c.group, bucketStart: c.bucketStart }))).toEqual(round(raw));
    raw.forEach((cell, i) => {
      const got = rolled[i]!.values;
      METRICS.forEach((name, m) => {
        const exact = cell.values[m]!;
        if (EXACT.includes(name)) expect(got[m], name).toBe(exact);
        else if (name === 'responseTime_stddev') expect(got[m]).toBeCloseTo(exact, 1);
        else {
          const fraction = { responseTime_p50: 0.5, responseTime_median: 0.5, responseTime_p90: 0.9, responseTime_p95: 0.95, responseTime_p99: 0.99 }[name]!;
          expect(Math.abs(got[m] - exact), `${name}: ${got[m]} vs ${exact}`).toBeLessThanOrEqual(percentileTolerance(times.get(`${cell.group}|${cell.bucketStart}`)!, fraction));
        }
      });
    });
  });

  it('count every run once when rolled up twice, or again from scratch', async () => {
    const { checkId } = await seedRuns(store, new Date('2024-05-10T00:00:00.000Z'));
    const snapshot = async () => store.db.query(
      `SELECT run_location, bucket_start, final_count, failure_count, attempt_count, response_time_sum, response_time_histogram
       FROM result_rollups_hourly WHERE check_id = $1 ORDER BY run_location, bucket_start`, [checkId],
    );
    await rollUpAfresh();
    const once = await snapshot();
    await rollUpResults(store.db, clock.now());
    expect(await snapshot()).toEqual(once);
    // Losing the watermark recomputes every hour from raw rows, replacing, never adding.
    await store.db.query(`DELETE FROM rollup_watermarks`);
    await rollUpResults(store.db, clock.now());
    expect(await snapshot()).toEqual(once);
    const [{ n }] = await store.db.query<{ n: number }>('SELECT sum(final_count)::int AS n FROM result_rollups_hourly WHERE check_id = $1', [checkId]) as [{ n: number }];
    expect(n).toBe(3 * 72);
  });

  it('roll days up from their hours, and leave open hours to a later run', async () => {
    const { checkId, result } = await seedCheck(store, 'API');
    // Runs of the current hour and of the one that just ended (not closed for 15 minutes yet).
    await result({ at: new Date(clock.now().getTime() - 10 * 60_000) });
    await result({ at: new Date(Math.floor(clock.now().getTime() / HOUR_MS) * HOUR_MS - 60_000) });
    await result({ at: ago(2) });
    const marks = await rollUpAfresh();
    expect(marks.hourly).toEqual(new Date('2024-06-30T12:00:00.000Z'));
    expect(marks.daily).toEqual(new Date('2024-06-30T00:00:00.000Z'));
    const rows = await store.db.query<{ bucket_start: Date; final_count: number }>('SELECT bucket_start, final_count FROM result_rollups_hourly WHERE check_id = $1', [checkId]);
    expect(rows.map((r) => r.bucket_start.toISOString())).toEqual(['2024-06-28T12:00:00.000Z', '2024-06-30T11:00:00.000Z']);
    const daily = await store.db.query<{ bucket_start: Date }>('SELECT bucket_start FROM result_rollups_daily WHERE check_id = $1', [checkId]);
    expect(daily.map((r) => r.bucket_start.toISOString())).toEqual(['2024-06-28T00:00:00.000Z']);
  });

  it('answer analytics for a window past the raw retention, merged with raw results where they remain, after the raw rows are gone', async () => {
    const { accountId, checkId, result } = await seedCheck(store, 'API');
    const times = [
      { at: ago(45), ms: 100, failed: false }, { at: ago(44), ms: 300, failed: true }, { at: ago(40), ms: 200, failed: false },
      { at: ago(10), ms: 400, failed: false }, { at: ago(1), ms: 500, failed: true },
    ];
    for (const t of times) await result({ at: t.at, responseTime: t.ms, failed: t.failed });
    await rollUpAfresh();
    const job = createDataRetention({ store, settings: SETTINGS, assetsDir, logger, now: clock.now });
    await job.pruneNow();
    await job.close();
    const [{ n }] = await store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM check_results WHERE check_id = $1', [checkId]) as [{ n: number }];
    expect(n).toBe(2);

    const analytics = createAnalyticsService({ store, retention: SETTINGS, now: clock.now });
    const report = await analytics.report(accountId, 'API', checkId, {
      from: ago(50).getTime() / 1000, metrics: ['availability', 'retries', 'responseTime_avg', 'responseTime_max'], page: 1, limit: 10,
    });
    expect(report.series[0]!.data).toEqual([expect.objectContaining({ availability: 60, retries: 0, responseTime_avg: 300, responseTime_max: 500 })]);
    const [summary] = await analytics.summary(accountId, { checkIds: [checkId], from: ago(50).getTime() / 1000, metrics: ['availability'] });
    expect(summary).toMatchObject({ availability: 60 });
    // Inside the raw retention nothing changes: exact, and every metric.
    const recent = await analytics.report(accountId, 'API', checkId, { quickRange: 'last30Days', metrics: ['availability', 'dns'], page: 1, limit: 10 });
    expect(recent.series[0]!.data).toEqual([expect.objectContaining({ availability: 50 })]);
  });

  it.each([
    ['a timing roll-ups do not keep', { metrics: ['availability', 'dns'] }, 'metrics.1'],
    ['grouping by status code', { groupBy: 'statusCode' as const }, 'groupBy'],
    ['a status filter', { filterByStatus: ['failure' as const] }, 'filterByStatus'],
    ['buckets that are not whole hours', { aggregationInterval: 30 }, 'aggregationInterval'],
  ])('refuse %s for a window past the raw retention, naming the key', async (_name, patch, key) => {
    const { accountId, checkId, result } = await seedCheck(store, 'API');
    await result({ at: ago(60) });
    await rollUpAfresh();
    const analytics = createAnalyticsService({ store, retention: SETTINGS, now: clock.now });
    const asked = analytics.report(accountId, 'API', checkId, { from: ago(70).getTime() / 1000, metrics: ['availability'], page: 1, limit: 10, ...patch });
    await expect(asked).rejects.toMatchObject({ code: 'VALIDATION', issues: [expect.objectContaining({ key })] });
  });
});

describe.each(BACKENDS)('analytics routes past the raw retention on $name', (backend) => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer({ backend, config: { retention: SETTINGS } });
  });
  afterAll(async () => s?.close());

  it('answer from roll-ups, and refuse what roll-ups cannot answer with a 400 naming the parameter', async () => {
    const store = s.lookout.store;
    const now = new Date();
    const check = await s.a.request('POST', '/v1/checks/api', {
      name: 'Old shop', activated: false, request: { method: 'GET', url: 'https://shop.test/' }, locations: ['eu-west-1'],
    });
    expect(check.status, check.text).toBe(201);
    const id = check.body.id as string;
    const insert = (days: number, failed: boolean) => store.db.query(
      `INSERT INTO check_results (id, account_id, check_id, sequence_id, result_type, attempts, name, check_type, run_location, has_failures,
         has_errors, is_degraded, over_max_response_time, started_at, stopped_at, response_time)
       VALUES (gen_random_uuid(), $1, $2, gen_random_uuid(), 'FINAL', 1, 'Old shop', 'API', 'eu-west-1', $3, $3, false, false, $4, $4, 120)`,
      [s.a.accountId, id, failed, new Date(now.getTime() - days * DAY_MS)],
    );
    await insert(60, false);
    await insert(59, true);
    await insert(58, false);
    await insert(57, false);
    const job = createDataRetention({ store, settings: SETTINGS, assetsDir: path.join(tmpdir(), 'lookout-no-assets'), logger });
    await job.pruneNow();
    await job.close();

    const from = Math.floor((now.getTime() - 61 * DAY_MS) / 1000);
    const to = Math.floor((now.getTime() - 50 * DAY_MS) / 1000);
    const ok = await s.a.request('GET', `/v1/analytics/api-checks/${id}?from=${from}&to=${to}&metrics=availability,responseTime_p95`);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.series[0].data[0]).toMatchObject({ availability: 75, responseTime_p95: 120 });

    const refused = await s.a.request('GET', `/v1/analytics/api-checks/${id}?from=${from}&to=${to}&metrics=availability,firstByte_p95`);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.validation.keys).toContain('metrics.1');
    const summary = await s.a.request('POST', '/v1/analytics/checks', { checkIds: [id], from, to, metrics: ['wait'] });
    expect(summary.status, summary.text).toBe(400);
    expect(summary.body.validation.keys).toContain('metrics.0');
  });
});
