import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATIONS, ANALYTICS_METRICS, TIMING_METRICS } from '../../src/domain/analytics-metrics.js';
import { quickRangeWindow } from '../../src/domain/quick-range.js';
import { BACKENDS } from '../support/backends.js';
import { httpProbe, probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

function expectError(res: TestResponse, status: number, key?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  if (key !== undefined) expect(res.body.validation.keys).toContain(key);
}

/** One seeded run, as the expected values are computed from it. */
interface Seed {
  at: Date;
  resultType: 'FINAL' | 'ATTEMPT';
  location: string;
  status: number;
  failed: boolean;
  responseTime: number;
  phases: { dns: number; tcp: number; tls: number; firstByte: number; download: number };
}

const COLUMN: Record<string, (s: Seed) => number> = {
  responseTime: (s) => s.responseTime,
  wait: (s) => s.phases.firstByte,
  dns: (s) => s.phases.dns,
  tcp: (s) => s.phases.tcp,
  firstByte: (s) => s.phases.firstByte,
  download: (s) => s.phases.download,
};

/** PostgreSQL's percentile_cont: linear interpolation between the closest ranks. */
function percentile(sorted: number[], p: number): number {
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function aggregate(values: number[], aggregation: string): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const sum = values.reduce((t, v) => t + v, 0);
  const mean = sum / values.length;
  switch (aggregation) {
    case 'avg': return mean;
    case 'sum': return sum;
    case 'min': return sorted[0]!;
    case 'max': return sorted.at(-1)!;
    case 'median': case 'p50': return percentile(sorted, 0.5);
    case 'p90': return percentile(sorted, 0.9);
    case 'p95': return percentile(sorted, 0.95);
    case 'p99': return percentile(sorted, 0.99);
    case 'stddev': return values.length < 2 ? null : Math.sqrt(values.reduce((t, v) => t + (v - mean) ** 2, 0) / (values.length - 1));
    default: throw new Error(aggregation);
  }
}

/** The value of `metric` over `seeds`, computed here independently of the server. */
function expected(metric: string, seeds: Seed[]): number | null {
  const finals = seeds.filter((s) => s.resultType === 'FINAL');
  if (metric === 'retries') return seeds.filter((s) => s.resultType === 'ATTEMPT').length;
  if (metric === 'availability') return finals.length ? (100 * finals.filter((s) => !s.failed).length) / finals.length : null;
  const [base, aggregation = 'avg'] = metric.split('_');
  return aggregate(finals.map(COLUMN[base!]!), aggregation);
}

/** Values are rounded to 2 decimals by the server. */
function expectClose(actual: unknown, wanted: number | null, label: string): void {
  if (wanted === null) {
    expect(actual, label).toBeNull();
    return;
  }
  expect(typeof actual, label).toBe('number');
  expect(Math.abs((actual as number) - wanted), `${label}: ${actual} vs ${wanted}`).toBeLessThanOrEqual(0.0051);
}

const REQUESTS: Record<string, Record<string, unknown>> = {
  api: { request: { url: 'https://shop.test/' } },
  browser: { script: 'await page.goto("https://shop.test")' },
  multistep: { script: 'await request.get("https://shop.test")' },
  tcp: { request: { hostname: 'db.test', port: 5432 } },
  url: { request: { url: 'https://shop.test/' } },
  dns: { request: { query: 'shop.test' } },
  icmp: { request: { hostname: 'shop.test' } },
  heartbeat: { heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } },
};

