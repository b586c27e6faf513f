import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanErrorMessage, errorHash } from '../../src/domain/clean-error-message.js';
import type { EventOf } from '../../src/events/lookout-event.js';
import { BACKENDS } from '../support/backends.js';
import { httpProbe, probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** Asserts the error body of conventions.md and, for 400s, that `key` is named. */
function expectError(res: TestResponse, status: number, key?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  if (key !== undefined) expect(res.body.validation.keys).toContain(key);
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

describe.each(BACKENDS)('check results, statuses and error groups on $name', (backend) => {
  let s: TestServer;
  let a: TestClient;
  let b: TestClient;
  let rec: ReturnType<typeof testRecorder>;

  beforeAll(async () => {
    // A budget far above what the suite sends: the limits themselves are tested on a server of their own.
    s = await startTestServer({ backend, config: { rateLimitMax: 600_000 } });
    ({ a, b } = s);
    rec = testRecorder(s.lookout.store);
  });
  afterAll(async () => s?.close());

  const createCheck = async (client: TestClient, body: Record<string, unknown> = {}, segment = 'api') => {
    const base = segment === 'tcp' ? { request: { hostname: 'db.test', port: 5432 } } : { request: { url: 'https://shop.test/' } };
    const res = await client.request('POST', `/v1/checks/${segment}`, { name: 'Storefront', locations: ['eu-west-1', 'us-east-1'], ...base, ...body });
    expect(res.status, res.text).toBe(201);
    return res.body as Record<string, any>;
  };
  /** Everything this part writes, in every account. */
  const snapshot = async () => {
    const db = s.lookout.store.db;
    return {
      results: await db.query('SELECT * FROM check_results ORDER BY id'),
      groups: await db.query('SELECT * FROM error_groups ORDER BY id'),
      statuses: await db.query('SELECT * FROM check_statuses ORDER BY check_id'),
    };
  };
  /** Resolves with the next `count` events of `type` about `checkId`. */
  const nextEvents = <T extends 'checkResultCreated' | 'checkStatusChanged'>(type: T, checkId: string, count: number) =>
    new Promise<EventOf<T>[]>((resolve) => {
      const seen: EventOf<T>[] = [];
      const off = rec.bus.subscribe(type, (e) => {
        if ((e as { checkId: string }).checkId !== checkId) return;
        seen.push(e);
        if (seen.length === count) {
          off();
          resolve(seen);
        }
      });
    });

  it('documents every route of results, statuses, error groups and analytics in /openapi.json', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/v2/check-results/{checkId}', '/v1/check-results/{checkId}', '/v1/check-results/{checkId}/{checkResultId}',
      '/v1/check-statuses', '/v1/check-statuses/{checkId}', '/v1/error-groups', '/v1/error-groups/{id}',
      '/v1/error-groups/checks/{checkId}', '/v1/analytics/api-checks/{id}', '/v1/analytics/heartbeat-checks/{id}',
      '/v1/analytics/checks', '/v1/analytics/metrics',
    ]) expect(paths).toContain(path);
    expect(doc.paths['/v1/error-groups/{id}'].patch.requestBody).toBeDefined();
    const metrics = doc.paths['/v1/analytics/dns/{id}'].get.parameters.find((p: { name: string }) => p.name === 'metrics');
    expect(metrics.required).toBe(true);
  });

  describe('recording a run', () => {
    it('stores a result with every field of the spec and answers it as GET /v1/check-results/{checkId}/{id} does', async () => {
      const check = await createCheck(a, { tags: ['shop'] });
      const at = new Date(Date.now() - 5 * MINUTE);
      const sequenceId = randomUUID();
      const result = await rec.record({ check: runnable(a, check), location: 'us-east-1', sequenceId, probe: httpProbe({ at, status: 201 }) });
      expect(result).toEqual({
        id: expect.any(String),
        name: 'Storefront',
        checkId: check.id,
        checkType: 'API',
        resultType: 'FINAL',
        hasFailures: false,
        hasErrors: false,
        isDegraded: false,
        isCancelled: false,
        overMaxResponseTime: false,
        runLocation: 'us-east-1',
        startedAt: at.toISOString(),
        stoppedAt: new Date(at.getTime() + 100).toISOString(),
        created_at: expect.any(String),
        responseTime: 100,
        apiCheckResult: expect.objectContaining({ response: expect.objectContaining({ status: 201 }) }),
        browserCheckResult: null,
        multiStepCheckResult: null,
        agenticCheckResult: null,
        checkRunId: expect.any(Number),
        attempts: 1,
        sequenceId,
        errorGroupIds: [],
        errors: [],
        // Stored by this process's recorder: a runner, on this host.
        ranOn: { kind: 'runner', hostname: os.hostname() },
      });
      const read = await a.request('GET', `/v1/check-results/${check.id}/${result.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(result);
    });

    it('numbers results with increasing checkRunIds', async () => {
      const check = await createCheck(a);
      const first = await rec.record({ check: runnable(a, check), probe: probe() });
      const second = await rec.record({ check: runnable(a, check), probe: probe() });
      expect(Number.isInteger(first.checkRunId)).toBe(true);
      expect(second.checkRunId).toBeGreaterThan(first.checkRunId);
    });

    it('shows the detail of a TCP run as tcpCheckResult, with its assertions, and the errors of the run', async () => {
      const check = await createCheck(a, {}, 'tcp');
      const assertions = [{ source: 'RESPONSE_DATA', property: null, comparison: 'CONTAINS', target: 'PONG', regex: null, actual: 'NOPE', passed: false }];
      const result = await rec.record({
        check: runnable(a, check),
        probe: probe({ hasFailures: true, hasErrors: true, errors: [{ code: 'ECONNRESET', message: 'socket hang up' }], assertions, details: { data: 'NOPE' } }),
      });
      expect(result.tcpCheckResult).toEqual({ data: 'NOPE', assertions });
      expect(result.errors).toEqual([{ code: 'ECONNRESET', message: 'socket hang up' }]);
      expect(result.apiCheckResult).toBeNull();
    });

    it('marks a run cancelled when its probe says CANCELLED', async () => {
      const check = await createCheck(a);
      const result = await rec.record({ check: runnable(a, check), probe: probe({ hasErrors: true, hasFailures: true, errors: [{ code: 'CANCELLED', message: 'run cancelled' }] }) });
      expect(result.isCancelled).toBe(true);
    });

    it('rejects a run of a deleted check as not found and writes nothing', async () => {
      const check = await createCheck(a);
      expect((await a.request('DELETE', `/v1/checks/${check.id}`)).status).toBe(204);
      const before = await snapshot();
      await expect(rec.record({ check: runnable(a, check), probe: probe({ hasFailures: true, errors: [{ code: 'X', message: 'boom' }] }) }))
        .rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await snapshot()).toEqual(before);
    });

    it('publishes checkResultCreated for every result, ATTEMPT ones included, with the check\'s tags and group', async () => {
      const group = await a.request('POST', '/v1/check-groups', { name: 'Shop' });
      const check = await createCheck(a, { tags: ['shop', 'prod'], groupId: group.body.id });
      const events = nextEvents('checkResultCreated', check.id, 2);
      const sequenceId = randomUUID();
      const attempt = await rec.record({ check: runnable(a, check), sequenceId, resultType: 'ATTEMPT', probe: probe({ hasFailures: true }) });
      const final = await rec.record({ check: runnable(a, check), sequenceId, attempts: 2, probe: probe() });
      const [e1, e2] = await events;
      expect(e1).toEqual({ type: 'checkResultCreated', accountId: a.accountId, checkId: check.id, groupId: group.body.id, tags: ['shop', 'prod'], result: attempt });
      expect(e2!.result).toEqual(final);
    });

    it('publishes checkStatusChanged when a FINAL result moves the check between passing, degraded and failing, and only then', async () => {
      const check = await createCheck(a);
      const c = runnable(a, check);
      const events = nextEvents('checkStatusChanged', check.id, 4);
      await rec.record({ check: c, probe: probe() });
      await rec.record({ check: c, probe: probe() });
      await rec.record({ check: c, resultType: 'ATTEMPT', probe: probe({ hasFailures: true }) });
      await rec.record({ check: c, probe: probe({ isDegraded: true }) });
      await rec.record({ check: c, probe: probe({ hasFailures: true, hasErrors: true, errors: [{ code: 'TIMEOUT', message: 'timed out' }] }) });
      await rec.record({ check: c, probe: probe({ hasFailures: true }) });
      await rec.record({ check: c, probe: probe() });
      const moves = (await events).map((e) => [e.previous, e.current]);
      expect(moves).toEqual([[null, 'PASSING'], ['PASSING', 'DEGRADED'], ['DEGRADED', 'FAILING'], ['FAILING', 'PASSING']]);
      const last = (await events).at(-1)!;
      expect(last).toMatchObject({ type: 'checkStatusChanged', accountId: a.accountId, checkId: check.id });
      expect(last.status).toEqual((await a.request('GET', `/v1/check-statuses/${check.id}`)).body);
    });
  });

  describe('GET /v2/check-results/{checkId}', () => {
    let check: Record<string, any>;
    /** Every seeded result, newest first. */
    let seeded: Record<string, any>[];
    const base = Date.now() - 2 * HOUR;

    beforeAll(async () => {
      check = await createCheck(a);
      const c = runnable(a, check);
      seeded = [];
      for (let i = 0; i < 24; i++) {
        const at = new Date(base + i * MINUTE);
        const location = i % 3 === 0 ? 'us-east-1' : 'eu-west-1';
        const failing = i % 4 === 0;
        const sequenceId = randomUUID();
        if (i % 5 === 0) {
          seeded.push(await rec.record({ check: c, location, sequenceId, resultType: 'ATTEMPT', probe: probe({ at: new Date(at.getTime() - 1000), hasFailures: true }) }));
        }
        seeded.push(await rec.record({ check: c, location, sequenceId, attempts: i % 5 === 0 ? 2 : 1, probe: probe({ at, hasFailures: failing, responseTime: 100 + i }) }));
      }
      // Two results started in the same millisecond: the cursor must still pass each exactly once.
      const tie = new Date(base + 30 * MINUTE);
      seeded.push(await rec.record({ check: c, probe: probe({ at: tie }) }));
      seeded.push(await rec.record({ check: c, probe: probe({ at: tie }) }));
      seeded.sort((x, y) => (x.startedAt === y.startedAt ? (x.id < y.id ? 1 : -1) : x.startedAt < y.startedAt ? 1 : -1));
    });

    const finals = () => seeded.filter((r) => r.resultType === 'FINAL');
    /** Follows nextId from the first page to the last. */
    const allPages = async (query: string) => {
      const pages: Record<string, any>[] = [];
      let nextId: string | null = null;
      do {
        const res: TestResponse = await a.request('GET', `/v2/check-results/${check.id}?${query}${nextId ? `&nextId=${nextId}` : ''}`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.length).toBe(res.body.entries.length);
        pages.push(res.body);
        nextId = res.body.nextId;
      } while (nextId);
      return pages;
    };

    it('lists FINAL results newest first, 10 by default, with a cursor to the next page', async () => {
      const res = await a.request('GET', `/v2/check-results/${check.id}`);
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(10);
      expect(res.body.entries).toEqual(finals().slice(0, 10));
      expect(typeof res.body.nextId).toBe('string');
    });

    it('walks every FINAL result exactly once by following nextId, ending with nextId null', async () => {
      const pages = await allPages('limit=7');
      expect(pages.flatMap((p) => p.entries)).toEqual(finals());
      expect(pages.at(-1)!.nextId).toBeNull();
      expect(pages.slice(0, -1).every((p) => p.length === 7)).toBe(true);
    });

    it('answers an exactly full last page with nextId null', async () => {
      const res = await a.request('GET', `/v2/check-results/${check.id}?limit=${finals().length}`);
      expect(res.body.length).toBe(finals().length);
      expect(res.body.nextId).toBeNull();
      const over = await a.request('GET', `/v2/check-results/${check.id}?limit=100`);
      expect(over.body.entries).toEqual(finals());
      expect(over.body.nextId).toBeNull();
    });

    it.each([
      ['resultType=ATTEMPT', (r: Record<string, any>) => r.resultType === 'ATTEMPT'],
      ['resultType=ALL', () => true],
      ['resultType=FINAL', (r: Record<string, any>) => r.resultType === 'FINAL'],
      ['location=us-east-1', (r: Record<string, any>) => r.resultType === 'FINAL' && r.runLocation === 'us-east-1'],
      ['hasFailures=true', (r: Record<string, any>) => r.resultType === 'FINAL' && r.hasFailures],
      ['hasFailures=false&resultType=ALL', (r: Record<string, any>) => !r.hasFailures],
      ['checkType=API', (r: Record<string, any>) => r.resultType === 'FINAL'],
      ['checkType=TCP', () => false],
      ['location=ap-south-1', () => false],
    ])('filters with %s, across pages', async (query, keep) => {
      const pages = await allPages(`limit=4&${query}`);
      expect(pages.flatMap((p) => p.entries)).toEqual(seeded.filter(keep));
    });

    it('bounds startedAt by from (inclusive) and to (exclusive), in UNIX seconds', async () => {
      const from = new Date(base + 3 * MINUTE);
      const to = new Date(base + 9 * MINUTE);
      const pages = await allPages(`limit=2&resultType=ALL&from=${seconds(from)}&to=${seconds(to)}`);
      const expected = seeded.filter((r) => r.startedAt >= from.toISOString() && r.startedAt < to.toISOString());
      expect(expected.map((r) => r.startedAt)).toContain(from.toISOString());
      expect(pages.flatMap((p) => p.entries)).toEqual(expected);
    });

    it('returns only the fields named in fields=, comma-separated or repeated, ignoring unknown names', async () => {
      const fields = 'id,startedAt,runLocation,hasErrors,hasFailures,isDegraded,responseTime';
      const res = await a.request('GET', `/v2/check-results/${check.id}?limit=3&fields=${fields}`);
      expect(res.status).toBe(200);
      expect(res.body.entries).toEqual(finals().slice(0, 3).map((r) => Object.fromEntries(fields.split(',').map((f) => [f, r[f]]))));
      const repeated = await a.request('GET', `/v2/check-results/${check.id}?limit=2&fields=id&fields[]=apiCheckResult&fields=noSuchField`);
      expect(repeated.body.entries).toEqual(finals().slice(0, 2).map((r) => ({ id: r.id, apiCheckResult: r.apiCheckResult })));
      const empty = await a.request('GET', `/v2/check-results/${check.id}?limit=2&fields=`);
      expect(empty.body.entries).toEqual(finals().slice(0, 2));
      // The cursor works the same with a projection.
      const next = await a.request('GET', `/v2/check-results/${check.id}?limit=3&fields=id&nextId=${res.body.nextId}`);
      expect(next.body.entries).toEqual(finals().slice(3, 6).map((r) => ({ id: r.id })));
    });

    it('leaves the runs of test sessions out of the history but answers them by id', async () => {
      const fresh = await createCheck(a);
      const testSessionId = randomUUID();
      const run = await rec.record({ check: runnable(a, fresh), testSessionId, probe: probe({ hasFailures: true, errors: [{ code: 'E', message: 'ci failure' }] }) });
      expect(run.errorGroupIds).toEqual([]);
      expect((await a.request('GET', `/v2/check-results/${fresh.id}?resultType=ALL`)).body.entries).toEqual([]);
      expect((await a.request('GET', `/v1/check-results/${fresh.id}`)).body).toEqual([]);
      expect((await a.request('GET', `/v1/check-results/${fresh.id}/${run.id}`)).body).toEqual(run);
      expectError(await a.request('GET', `/v1/check-statuses/${fresh.id}`), 404);
      expect((await a.request('GET', `/v1/error-groups/checks/${fresh.id}`)).body).toEqual([]);
      const rows = await s.lookout.store.results.listByTestSession(a.accountId, testSessionId);
      expect(rows.map((r) => r.id)).toEqual([run.id]);
    });
  });

  describe('GET /v1/check-results/{checkId}', () => {
    let check: Record<string, any>;
    let recent: Record<string, any>[];
    let old: Record<string, any>;

    beforeAll(async () => {
      check = await createCheck(a);
      const c = runnable(a, check);
      const now = Date.now();
      old = await rec.record({ check: c, probe: probe({ at: new Date(now - 7 * HOUR) }) });
      recent = [];
      for (let i = 1; i <= 5; i++) {
        recent.push(await rec.record({ check: c, location: i % 2 ? 'eu-west-1' : 'us-east-1', probe: probe({ at: new Date(now - i * HOUR + MINUTE), hasFailures: i === 2 }) }));
      }
      recent.push(await rec.record({ check: c, resultType: 'ATTEMPT', probe: probe({ at: new Date(now - 30 * MINUTE), hasFailures: true }) }));
    });

    const finalsRecent = () => recent.filter((r) => r.resultType === 'FINAL');

    it('lists the FINAL results of the last 6 hours, newest first, as a bare array with Content-Range', async () => {
      const res = await a.request('GET', `/v1/check-results/${check.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(finalsRecent());
      expect(res.headers.get('content-range')).toBe('0-4/5');
    });

    it('pages with page and limit', async () => {
      const res = await a.request('GET', `/v1/check-results/${check.id}?limit=2&page=2`);
      expect(res.body).toEqual(finalsRecent().slice(2, 4));
      expect(res.headers.get('content-range')).toBe('2-3/5');
      const past = await a.request('GET', `/v1/check-results/${check.id}?limit=2&page=4`);
      expect(past.body).toEqual([]);
      expect(past.headers.get('content-range')).toBe('*/5');
    });

    it('takes an explicit window instead of the last 6 hours', async () => {
      const from = seconds(new Date(Date.now() - 8 * HOUR));
      const res = await a.request('GET', `/v1/check-results/${check.id}?from=${from}&limit=100`);
      expect(res.body).toEqual([...finalsRecent(), old]);
      const to = seconds(new Date(old.startedAt)) + 1;
      const onlyOld = await a.request('GET', `/v1/check-results/${check.id}?to=${to}`);
      expect(onlyOld.body).toEqual([old]);
    });

    it.each([
      ['resultType=ALL', () => true],
      ['resultType=ATTEMPT', (r: Record<string, any>) => r.resultType === 'ATTEMPT'],
      ['hasFailures=true', (r: Record<string, any>) => r.resultType === 'FINAL' && r.hasFailures],
      ['location=us-east-1', (r: Record<string, any>) => r.resultType === 'FINAL' && r.runLocation === 'us-east-1'],
      ['checkType=DNS', () => false],
    ])('filters with %s', async (query, keep) => {
      const res = await a.request('GET', `/v1/check-results/${check.id}?limit=100&${query}`);
      const sorted = [...recent].sort((x, y) => (x.startedAt < y.startedAt ? 1 : -1));
      expect(res.body).toEqual(sorted.filter(keep));
    });
  });

  describe('check statuses', () => {
    it('keeps the latest FINAL result\'s flags, location and run id, and spans each location\'s latest time', async () => {
      const check = await createCheck(a, { name: 'Status check' });
      const c = runnable(a, check);
      const t = Date.now() - HOUR;
      await rec.record({ check: c, location: 'eu-west-1', probe: probe({ at: new Date(t), responseTime: 300 }) });
      const last = await rec.record({ check: c, location: 'us-east-1', probe: probe({ at: new Date(t + MINUTE), responseTime: 120.4, isDegraded: true }) });
      // ATTEMPT results and results of earlier runs that arrive late change nothing.
      await rec.record({ check: c, location: 'us-east-1', resultType: 'ATTEMPT', probe: probe({ at: new Date(t + 2 * MINUTE), responseTime: 9999, hasFailures: true }) });
      await rec.record({ check: c, location: 'eu-west-1', probe: probe({ at: new Date(t - MINUTE), responseTime: 50, hasFailures: true }) });
      const res = await a.request('GET', `/v1/check-statuses/${check.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        name: 'Status check',
        checkId: check.id,
        hasFailures: false,
        hasErrors: false,
        isDegraded: true,
        longestRun: 300,
        shortestRun: 120,
        lastRunLocation: 'us-east-1',
        lastCheckRunId: String(last.checkRunId),
        sslDaysRemaining: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        // The check can run: nothing keeps it idle.
        idle: null,
      });
      const list = await a.request('GET', '/v1/check-statuses');
      expect(list.status).toBe(200);
      expect(list.body).toContainEqual(res.body);
    });

    it('forgets the time of a location the check no longer runs in', async () => {
      const check = await createCheck(a);
      await rec.record({ check: runnable(a, check), location: 'eu-west-1', probe: probe({ responseTime: 900 }) });
      const moved = (await a.request('PUT', `/v1/checks/api/${check.id}`, { locations: ['us-east-1'] })).body;
      await rec.record({ check: runnable(a, moved), location: 'us-east-1', probe: probe({ responseTime: 200 }) });
      expect((await a.request('GET', `/v1/check-statuses/${check.id}`)).body).toMatchObject({ longestRun: 200, shortestRun: 200 });
    });

    it('records sslDaysRemaining from the run and keeps it when a later run saw no certificate', async () => {
      const check = await createCheck(a);
      const c = runnable(a, check);
      await rec.record({ check: c, probe: probe({ details: { sslDaysRemaining: 41.7 } }) });
      expect((await a.request('GET', `/v1/check-statuses/${check.id}`)).body.sslDaysRemaining).toBe(41);
      await rec.record({ check: c, probe: probe({ hasErrors: true, hasFailures: true, errors: [{ code: 'ECONNREFUSED', message: 'refused' }] }) });
      expect((await a.request('GET', `/v1/check-statuses/${check.id}`)).body).toMatchObject({ sslDaysRemaining: 41, hasFailures: true, hasErrors: true });
    });

    it('creates one status when the first results of a parallel run arrive at once', async () => {
      const check = await createCheck(a);
      const c = runnable(a, check);
      const sequenceId = randomUUID();
      await Promise.all([
        rec.record({ check: c, location: 'eu-west-1', sequenceId, probe: probe({ responseTime: 111 }) }),
        rec.record({ check: c, location: 'us-east-1', sequenceId, probe: probe({ responseTime: 222 }) }),
      ]);
      const rows = await s.lookout.store.db.query('SELECT * FROM check_statuses WHERE check_id = $1', [check.id]);
      expect(rows).toHaveLength(1);
      expect((await a.request('GET', `/v1/check-statuses/${check.id}`)).body).toMatchObject({ longestRun: 222, shortestRun: 111 });
    });

    it('answers 404 for a check that has not run yet', async () => {
      const check = await createCheck(a);
      expectError(await a.request('GET', `/v1/check-statuses/${check.id}`), 404);
      expect((await a.request('GET', '/v1/check-statuses')).body.map((st: { checkId: string }) => st.checkId)).not.toContain(check.id);
    });

    it('feeds the status filter of GET /v1/checks', async () => {
      const check = await createCheck(a, { name: 'Failing for the filter' });
      await rec.record({ check: runnable(a, check), probe: probe({ hasFailures: true }) });
      const failing = await a.request('GET', '/v1/checks?status=failing&limit=100');
      expect(failing.body.map((c: { id: string }) => c.id)).toContain(check.id);
    });
  });

  describe('error groups', () => {
    const failure = (message: string, at = new Date()) =>
      probe({ at, hasFailures: true, hasErrors: true, networkError: true, errors: [{ code: 'ECONNREFUSED', message }] });

    it('groups errors whose messages differ only in volatile parts, and links the group to each result', async () => {
      const check = await createCheck(a);
      const c = runnable(a, check);
      const t = Date.now() - HOUR;
      const first = await rec.record({ check: c, probe: failure('connect ECONNREFUSED 10.0.0.1:443 after 1200ms', new Date(t)) });
      const second = await rec.record({ check: c, resultType: 'ATTEMPT', probe: failure('connect ECONNREFUSED 10.0.0.7:443 after 90ms', new Date(t + MINUTE)) });
      const other = await rec.record({ check: c, probe: failure('getaddrinfo ENOTFOUND shop.test', new Date(t + 2 * MINUTE)) });
      expect(first.errorGroupIds).toHaveLength(1);
      expect(second.errorGroupIds).toEqual(first.errorGroupIds);
      expect(other.errorGroupIds).toHaveLength(1);
      expect(other.errorGroupIds).not.toEqual(first.errorGroupIds);

      const group = await a.request('GET', `/v1/error-groups/${first.errorGroupIds[0]}`);
      expect(group.status).toBe(200);
      const cleaned = cleanErrorMessage('connect ECONNREFUSED 10.0.0.1:443 after 1200ms');
      expect(group.body).toEqual({
        id: first.errorGroupIds[0],
        checkId: check.id,
        errorHash: errorHash(cleaned),
        rawErrorMessage: 'connect ECONNREFUSED 10.0.0.7:443 after 90ms',
        cleanedErrorMessage: cleaned,
        firstSeen: new Date(t).toISOString(),
        lastSeen: new Date(t + MINUTE).toISOString(),
        archivedUntilNextEvent: false,
        archiveForEver: false,
        rootCauseAnalyses: [],
      });
      const forCheck = await a.request('GET', `/v1/error-groups/checks/${check.id}`);
      expect(forCheck.body.map((g: { id: string }) => g.id)).toEqual([other.errorGroupIds[0], first.errorGroupIds[0]]);
      expect(forCheck.headers.get('content-range')).toBe('0-1/2');
    });

    it('makes one group per distinct error of a run and one for a failed assertion when the run has no error', async () => {
      const check = await createCheck(a);
      const c = runnable(a, check);
      const two = await rec.record({
        check: c,
        probe: probe({ hasFailures: true, hasErrors: true, errors: [{ code: 'A', message: 'first' }, { code: 'B', message: 'second' }, { code: 'A', message: 'first' }] }),
      });
      expect(two.errorGroupIds).toHaveLength(2);
      const assertion = { source: 'STATUS_CODE', property: null, comparison: 'EQUALS', target: '200', regex: null, actual: '503', passed: false };
      const failed = await rec.record({ check: c, probe: probe({ hasFailures: true, assertions: [assertion] }) });
      expect(failed.errorGroupIds).toHaveLength(1);
      const group = (await a.request('GET', `/v1/error-groups/${failed.errorGroupIds[0]}`)).body;
      expect(group.rawErrorMessage).toBe('Assertion failed: STATUS_CODE EQUALS 200 (actual: 503)');
      // A passing run under shouldFail has failed assertions but is no failure: no group.
      const passing = await rec.record({ check: c, probe: probe({ hasFailures: false, assertions: [assertion] }) });
      expect(passing.errorGroupIds).toEqual([]);
    });

    it('brings an archived-until-next-event group back on its next error', async () => {
      const check = await createCheck(a);
      const c = runnable(a, check);
      const first = await rec.record({ check: c, probe: failure('timeout after 5000ms') });
      const id = first.errorGroupIds[0];
      const archived = await a.request('PATCH', `/v1/error-groups/${id}`, { archivedUntilNextEvent: true });
      expect(archived.status).toBe(200);
      expect(archived.body).toMatchObject({ id, archivedUntilNextEvent: true, archiveForEver: false });
      expect((await a.request('GET', `/v1/error-groups/${id}`)).body.archivedUntilNextEvent).toBe(true);
      const again = await rec.record({ check: c, probe: failure('timeout after 7000ms', new Date(Date.now() + 1000)) });
      expect(again.errorGroupIds).toEqual([id]);
      expect((await a.request('GET', `/v1/error-groups/${id}`)).body).toMatchObject({ archivedUntilNextEvent: false, lastSeen: again.startedAt });
    });

    it('keeps an archived-for-ever group archived on new errors, still linking it, until the archive is lifted', async () => {
      const check = await createCheck(a);
      const c = runnable(a, check);
      const id = (await rec.record({ check: c, probe: failure('HTTP 500 on /checkout') })).errorGroupIds[0];
      const archived = await a.request('PATCH', `/v1/error-groups/${id}`, { archiveForEver: true });
      expect(archived.body).toMatchObject({ archivedUntilNextEvent: true, archiveForEver: true });
      const again = await rec.record({ check: c, probe: failure('HTTP 500 on /checkout') });
      expect(again.errorGroupIds).toEqual([id]);
      expect((await a.request('GET', `/v1/error-groups/${id}`)).body).toMatchObject({ archivedUntilNextEvent: true, archiveForEver: true });
      const lifted = await a.request('PATCH', `/v1/error-groups/${id}`, { archivedUntilNextEvent: false });
      expect(lifted.body).toMatchObject({ archivedUntilNextEvent: false, archiveForEver: false });
    });

    it.each([
      [{ archiveForEver: false }, { until: true, forever: true }, { archivedUntilNextEvent: true, archiveForEver: false }],
      [{ archivedUntilNextEvent: false, archiveForEver: true }, { until: true, forever: false }, { archivedUntilNextEvent: true, archiveForEver: true }],
      [{ archivedUntilNextEvent: true }, { until: false, forever: true }, { archivedUntilNextEvent: true, archiveForEver: true }],
      [{ archivedUntilNextEvent: false }, { until: true, forever: true }, { archivedUntilNextEvent: false, archiveForEver: false }],
    ])('PATCH %j on a group archived %j answers %j', async (body, start, expected) => {
      const check = await createCheck(a);
      const id = (await rec.record({ check: runnable(a, check), probe: failure('boom') })).errorGroupIds[0];
      await s.lookout.store.errorGroups.setArchived(a.accountId, id, { untilNextEvent: start.until, forever: start.forever });
      const res = await a.request('PATCH', `/v1/error-groups/${id}`, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(expected);
    });

    it('lists every error group of the account a page at a time with the total in Content-Range', async () => {
      const all = await a.request('GET', '/v1/error-groups?limit=100');
      expect(all.status).toBe(200);
      const total = Number(all.headers.get('content-range')!.split('/')[1]);
      expect(total).toBe(all.body.length);
      expect(total).toBeGreaterThan(3);
      const page = await a.request('GET', '/v1/error-groups?limit=2&page=2');
      expect(page.body).toEqual(all.body.slice(2, 4));
      expect(page.headers.get('content-range')).toBe(`2-3/${total}`);
      const lastSeen = all.body.map((g: { lastSeen: string }) => g.lastSeen);
      expect(lastSeen).toEqual([...lastSeen].sort().reverse());
    });
  });

  describe('account isolation', () => {
    let check: Record<string, any>;
    let result: Record<string, any>;
    let groupId: string;

    beforeAll(async () => {
      check = await createCheck(a);
      result = await rec.record({ check: runnable(a, check), probe: probe({ hasFailures: true, errors: [{ code: 'E', message: 'private failure' }] }) });
      groupId = result.errorGroupIds[0];
    });

    it.each([
      ['GET /v2/check-results/{checkId}', () => `/v2/check-results/${check.id}`],
      ['GET /v1/check-results/{checkId}', () => `/v1/check-results/${check.id}`],
      ['GET /v1/check-results/{checkId}/{id}', () => `/v1/check-results/${check.id}/${result.id}`],
      ['GET /v1/check-statuses/{checkId}', () => `/v1/check-statuses/${check.id}`],
      ['GET /v1/error-groups/{id}', () => `/v1/error-groups/${groupId}`],
      ['GET /v1/error-groups/checks/{checkId}', () => `/v1/error-groups/checks/${check.id}`],
    ])('%s answers 404 to another account, as for an unknown id', async (_route, path) => {
      expectError(await b.request('GET', path()), 404);
    });

    it('leaves another account\'s statuses and error groups out of the lists', async () => {
      const statuses = await b.request('GET', '/v1/check-statuses');
      expect(statuses.body.map((st: { checkId: string }) => st.checkId)).not.toContain(check.id);
      const groups = await b.request('GET', '/v1/error-groups?limit=100');
      expect(groups.body.map((g: { id: string }) => g.id)).not.toContain(groupId);
    });

    it('answers 404 to PATCH of another account\'s error group and changes nothing', async () => {
      const before = await snapshot();
      expectError(await b.request('PATCH', `/v1/error-groups/${groupId}`, { archiveForEver: true }), 404);
      expect(await snapshot()).toEqual(before);
    });

    it('answers 404 for a result of another check of the same account', async () => {
      const other = await createCheck(a);
      expectError(await a.request('GET', `/v1/check-results/${other.id}/${result.id}`), 404);
    });
  });

  describe('bad input', () => {
    let check: Record<string, any>;
    let groupId: string;
    beforeAll(async () => {
      check = await createCheck(a);
      groupId = (await rec.record({ check: runnable(a, check), probe: probe({ hasFailures: true, errors: [{ code: 'E', message: 'bad input target' }] }) })).errorGroupIds[0];
    });

    const unknownCheck = () => `/v2/check-results/${UNKNOWN_UUID}`;
    it.each<[string, number, () => string, string?]>([
      ['a check id that is not a UUID', 400, () => '/v2/check-results/123', 'checkId'],
      ['an unknown check id', 404, unknownCheck],
      ['limit 0', 400, () => `/v2/check-results/${check.id}?limit=0`, 'limit'],
      ['limit 101', 400, () => `/v2/check-results/${check.id}?limit=101`, 'limit'],
      ['a text limit', 400, () => `/v2/check-results/${check.id}?limit=ten`, 'limit'],
      ['an unknown resultType', 400, () => `/v2/check-results/${check.id}?resultType=SOME`, 'resultType'],
      ['an unknown checkType', 400, () => `/v2/check-results/${check.id}?checkType=FTP`, 'checkType'],
      ['a location that is no location', 400, () => `/v2/check-results/${check.id}?location=Mars%20Base`, 'location'],
      ['a non-boolean hasFailures', 400, () => `/v2/check-results/${check.id}?hasFailures=maybe`, 'hasFailures'],
      ['a negative from', 400, () => `/v2/check-results/${check.id}?from=-5`, 'from'],
      ['a from that is a date string', 400, () => `/v2/check-results/${check.id}?from=2024-01-01`, 'from'],
      ['a to beyond year 9999', 400, () => `/v2/check-results/${check.id}?to=999999999999`, 'to'],
      ['from after to', 400, () => `/v2/check-results/${check.id}?from=2000&to=1000`, 'from'],
      ['a nextId that is not a cursor', 400, () => `/v2/check-results/${check.id}?nextId=not-a-cursor`, 'nextId'],
      ['a nextId of valid base64 but no cursor', 400, () => `/v2/check-results/${check.id}?nextId=${Buffer.from('12.nope').toString('base64url')}`, 'nextId'],
    ])('GET /v2/check-results/{checkId} with %s answers %i', async (_label, status, path, key) => {
      expectError(await a.request('GET', path()), status, key);
    });

    it.each<[string, number, () => string, string?]>([
      ['a check id that is not a UUID', 400, () => '/v1/check-results/abc', 'checkId'],
      ['an unknown check id', 404, () => `/v1/check-results/${UNKNOWN_UUID}`],
      ['page 0', 400, () => `/v1/check-results/${check.id}?page=0`, 'page'],
      ['limit 500', 400, () => `/v1/check-results/${check.id}?limit=500`, 'limit'],
      ['an unknown resultType', 400, () => `/v1/check-results/${check.id}?resultType=final`, 'resultType'],
      ['a text to', 400, () => `/v1/check-results/${check.id}?to=tomorrow`, 'to'],
      ['equal from and to', 400, () => `/v1/check-results/${check.id}?from=1000&to=1000`, 'from'],
      ['a result id that is not a UUID', 400, () => `/v1/check-results/${check.id}/42`, 'checkResultId'],
      ['an unknown result id', 404, () => `/v1/check-results/${check.id}/${UNKNOWN_UUID}`],
      ['an unknown check with a result id', 404, () => `/v1/check-results/${UNKNOWN_UUID}/${UNKNOWN_UUID}`],
    ])('GET /v1/check-results/... with %s answers %i', async (_label, status, path, key) => {
      expectError(await a.request('GET', path()), status, key);
    });

    it.each<[string, number, () => string, string?]>([
      ['a check id that is not a UUID', 400, () => '/v1/check-statuses/nope', 'checkId'],
      ['an unknown check id', 404, () => `/v1/check-statuses/${UNKNOWN_UUID}`],
      ['an error group id that is not a UUID', 400, () => '/v1/error-groups/17', 'id'],
      ['an unknown error group id', 404, () => `/v1/error-groups/${UNKNOWN_UUID}`],
      ['page 0 of error groups', 400, () => '/v1/error-groups?page=0', 'page'],
      ['limit 0 of error groups', 400, () => '/v1/error-groups?limit=0', 'limit'],
      ['a text limit of a check\'s error groups', 400, () => `/v1/error-groups/checks/${UNKNOWN_UUID}?limit=x`, 'limit'],
      ['a check id of error groups that is not a UUID', 400, () => '/v1/error-groups/checks/12', 'checkId'],
      ['an unknown check id of error groups', 404, () => `/v1/error-groups/checks/${UNKNOWN_UUID}`],
    ])('GET with %s answers %i', async (_label, status, path, key) => {
      expectError(await a.request('GET', path()), status, key);
    });

    it.each<[string, number, () => string, unknown, string?]>([
      ['an empty body', 400, () => `/v1/error-groups/${groupId}`, {}, 'archiveForEver'],
      ['only unknown keys', 400, () => `/v1/error-groups/${groupId}`, { archived: true }, 'archiveForEver'],
      ['a text archiveForEver', 400, () => `/v1/error-groups/${groupId}`, { archiveForEver: 'yes' }, 'archiveForEver'],
      ['a numeric archivedUntilNextEvent', 400, () => `/v1/error-groups/${groupId}`, { archivedUntilNextEvent: 1 }, 'archivedUntilNextEvent'],
      ['a null flag', 400, () => `/v1/error-groups/${groupId}`, { archiveForEver: null }, 'archiveForEver'],
      ['a body that is a list', 400, () => `/v1/error-groups/${groupId}`, [true], '(root)'],
      ['a body that is not JSON', 400, () => `/v1/error-groups/${groupId}`, '{"archiveForEver":'],
      ['an id that is not a UUID', 400, () => '/v1/error-groups/1', { archiveForEver: true }, 'id'],
      ['an unknown id', 404, () => `/v1/error-groups/${UNKNOWN_UUID}`, { archiveForEver: true }],
    ])('PATCH /v1/error-groups/{id} with %s answers %i and writes nothing', async (_label, status, path, body, key) => {
      const before = await snapshot();
      expectError(await a.request('PATCH', path(), body), status, key);
      expect(await snapshot()).toEqual(before);
    });
  });
});

describe('rate limits of the result routes', () => {
  let s: TestServer;
  beforeAll(async () => {
    // 1/30 of the default budget: results get 2 a minute, analytics 1, every other route 20.
    s = await startTestServer({ config: { rateLimitMax: 20 } });
  });
  afterAll(async () => s?.close());

  it('scales the 60 and 30 per minute of conventions.md with LOOKOUT_RATE_LIMIT and answers 429 past them', async () => {
    const check = (await s.a.request('POST', '/v1/checks/api', { name: 'Limited', request: { url: 'https://shop.test/' } })).body;
    const results = `/v2/check-results/${check.id}`;
    expect((await s.a.request('GET', results)).status).toBe(200);
    expect((await s.a.request('GET', results)).status).toBe(200);
    const limited = await s.a.request('GET', results);
    expectError(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // One budget per account: the other account still gets through.
    expect((await s.b.request('GET', `/v2/check-results/${check.id}`)).status).toBe(404);

    const analytics = `/v1/analytics/api-checks/${check.id}?metrics=availability`;
    expect((await s.a.request('GET', analytics)).status).toBe(200);
    expectError(await s.a.request('GET', analytics), 429);

    for (let i = 0; i < 5; i++) expect((await s.a.request('GET', '/v1/check-statuses')).status).toBe(200);
  });

  it('does not limit the result routes when rate limiting is off', async () => {
    const off = await startTestServer({ config: { rateLimitMax: 0 } });
    try {
      const check = (await off.a.request('POST', '/v1/checks/api', { name: 'Unlimited', request: { url: 'https://shop.test/' } })).body;
      for (let i = 0; i < 70; i++) expect((await off.a.request('GET', `/v2/check-results/${check.id}`)).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
