import { EventEmitter, once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LookoutError } from '../../src/domain/lookout-error.js';
import type { Runner } from '../../src/runner/create-runner.js';
import { createGroupTriggerService } from '../../src/service/group-trigger-service.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/**
 * A target whose /ok answers 200, /fail 500, and /held waits until `release()`; it counts the
 * requests in flight and the most there ever were at once.
 */
interface Target {
  url: string;
  events: EventEmitter;
  held: ServerResponse[];
  inFlight: number;
  maxInFlight: number;
  release(): void;
  server: Server;
}

async function startTarget(): Promise<Target> {
  const events = new EventEmitter();
  const target = { events, held: [] as ServerResponse[], inFlight: 0, maxInFlight: 0 } as Target;
  target.server = createServer((req, res) => {
    target.inFlight++;
    target.maxInFlight = Math.max(target.maxInFlight, target.inFlight);
    res.on('finish', () => target.inFlight--);
    if (req.url?.startsWith('/held')) {
      target.held.push(res);
      events.emit('held', target.held.length);
      return;
    }
    res.statusCode = req.url?.startsWith('/fail') ? 500 : 200;
    res.end(res.statusCode === 200 ? 'fine' : 'broken');
  });
  target.release = () => target.held.shift()?.end('released');
  target.server.listen(0, '127.0.0.1');
  await once(target.server, 'listening');
  target.url = `http://127.0.0.1:${(target.server.address() as AddressInfo).port}`;
  return target;
}

/** Resolves once `count` requests are held. */
async function heldRequests(target: Target, count: number): Promise<void> {
  while (target.held.length < count) await once(target.events, 'held');
}

const apiCheck = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
  name, request: { url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] }, ...extra,
});

async function created(client: TestClient, path: string, body: unknown): Promise<any> {
  const res = await client.request('POST', path, body);
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.body;
}