describe.each(BACKENDS)('analytics on $name', (backend) => {
  let s: TestServer;
  let a: TestClient;
  let b: TestClient;
  let rec: ReturnType<typeof testRecorder>;
  let api: Record<string, any>;
  let seeds: Seed[];
  const now = Date.now();

  const createCheck = async (client: TestClient, segment: string, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', `/v1/checks/${segment}`, { name: `${segment} check`, ...REQUESTS[segment], ...body });
    expect(res.status, res.text).toBe(201);
    return res.body as Record<string, any>;
  };
  const report = async (path: string) => {
    const res = await a.request('GET', path);
    expect(res.status, res.text).toBe(200);
    return res.body as Record<string, any>;
  };

  beforeAll(async () => {
    s = await startTestServer({ backend, config: { rateLimitMax: 600_000 } });
    ({ a, b } = s);
    rec = testRecorder(s.lookout.store);
    api = await createCheck(a, 'api', { tags: ['shop'], frequency: 5, locations: ['eu-west-1', 'us-east-1', 'ap-south-1'] });
    const check = runnable(a, api);
    const locations = ['eu-west-1', 'us-east-1', 'ap-south-1'];
    seeds = [];
    for (let k = 1; k <= 30; k++) {
      const at = new Date(now - k * 7 * MINUTE);
      const failed = k % 6 === 0;
      const seed: Seed = {
        at, resultType: 'FINAL', location: locations[k % 3]!, status: failed ? 500 : 200, failed, responseTime: 0,
        phases: { dns: (k % 7) + 0.5, tcp: 10 + (k % 5), tls: (2 * k) % 11, firstByte: 40 + 3 * k, download: ((k * k) % 23) + 0.25 },
      };
      const sequenceId = randomUUID();
      if (k % 4 === 0) {
        const attempt: Seed = { ...seed, at: new Date(at.getTime() - 30_000), resultType: 'ATTEMPT', status: 503, failed: true, phases: { ...seed.phases, firstByte: 900 } };
        const rt = await rec.record({ check, location: attempt.location, sequenceId, resultType: 'ATTEMPT', probe: httpProbe({ at: attempt.at, status: 503, phases: attempt.phases, hasFailures: true }) });
        attempt.responseTime = rt.responseTime;
        seeds.push(attempt);
      }
      const result = await rec.record({
        check, location: seed.location, sequenceId, attempts: k % 4 === 0 ? 2 : 1,
        probe: httpProbe({ at, status: seed.status, phases: seed.phases, hasFailures: failed, isDegraded: k % 5 === 0 }),
      });
      seed.responseTime = result.responseTime;
      seeds.push(seed);
    }
    // Outside the window, a test session's run and another check's runs: none of them counts.
    await rec.record({ check, probe: httpProbe({ at: new Date(now - 25 * HOUR), status: 500, hasFailures: true }) });
    await rec.record({ check, testSessionId: randomUUID(), probe: httpProbe({ at: new Date(now - HOUR), status: 500, hasFailures: true }) });
    const other = await createCheck(a, 'api');
    await rec.record({ check: runnable(a, other), probe: httpProbe({ at: new Date(now - HOUR), status: 500, hasFailures: true }) });
  });
  afterAll(async () => s?.close());

  const apiMetrics = ANALYTICS_METRICS;

  it('computes every metric of an API check over the last 24 hours exactly as defined', async () => {
    const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=${apiMetrics.join(',')}`);
    expect(body).toMatchObject({
      checkId: api.id, name: 'api check', checkType: 'API', activated: true, muted: false, frequency: 5, tags: ['shop'],
      pagination: { page: 1, limit: 10 },
    });
    expect(new Date(body.to).getTime() - new Date(body.from).getTime()).toBe(24 * HOUR);
    expect(body.series).toHaveLength(1);
    expect(body.series[0].data).toHaveLength(1);
    const entry = body.series[0].data[0];
    expect(entry.from).toBe(body.from);
    expect(entry.to).toBe(body.to);
    expect(apiMetrics.length).toBe(TIMING_METRICS.length * (AGGREGATIONS.length + 1) + 2);
    for (const metric of apiMetrics) expectClose(entry[metric], expected(metric, seeds), metric);
    // Sanity of the seed: some failures, some retries, a degraded run that still counts as available.
    expect(entry.availability).toBeGreaterThan(0);
    expect(entry.availability).toBeLessThan(100);
    expect(entry.retries).toBe(7);
  });

  it('describes each requested metric with its label and unit', async () => {
    const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=availability&metrics=responseTime_p95&metrics=retries&metrics=dns`);
    expect(body.metadata).toEqual({
      availability: { label: 'Availability', unit: 'percentage', aggregation: 'percentage' },
      responseTime_p95: { label: 'Response time (p95)', unit: 'ms', aggregation: 'p95' },
      retries: { label: 'Retries', unit: 'count', aggregation: 'count' },
      dns: { label: 'DNS lookup (average)', unit: 'ms', aggregation: 'avg' },
    });
    expect(Object.keys(body.series[0].data[0]).sort()).toEqual(['availability', 'dns', 'from', 'responseTime_p95', 'retries', 'to']);
  });

  it('splits the window into buckets of aggregationInterval minutes aligned to the epoch, leaving empty buckets out', async () => {
    const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=responseTime_avg,availability,retries,tcp_max&aggregationInterval=60`);
    const buckets = new Map<number, Seed[]>();
    for (const seed of seeds) {
      const start = Math.floor(seed.at.getTime() / HOUR) * HOUR;
      buckets.set(start, [...(buckets.get(start) ?? []), seed]);
    }
    const starts = [...buckets.keys()].sort((x, y) => x - y);
    const data = body.series[0].data;
    expect(data.map((e: { from: string }) => e.from)).toEqual(starts.map((t) => new Date(t).toISOString()));
    data.forEach((e: Record<string, any>, i: number) => {
      expect(e.to).toBe(new Date(starts[i]! + HOUR).toISOString());
      for (const metric of ['responseTime_avg', 'availability', 'retries', 'tcp_max']) {
        expectClose(e[metric], expected(metric, buckets.get(starts[i]!)!), `${metric} at ${e.from}`);
      }
    });
  });

  it('groups by runLocation, one series per location in name order, and pages through the series', async () => {
    const metrics = 'availability,responseTime_p90,retries';
    const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=${metrics}&groupBy=runLocation`);
    const locations = ['ap-south-1', 'eu-west-1', 'us-east-1'];
    expect(body.series.map((g: { runLocation: string }) => g.runLocation)).toEqual(locations);
    body.series.forEach((g: Record<string, any>, i: number) => {
      expect(g.data).toHaveLength(1);
      for (const metric of metrics.split(',')) expectClose(g.data[0][metric], expected(metric, seeds.filter((x) => x.location === locations[i])), metric);
    });
    const second = await report(`/v1/analytics/api-checks/${api.id}?metrics=${metrics}&groupBy=runLocation&limit=1&page=2`);
    expect(second.pagination).toEqual({ page: 2, limit: 1 });
    // The same series as on the full list (the window moved on a little between the two requests).
    expect(second.series.map((g: Record<string, any>) => ({ ...g, data: g.data.map(({ from: _f, to: _t, ...v }: Record<string, unknown>) => v) })))
      .toEqual([body.series[1]].map((g: Record<string, any>) => ({ ...g, data: g.data.map(({ from: _f, to: _t, ...v }: Record<string, unknown>) => v) })));
    const past = await report(`/v1/analytics/api-checks/${api.id}?metrics=${metrics}&groupBy=runLocation&limit=10&page=2`);
    expect(past.series).toEqual([]);
  });

  it('groups by statusCode', async () => {
    const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=availability,retries,responseTime_min&groupBy=statusCode`);
    expect(body.series.map((g: { statusCode: number }) => g.statusCode)).toEqual([200, 500, 503]);
    for (const g of body.series) {
      for (const metric of ['availability', 'retries', 'responseTime_min']) {
        expectClose(g.data[0][metric], expected(metric, seeds.filter((x) => x.status === g.statusCode)), `${metric} of ${g.statusCode}`);
      }
    }
  });

  it('groups by location and buckets at once', async () => {
    const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=responseTime_sum&groupBy=runLocation&aggregationInterval=120`);
    for (const g of body.series) {
      for (const e of g.data) {
        const from = new Date(e.from).getTime();
        const inCell = seeds.filter((x) => x.location === g.runLocation && x.at.getTime() >= from && x.at.getTime() < from + 2 * HOUR);
        expectClose(e.responseTime_sum, expected('responseTime_sum', inCell), `${g.runLocation} ${e.from}`);
      }
    }
  });

  it.each([
    ['success', (x: Seed) => !x.failed],
    ['failure', (x: Seed) => x.failed],
    ['success,failure', () => true],
  ])('keeps only the runs of filterByStatus=%s', async (filter, keep) => {
    const metrics = ['availability', 'retries', 'firstByte_avg'];
    const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=${metrics.join(',')}&filterByStatus=${filter}`);
    for (const metric of metrics) expectClose(body.series[0].data[0][metric], expected(metric, seeds.filter(keep)), metric);
  });

  it('takes from/to (UNIX seconds) over quickRange', async () => {
    const from = Math.floor((now - 60 * MINUTE) / 1000);
    const to = Math.floor((now - 20 * MINUTE) / 1000);
    const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=responseTime_avg,retries&quickRange=last30Days&from=${from}&to=${to}`);
    expect(body.from).toBe(new Date(from * 1000).toISOString());
    expect(body.to).toBe(new Date(to * 1000).toISOString());
    const inside = seeds.filter((x) => x.at.getTime() >= from * 1000 && x.at.getTime() < to * 1000);
    expect(inside.length).toBeGreaterThan(2);
    expectClose(body.series[0].data[0].responseTime_avg, expected('responseTime_avg', inside), 'responseTime_avg');
    expectClose(body.series[0].data[0].retries, expected('retries', inside), 'retries');
  });

  it.each(['last7Days', 'last30Days', 'thisWeek', 'thisMonth', 'lastWeek', 'lastMonth'] as const)(
    'reports the %s window in UTC', async (range) => {
      const body = await report(`/v1/analytics/api-checks/${api.id}?metrics=availability&quickRange=${range}`);
      const at = new Date(body.to);
      const window = quickRangeWindow(range, range === 'lastWeek' || range === 'lastMonth' ? new Date() : at);
      expect(body.from).toBe(window.from.toISOString());
      expect(body.to).toBe(window.to.toISOString());
    },
  );

  it('answers one entry with nulls, and no retries, for a window without results', async () => {
    const fresh = await createCheck(a, 'api');
    const body = await report(`/v1/analytics/api-checks/${fresh.id}?metrics=availability,responseTime_avg,retries`);
    expect(body.series).toEqual([{ data: [{ from: body.from, to: body.to, availability: null, responseTime_avg: null, retries: 0 }] }]);
    const grouped = await report(`/v1/analytics/api-checks/${fresh.id}?metrics=availability&groupBy=runLocation`);
    expect(grouped.series).toEqual([]);
  });

  it.each(Object.keys(REQUESTS))('serves the %s route for checks of that type', async (segment) => {
    const routes: Record<string, string> = {
      api: 'api-checks', browser: 'browser-checks', multistep: 'multistep-checks', tcp: 'tcp-checks',
      url: 'url-monitors', dns: 'dns', icmp: 'icmp', heartbeat: 'heartbeat-checks',
    };
    const check = await createCheck(a, segment);
    await rec.record({ check: runnable(a, check), probe: probe({ responseTime: 42 }) });
    await rec.record({ check: runnable(a, check), probe: probe({ responseTime: 58, hasFailures: true }) });
    const metrics = segment === 'heartbeat' ? 'availability' : 'availability,responseTime_avg,retries';
    const body = await report(`/v1/analytics/${routes[segment]}/${check.id}?metrics=${metrics}`);
    expect(body.checkType).toBe(check.checkType);
    expect(body.series[0].data[0]).toMatchObject(segment === 'heartbeat' ? { availability: 50 } : { availability: 50, responseTime_avg: 50, retries: 0 });
    // The route of another type does not know the check.
    const wrong = segment === 'api' ? 'tcp-checks' : 'api-checks';
    expectError(await a.request('GET', `/v1/analytics/${wrong}/${check.id}?metrics=availability`), 404);
  });

  describe('POST /v1/analytics/checks', () => {
    it('answers a flat entry per known check in the order asked, with the metrics that apply to its type', async () => {
      const heartbeat = await createCheck(a, 'heartbeat');
      const foreign = await createCheck(b, 'api');
      const res = await a.request('POST', '/v1/analytics/checks', { checkIds: [heartbeat.id, UNKNOWN_UUID, api.id, foreign.id] });
      expect(res.status).toBe(200);
      expect(res.body.map((e: { checkId: string }) => e.checkId)).toEqual([heartbeat.id, api.id]);
      expect(res.body[0]).toEqual({ checkId: heartbeat.id, name: 'heartbeat check', checkType: 'HEARTBEAT', from: expect.any(String), to: expect.any(String), availability: null });
      const entry = res.body[1];
      expect(Object.keys(entry).sort()).toEqual(['availability', 'checkId', 'checkType', 'from', 'name', 'responseTime_avg', 'responseTime_p50', 'responseTime_p95', 'responseTime_p99', 'to']);
      for (const metric of ['availability', 'responseTime_avg', 'responseTime_p50', 'responseTime_p95', 'responseTime_p99']) {
        expectClose(entry[metric], expected(metric, seeds), metric);
      }
    });

    it('takes the quick range from the query, as the checkly CLI sends it, or from the body', async () => {
      const fromQuery = await a.request('POST', '/v1/analytics/checks?quickRange=last7Days', { checkIds: [api.id] });
      expect(new Date(fromQuery.body[0].to).getTime() - new Date(fromQuery.body[0].from).getTime()).toBe(7 * 24 * HOUR);
      const fromBody = await a.request('POST', '/v1/analytics/checks?quickRange=last7Days', { checkIds: [api.id], quickRange: 'lastMonth' });
      const window = quickRangeWindow('lastMonth', new Date());
      expect(fromBody.body[0]).toMatchObject({ from: window.from.toISOString(), to: window.to.toISOString(), availability: null });
    });

    it('computes the metrics named in the body over from/to', async () => {
      const tcp = await createCheck(a, 'tcp');
      await rec.record({ check: runnable(a, tcp), resultType: 'ATTEMPT', probe: probe({ at: new Date(now - 2 * HOUR), hasFailures: true }) });
      const from = Math.floor((now - 3 * HOUR) / 1000);
      const res = await a.request('POST', '/v1/analytics/checks', { checkIds: [api.id, tcp.id], metrics: ['retries', 'dns_p95'], from, to: Math.floor(now / 1000) + 1 });
      expect(res.status).toBe(200);
      const inside = seeds.filter((x) => x.at.getTime() >= from * 1000);
      expectClose(res.body[0].retries, expected('retries', inside), 'retries');
      expectClose(res.body[0].dns_p95, expected('dns_p95', inside), 'dns_p95');
      expect(res.body[1]).toEqual({ checkId: tcp.id, name: 'tcp check', checkType: 'TCP', from: new Date(from * 1000).toISOString(), to: expect.any(String), retries: 1 });
    });
  });

  it('lists the metrics of each check type with labels and units', async () => {
    const res = await a.request('GET', '/v1/analytics/metrics');
    expect(res.status).toBe(200);
    const byType = Object.fromEntries(res.body.map((t: { checkType: string; metrics: { name: string }[] }) => [t.checkType, t.metrics.map((m) => m.name)]));
    expect(Object.keys(byType).sort()).toEqual(['AGENTIC', 'API', 'BROWSER', 'DNS', 'GRPC', 'HEARTBEAT', 'ICMP', 'MULTI_STEP', 'PLAYWRIGHT', 'SSL', 'TCP', 'TRACEROUTE', 'URL']);
    expect(byType.API).toEqual(ANALYTICS_METRICS);
    expect(byType.URL).toEqual(ANALYTICS_METRICS);
    expect(byType.HEARTBEAT).toEqual(['availability']);
    expect(byType.BROWSER).toEqual(['responseTime', 'availability', 'retries', ...AGGREGATIONS.map((x) => `responseTime_${x}`)]);
    const tcp = await a.request('GET', '/v1/analytics/metrics?checkType=TCP');
    expect(tcp.body).toHaveLength(1);
    expect(tcp.body[0].metrics[0]).toEqual({ name: 'responseTime', label: 'Response time (average)', unit: 'ms', aggregation: 'avg' });
  });

  it('answers 404 to another account\'s check, as for an unknown one', async () => {
    expectError(await b.request('GET', `/v1/analytics/api-checks/${api.id}?metrics=availability`), 404);
    expectError(await a.request('GET', `/v1/analytics/api-checks/${UNKNOWN_UUID}?metrics=availability`), 404);
    const res = await b.request('POST', '/v1/analytics/checks', { checkIds: [api.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  describe('bad input', () => {
    let browser: Record<string, any>;
    let heartbeat: Record<string, any>;
    let tcp: Record<string, any>;
    beforeAll(async () => {
      browser = await createCheck(a, 'browser');
      heartbeat = await createCheck(a, 'heartbeat');
      tcp = await createCheck(a, 'tcp');
    });

    const apiReport = (query: string) => () => `/v1/analytics/api-checks/${api.id}?${query}`;
    it.each<[string, number, () => string, string?]>([
      ['no metrics', 400, apiReport(''), 'metrics'],
      ['an empty metrics list', 400, apiReport('metrics='), 'metrics'],
      ['an unknown metric', 400, apiReport('metrics=availability,latency_avg'), 'metrics.1'],
      ['an unknown suffix', 400, apiReport('metrics=responseTime_p42'), 'metrics.0'],
      ['101 metrics', 400, apiReport(`metrics=${Array(101).fill('dns').join(',')}`), 'metrics'],
      ['an unknown quickRange', 400, apiReport('metrics=availability&quickRange=yesterday'), 'quickRange'],
      ['aggregationInterval 0', 400, apiReport('metrics=availability&aggregationInterval=0'), 'aggregationInterval'],
      ['aggregationInterval 43201', 400, apiReport('metrics=availability&aggregationInterval=43201'), 'aggregationInterval'],
      ['a fractional aggregationInterval', 400, apiReport('metrics=availability&aggregationInterval=1.5'), 'aggregationInterval'],
      ['an unknown groupBy', 400, apiReport('metrics=availability&groupBy=region'), 'groupBy'],
      ['an unknown filterByStatus', 400, apiReport('metrics=availability&filterByStatus=degraded'), 'filterByStatus.0'],
      ['limit 0', 400, apiReport('metrics=availability&limit=0'), 'limit'],
      ['limit 101', 400, apiReport('metrics=availability&limit=101'), 'limit'],
      ['page 0', 400, apiReport('metrics=availability&page=0'), 'page'],
      ['a text from', 400, apiReport('metrics=availability&from=yesterday'), 'from'],
      ['a negative to', 400, apiReport('metrics=availability&to=-1'), 'to'],
      ['from after to', 400, apiReport('metrics=availability&from=2000&to=1000'), 'from'],
      ['an id that is not a UUID', 400, () => '/v1/analytics/api-checks/7?metrics=availability', 'id'],
      ['an unknown id', 404, () => `/v1/analytics/api-checks/${UNKNOWN_UUID}?metrics=availability`],
      ['an unknown route segment', 404, () => `/v1/analytics/ftp-checks/${api.id}?metrics=availability`],
      ['a DNS timing of a browser check', 400, () => `/v1/analytics/browser-checks/${browser.id}?metrics=availability,dns_avg`, 'metrics.1'],
      ['a response time of a heartbeat', 400, () => `/v1/analytics/heartbeat-checks/${heartbeat.id}?metrics=responseTime_p95`, 'metrics.0'],
      ['retries of a heartbeat', 400, () => `/v1/analytics/heartbeat-checks/${heartbeat.id}?metrics=retries`, 'metrics.0'],
      ['groupBy statusCode of a TCP check', 400, () => `/v1/analytics/tcp-checks/${tcp.id}?metrics=availability&groupBy=statusCode`, 'groupBy'],
    ])('GET /v1/analytics/{type}/{id} with %s answers %i', async (_label, status, path, key) => {
      expectError(await a.request('GET', path()), status, key);
    });

    it.each<[string, number, string, unknown, string?]>([
      ['no checkIds', 400, '', {}, 'checkIds'],
      ['an empty checkIds', 400, '', { checkIds: [] }, 'checkIds'],
      ['101 checkIds', 400, '', { checkIds: Array.from({ length: 101 }, () => randomUUID()) }, 'checkIds'],
      ['a check id that is not a UUID', 400, '', { checkIds: ['abc'] }, 'checkIds.0'],
      ['checkIds that is a string', 400, '', { checkIds: UNKNOWN_UUID }, 'checkIds'],
      ['an unknown metric', 400, '', { checkIds: [UNKNOWN_UUID], metrics: ['apdex'] }, 'metrics.0'],
      ['an unknown quickRange in the body', 400, '', { checkIds: [UNKNOWN_UUID], quickRange: 'today' }, 'quickRange'],
      ['an unknown quickRange in the query', 400, '?quickRange=today', { checkIds: [UNKNOWN_UUID] }, 'quickRange'],
      ['a text from', 400, '', { checkIds: [UNKNOWN_UUID], from: 'monday' }, 'from'],
      ['from after to', 400, '', { checkIds: [UNKNOWN_UUID], from: 2000, to: 1000 }, 'from'],
      ['a body that is a list', 400, '', [UNKNOWN_UUID], '(root)'],
      ['a body that is not JSON', 400, '', '{"checkIds":['],
    ])('POST /v1/analytics/checks with %s answers %i', async (_label, status, query, body, key) => {
      expectError(await a.request('POST', `/v1/analytics/checks${query}`, body), status, key);
    });

    it.each<[string, string, string]>([
      ['an unknown checkType', 'checkType=FTP', 'checkType'],
      ['a lower-case checkType', 'checkType=api', 'checkType'],
    ])('GET /v1/analytics/metrics with %s answers 400', async (_label, query, key) => {
      expectError(await a.request('GET', `/v1/analytics/metrics?${query}`), 400, key);
    });
  });
});
