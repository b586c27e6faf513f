import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/events/lookout-event.js';
import { createLookout, type Lookout } from '../../src/main.js';
import { answersWithin } from '../support/answers-within.js';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { closedPort, startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const TOKEN = 'metrics-token-0123456789abcdef';
/** Generous bound on what should take milliseconds (a run against loopback, one alert delivery). */
const BOUND_MS = 20_000;

/** One sample of the exposition: `name{labels} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the sample named `name` whose labels include `labels`, or undefined. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples(text).find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

/** Resolves with the first event of `type` that `match` accepts. */
function nextEvent<T extends 'alertNotified' | 'checkResultCreated'>(lookout: Lookout, type: T, match: (e: EventOf<T>) => boolean): Promise<EventOf<T>> {
  return new Promise((resolve) => {
    const off = lookout.bus.subscribe(type, (e) => {
      if (!match(e)) return;
      off();
      resolve(e);
    });
  });
}

const apiCheck = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
  name, locations: ['eu-west-1'], useGlobalAlertSettings: false,
  alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 } },
  request: { method: 'GET', url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
  ...extra,
});

describe('GET /metrics', () => {
  let s: TestServer;
  let target: HttpTarget;
  let text: string;
  const ids: string[] = [];

  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer({ config: { runnerEnabled: true, metricsToken: TOKEN } }), startHttpTarget()]);
    const hook = await s.a.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: `${target.http.url}/status/200` } });
    expect(hook.status).toBe(201);
    const subscribed = { alertChannelSubscriptions: [{ alertChannelId: hook.body.id, activated: true }] };
    const checks = await Promise.all([
      s.a.request('POST', '/v1/checks/api', apiCheck('Passing', `${target.http.url}/status/200`)),
      s.a.request('POST', '/v1/checks/api', apiCheck('Failing', `${target.http.url}/status/500`, subscribed)),
      s.a.request('POST', '/v1/checks/api', apiCheck('Unreachable', `http://127.0.0.1:${await closedPort()}/`)),
    ]);
    for (const c of checks) expect(c.status).toBe(201);
    ids.push(...checks.map((c) => c.body.id as string), s.a.accountId, s.b.accountId);
    const [passing, failing, unreachable] = checks.map((c) => c.body.id as string);

    const delivered = nextEvent(s.lookout, 'alertNotified', (e) => e.checkId === failing);
    for (const id of [passing, failing, unreachable]) expect((await s.a.request('POST', `/v1/checks/${id}/run`)).status).toBe(200);
    expect((await s.a.request('GET', `/v1/checks/${passing}`)).status).toBe(200);
    expect((await s.b.request('GET', `/v1/checks/${passing}`)).status).toBe(404);
    expect((await s.a.request('GET', '/v1/no-such-route')).status).toBe(404);
    expect((await gql(s.a, 'query Probe { __typename }')).data).toEqual({ __typename: 'Query' });
    await answersWithin(delivered, BOUND_MS, 'the alert delivery of the failing check');

    const res = await s.raw('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    text = res.text;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await target?.close();
  });

  it('answers in the Prometheus text format, version 0.0.4', async () => {
    const res = await s.raw('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.text).toMatch(/^# HELP lookout_/m);
    expect(res.text).toMatch(/^# TYPE lookout_check_runs_total counter$/m);
  });

  it.each([
    ['no Authorization header', 401, undefined],
    ['a wrong token', 401, `Bearer ${TOKEN}-wrong`],
    ['the token as Basic credentials', 401, `Basic ${TOKEN}`],
    ['an API key of the account', 401, 'API_KEY'],
    ['the right token', 200, `Bearer ${TOKEN}`],
    ['the right token with a lower-case scheme', 200, `bearer ${TOKEN}`],
  ])('answers a scrape with %s with %i', async (_name, status, authorization) => {
    const value = authorization === 'API_KEY' ? `Bearer ${s.a.apiKey}` : authorization;
    const res = await s.raw('GET', '/metrics', { headers: value ? { authorization: value } : {} });
    expect(res.status).toBe(status);
    if (status === 401) {
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.stringContaining('LOOKOUT_METRICS_TOKEN') });
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    }
  });

  it.each(['passed', 'failed', 'error'])('counts FINAL runs by check type and outcome: one API run %s', (outcome) => {
    expect(valueOf(text, 'lookout_check_runs_total', { check_type: 'API', outcome })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'lookout_check_run_duration_seconds_count', { check_type: 'API' })).toBeGreaterThanOrEqual(3);
  });

  it('counts the alert delivery to the webhook channel as sent', () => {
    expect(valueOf(text, 'lookout_alert_deliveries_total', { channel_type: 'WEBHOOK', outcome: 'sent' })).toBeGreaterThanOrEqual(1);
  });

  it('times REST requests by route pattern and status class, never by raw path', () => {
    expect(valueOf(text, 'lookout_http_request_duration_seconds_count', { method: 'GET', route: '/v1/checks/:id', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'lookout_http_request_duration_seconds_count', { method: 'GET', route: '/v1/checks/:id', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'lookout_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'lookout_http_request_duration_seconds_count', { method: 'POST', route: '/v1/checks/:checkId/run', status_class: '2xx' })).toBe(3);
    const routes = new Set(samples(text).filter((x) => x.name.startsWith('lookout_http_request')).map((x) => x.labels.route));
    expect([...routes].filter((r) => r !== 'unmatched' && !r?.startsWith('/'))).toEqual([]);
    expect(routes.has('/v1/no-such-route')).toBe(false);
  });

  it('times GraphQL operations by operation type and outcome', () => {
    expect(valueOf(text, 'lookout_graphql_operation_duration_seconds_count', { operation_type: 'query', outcome: 'success' })).toBeGreaterThanOrEqual(1);
  });

  it('counts the events this process published, by type', () => {
    expect(valueOf(text, 'lookout_event_bus_published_total', { type: 'checkResultCreated' })).toBeGreaterThanOrEqual(3);
    expect(valueOf(text, 'lookout_event_bus_published_total', { type: 'alertNotified' })).toBeGreaterThanOrEqual(1);
  });

  it.each([
    'lookout_run_start_delay_seconds_count',
    'lookout_run_queue_depth',
    'lookout_run_leases_held',
    'lookout_runs_in_flight',
    'lookout_graphql_subscriptions_active',
    'lookout_process_cpu_seconds_total',
    'lookout_nodejs_eventloop_lag_seconds',
  ])('exposes %s', (name) => {
    expect(valueOf(text, name)).toBeGreaterThanOrEqual(0);
  });

  it('carries no account id, check id or target address anywhere', () => {
    for (const id of ids) expect(text).not.toContain(id);
    expect(text).not.toContain(target.http.url);
    expect(text).not.toContain(String(target.http.port));
  });

  it('is listed in the OpenAPI document as a public, non-JSON operation', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    const op = doc.paths['/metrics'].get;
    expect(op).toMatchObject({ operationId: 'getMetrics', tags: ['Observability'], security: [] });
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/plain']);
    expect(op.responses['401']).toBeDefined();
  });
});

describe('GET /metrics without LOOKOUT_METRICS_TOKEN', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('answers any scraper without credentials', async () => {
    const res = await s.raw('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('lookout_check_runs_total');
  });

  it('keeps each server\'s series apart from another\'s in the same process', async () => {
    const res = await s.raw('GET', '/metrics');
    expect(valueOf(res.text, 'lookout_check_runs_total')).toBeUndefined();
  });
});

describe('state change logs', () => {
  let lookout: Lookout;
  let url: string;
  let target: Server;
  let status = 500;
  const lines: Record<string, any>[] = [];

  beforeAll(async () => {
    target = createServer((_req, res) => res.writeHead(status).end('status'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const logger = pino({ level: 'info' }, new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, any>);
        done();
      },
    }));
    lookout = await createLookout({
      config: { port: 0, host: '127.0.0.1', runnerEnabled: true, bootstrapAccountId: undefined, bootstrapApiKey: undefined },
      storeOptions: BACKENDS[0]!.options(),
      logger,
    });
    url = (await lookout.listen()).replace('[::1]', '127.0.0.1');
  });
  afterAll(async () => {
    await lookout?.close();
    target?.close();
  });

  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${lookout.bootstrap.apiKey}`, 'x-lookout-account': lookout.bootstrap.accountId, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() as Record<string, any> };
  };

  it('logs at info level a check failing, then recovering, and each alert sent, with ids and no secrets', async () => {
    const port = (target.address() as AddressInfo).port;
    const hook = await request('POST', '/v1/alert-channels', {
      type: 'WEBHOOK', config: { name: 'Hook', url: `http://127.0.0.1:${port}/hook`, webhookSecret: 'hook-secret-value-123' },
    });
    expect(hook.status).toBe(201);
    const check = await request('POST', '/v1/checks/api', apiCheck('Flapping', `http://127.0.0.1:${port}/`, {
      alertChannelSubscriptions: [{ alertChannelId: hook.body.id, activated: true }],
    }));
    expect(check.status).toBe(201);
    const checkId = check.body.id as string;

    // The hook answers 500 as well while the check fails: the first delivery fails, the recovery's is sent.
    const failed = nextEvent(lookout, 'alertNotified', (e) => e.checkId === checkId);
    expect((await request('POST', `/v1/checks/${checkId}/run`)).body.results[0].hasFailures).toBe(true);
    await answersWithin(failed, BOUND_MS, 'the failure alert delivery');
    status = 200;
    const sent = nextEvent(lookout, 'alertNotified', (e) => e.checkId === checkId && e.notification.alertType === 'ALERT_RECOVERY');
    expect((await request('POST', `/v1/checks/${checkId}/run`)).body.results[0].hasFailures).toBe(false);
    await answersWithin(sent, BOUND_MS, 'the recovery alert delivery');

    const info = lines.filter((l) => l.level === 30 && l.checkId === checkId);
    const accountId = lookout.bootstrap.accountId;
    expect(info).toContainEqual(expect.objectContaining({ msg: 'check failing', accountId, from: null, to: 'FAILING', checkType: 'API' }));
    expect(info).toContainEqual(expect.objectContaining({ msg: 'check recovered', accountId, from: 'FAILING', to: 'PASSING' }));
    expect(info).toContainEqual(expect.objectContaining({ msg: 'alert sent', accountId, channelType: 'WEBHOOK', alertType: 'ALERT_RECOVERY', channelId: hook.body.id }));
    const warned = lines.filter((l) => l.level === 40 && l.checkId === checkId);
    expect(warned).toContainEqual(expect.objectContaining({ msg: expect.stringMatching(/^alert delivery failed/), accountId, channelType: 'WEBHOOK', alertType: 'ALERT_FAILURE' }));
    expect(JSON.stringify(lines)).not.toContain('hook-secret-value-123');
  }, 60_000);
});