describe.each(BACKENDS)('check group triggers ($name)', (backend) => {
  let s: TestServer;
  let target: Target;
  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer({ backend }), startTarget()]);
  });
  afterAll(async () => {
    await s?.close();
    target?.server.close();
  });

  const group = (client: TestClient, extra: Record<string, unknown> = {}) =>
    created(client, '/v1/check-groups', { name: `Group ${Math.random()}`, locations: ['eu-west-1'], ...extra });

  it('creates one token per group, reads and deletes it, and keeps it to the group\'s account', async () => {
    const g = await group(s.a);
    const first = await s.a.request('POST', `/v1/triggers/check-groups/${g.id}`);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(Number), groupId: g.id, token: expect.stringMatching(/^[A-Za-z0-9_-]{8,}$/),
      url: expect.stringMatching(new RegExp(`/check-groups/${g.id}/trigger/${first.body.token}$`)),
      called_at: null, created_at: expect.any(String), updated_at: null,
    });
    const again = await s.a.request('POST', `/v1/triggers/check-groups/${g.id}`);
    expect(again.status).toBe(201);
    expect(again.body.token).toBe(first.body.token);
    expect((await s.a.request('GET', `/v1/triggers/check-groups/${g.id}`)).body.token).toBe(first.body.token);

    for (const method of ['POST', 'GET', 'DELETE']) {
      expect((await s.b.request(method, `/v1/triggers/check-groups/${g.id}`)).status, method).toBe(404);
    }
    expect((await s.a.request('POST', '/v1/triggers/check-groups/2147483647')).status).toBe(404);
    const bad = await s.a.request('GET', '/v1/triggers/check-groups/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.validation).toMatchObject({ source: 'params', keys: ['groupId'] });

    expect((await s.a.request('DELETE', `/v1/triggers/check-groups/${g.id}`)).status).toBe(204);
    expect((await s.a.request('GET', `/v1/triggers/check-groups/${g.id}`)).status).toBe(404);
    expect((await s.raw('GET', `/check-groups/${g.id}/trigger/${first.body.token}`)).status).toBe(404);
  });

  it('runs the group\'s activated checks in groupOrder without an API key and answers the FINAL results per check', async () => {
    const g = await group(s.a);
    const failing = await created(s.a, '/v1/checks/api', apiCheck('Second', `${target.url}/fail`, { groupId: g.id, groupOrder: 2 }));
    const passing = await created(s.a, '/v1/checks/api', apiCheck('First', `${target.url}/ok`, { groupId: g.id, groupOrder: 1 }));
    const url = await created(s.a, '/v1/checks/url', { name: 'Third', groupId: g.id, request: { url: `${target.url}/ok` } });
    await created(s.a, '/v1/checks/api', apiCheck('Off', `${target.url}/ok`, { groupId: g.id, activated: false }));
    const outside = await created(s.a, '/v1/checks/api', apiCheck('Elsewhere', `${target.url}/ok`));
    const token = (await s.a.request('POST', `/v1/triggers/check-groups/${g.id}`)).body.token;

    for (const method of ['POST', 'GET']) {
      const run = await s.raw(method, `/check-groups/${g.id}/trigger/${token}`);
      expect(run.status, method).toBe(200);
      expect(run.body.groupId).toBe(g.id);
      expect(run.body.checks.map((c: { checkId: string }) => c.checkId)).toEqual([passing.id, failing.id, url.id]);
      const [first, second, third] = run.body.checks;
      expect(first).toMatchObject({ name: 'First', checkType: 'API', error: null, sequenceId: expect.any(String) });
      expect(first.results).toHaveLength(1);
      expect(first.results[0]).toMatchObject({ checkId: passing.id, resultType: 'FINAL', hasFailures: false, runLocation: 'eu-west-1' });
      expect(second.results[0]).toMatchObject({ checkId: failing.id, hasFailures: true });
      expect(third).toMatchObject({ checkType: 'URL', error: null });
      expect(third.results[0].hasFailures).toBe(false);
    }
    const stored = await s.a.request('GET', `/v2/check-results/${passing.id}`);
    expect(stored.body.entries).toHaveLength(2);
    expect((await s.a.request('GET', `/v2/check-results/${outside.id}`)).body.entries).toHaveLength(0);
    expect((await s.a.request('GET', `/v1/triggers/check-groups/${g.id}`)).body.called_at).toEqual(expect.any(String));
  });

  it('runs at most the group\'s concurrency of checks at once', async () => {
    const g = await group(s.a, { concurrency: 2 });
    for (const name of ['One', 'Two', 'Three']) await created(s.a, '/v1/checks/api', apiCheck(name, `${target.url}/held`, { groupId: g.id }));
    const token = (await s.a.request('POST', `/v1/triggers/check-groups/${g.id}`)).body.token;
    target.maxInFlight = 0;

    const run = s.raw('POST', `/check-groups/${g.id}/trigger/${token}`);
    await heldRequests(target, 2);
    // The third check starts only once one of the first two is over.
    target.release();
    await heldRequests(target, 2);
    target.release();
    target.release();
    const done = await run;
    expect(done.status).toBe(200);
    expect(done.body.checks.every((c: { results: { hasFailures: boolean }[] }) => c.results[0]!.hasFailures === false)).toBe(true);
    expect(target.maxInFlight).toBe(2);
  });

  it('lists a check that cannot run with its reason and still runs the others', async () => {
    const g = await group(s.a);
    const beat = await created(s.a, '/v1/checks/heartbeat', {
      name: 'Beat', groupId: g.id, groupOrder: 0, heartbeat: { period: 1, periodUnit: 'hours', grace: 10, graceUnit: 'minutes' },
    });
    const ok = await created(s.a, '/v1/checks/api', apiCheck('Ok', `${target.url}/ok`, { groupId: g.id, groupOrder: 1 }));
    const token = (await s.a.request('POST', `/v1/triggers/check-groups/${g.id}`)).body.token;
    const run = await s.raw('POST', `/check-groups/${g.id}/trigger/${token}`);
    expect(run.status).toBe(200);
    expect(run.body.checks).toEqual([
      { checkId: beat.id, name: 'Beat', checkType: 'HEARTBEAT', sequenceId: null, results: [], error: { code: 'NOT_RUNNABLE', message: expect.any(String) } },
      expect.objectContaining({ checkId: ok.id, error: null }),
    ]);
    // The heartbeat's own state is untouched: no result was recorded for it.
    expect((await s.a.request('GET', `/v2/check-results/${beat.id}`)).body.entries).toHaveLength(0);
  });

  it('reports a check with nowhere to run with the runner\'s refusal and runs the others', async () => {
    const g = await created(s.a, '/v1/check-groups', { name: 'No group locations' });
    const stranded = await created(s.a, '/v1/checks/api', apiCheck('Stranded', `${target.url}/ok`, { groupId: g.id, groupOrder: 0, locations: [] }));
    const placed = await created(s.a, '/v1/checks/api', apiCheck('Placed', `${target.url}/ok`, { groupId: g.id, groupOrder: 1, locations: ['eu-west-1'] }));
    const token = (await s.a.request('POST', `/v1/triggers/check-groups/${g.id}`)).body.token;
    const run = await s.raw('POST', `/check-groups/${g.id}/trigger/${token}`);
    expect(run.status).toBe(200);
    const [first, second] = run.body.checks;
    expect(first).toMatchObject({ checkId: stranded.id, sequenceId: null, results: [], error: { code: expect.any(String), message: expect.any(String) } });
    expect(second).toMatchObject({ checkId: placed.id, error: null });
    expect(second.results[0].hasFailures).toBe(false);
  });

  it('runs nothing of a deactivated group', async () => {
    const g = await group(s.a, { activated: false });
    await created(s.a, '/v1/checks/api', apiCheck('Sleeping', `${target.url}/ok`, { groupId: g.id }));
    const token = (await s.a.request('POST', `/v1/triggers/check-groups/${g.id}`)).body.token;
    const run = await s.raw('GET', `/check-groups/${g.id}/trigger/${token}`);
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ groupId: g.id, checks: [] });
  });

  it('answers 404 to a wrong token, another group\'s token and a deleted group\'s token', async () => {
    const mine = await group(s.a);
    const other = await group(s.a);
    const theirs = await group(s.b);
    const mineToken = (await s.a.request('POST', `/v1/triggers/check-groups/${mine.id}`)).body.token;
    const theirToken = (await s.b.request('POST', `/v1/triggers/check-groups/${theirs.id}`)).body.token;
    await s.a.request('POST', `/v1/triggers/check-groups/${other.id}`);

    expect((await s.raw('POST', `/check-groups/${mine.id}/trigger/wrong-token-123`)).status).toBe(404);
    expect((await s.raw('POST', `/check-groups/${other.id}/trigger/${mineToken}`)).status).toBe(404);
    expect((await s.raw('POST', `/check-groups/${mine.id}/trigger/${theirToken}`)).status).toBe(404);
    expect((await s.raw('POST', `/check-groups/${theirs.id}/trigger/${mineToken}`)).status).toBe(404);
    const badToken = await s.raw('POST', `/check-groups/${mine.id}/trigger/x`);
    expect(badToken.status).toBe(400);
    expect(badToken.body.validation).toMatchObject({ source: 'params', keys: ['token'] });

    expect((await s.a.request('DELETE', `/v1/check-groups/${mine.id}`)).status).toBe(204);
    expect((await s.raw('POST', `/check-groups/${mine.id}/trigger/${mineToken}`)).status).toBe(404);
  });

  it('allows 10 calls a minute per trigger', async () => {
    const g = await group(s.a);
    const token = (await s.a.request('POST', `/v1/triggers/check-groups/${g.id}`)).body.token;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await s.raw(i % 2 ? 'GET' : 'POST', `/check-groups/${g.id}/trigger/${token}`)).status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(10);
    expect(statuses[10]).toBe(429);
  });

  it('describes its routes with operation ids', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    const token = doc.paths['/v1/triggers/check-groups/{groupId}'];
    expect([token.post.operationId, token.get.operationId, token.delete.operationId]).toEqual(['createCheckGroupTrigger', 'getCheckGroupTrigger', 'deleteCheckGroupTrigger']);
    expect(doc.paths['/check-groups/{groupId}/trigger/{token}'].post.operationId).toBe('runCheckGroupTrigger');
  });
});

describe('a group run with checks the runner refuses', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('reports each refusal per check with its code, an unexpected failure as INTERNAL, and runs the rest', async () => {
    const g = await created(s.a, '/v1/check-groups', { name: 'Refused', locations: ['eu-west-1'] });
    const ids: string[] = [];
    for (const [i, name] of ['Nowhere', 'Broken', 'Fine'].entries()) {
      ids.push((await created(s.a, '/v1/checks/api', apiCheck(name, 'http://127.0.0.1:9/', { groupId: g.id, groupOrder: i }))).id);
    }
    const [nowhere, broken, fine] = ids;
    const runner = {
      async runNow(_accountId: string, checkId: string) {
        if (checkId === nowhere) throw new LookoutError('VALIDATION', 'Check has nowhere to run');
        if (checkId === broken) throw new Error('database on fire');
        return { sequenceId: 'seq-1', finals: [{ id: 'r1', checkId, hasFailures: false }] };
      },
    } as unknown as Runner;
    const service = createGroupTriggerService({ store: s.lookout.store, runner, logger: pino({ level: 'silent' }), publicUrl: 'http://lookout.test' });
    const { token } = await service.create(s.a.accountId, g.id);
    const run = await service.run(g.id, token);
    expect(run.checks).toEqual([
      expect.objectContaining({ checkId: nowhere, sequenceId: null, results: [], error: { code: 'VALIDATION', message: 'Check has nowhere to run' } }),
      expect.objectContaining({ checkId: broken, sequenceId: null, results: [], error: { code: 'INTERNAL', message: 'The run failed unexpectedly' } }),
      expect.objectContaining({ checkId: fine, sequenceId: 'seq-1', error: null, results: [{ id: 'r1', checkId: fine, hasFailures: false }] }),
    ]);
  });
});
