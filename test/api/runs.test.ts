import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/events/lookout-event.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { gql } from '../support/graphql.js';

/** A target whose /ok answers 200, /fail answers 500 and /slow answers 200 after 60 ms. */
async function startTarget(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.statusCode = req.url?.startsWith('/fail') ? 500 : 200;
    if (req.url?.startsWith('/slow')) setTimeout(() => res.end('slow but fine'), 60);
    else res.end(req.url?.startsWith('/fail') ? 'broken' : 'fine');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const apiCheck = (url: string, extra: Record<string, unknown> = {}) => ({
  name: `API ${url}`, locations: ['eu-west-1', 'us-east-1'],
  request: { url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] }, ...extra,
});

describe('runs on demand', () => {
  let s: TestServer;
  let target: { url: string; server: Server };
  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer(), startTarget()]);
  });
  afterAll(async () => {
    await s?.close();
    target?.server.close();
  });

  it('runs a check through its trigger URL without an API key, at most 10 times a minute', async () => {
    const check = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`))).body;
    const trigger = await s.a.request('POST', `/v1/triggers/checks/${check.id}`);
    expect(trigger.status).toBe(201);
    expect(trigger.body.url).toContain(`/checks/${check.id}/trigger/${trigger.body.token}`);
    expect((await s.a.request('GET', `/v1/triggers/checks/${check.id}`)).body.token).toBe(trigger.body.token);
    expect((await s.b.request('GET', `/v1/triggers/checks/${check.id}`)).status).toBe(404);

    const run = await s.raw('POST', `/checks/${check.id}/trigger/${trigger.body.token}`);
    expect(run.status).toBe(200);
    expect(run.body.results[0]).toMatchObject({ checkId: check.id, resultType: 'FINAL', hasFailures: false, runLocation: 'eu-west-1' });
    const results = await s.a.request('GET', `/v2/check-results/${check.id}`);
    expect(results.body.entries.map((r: { id: string }) => r.id)).toContain(run.body.results[0].id);

    expect((await s.raw('GET', `/checks/${check.id}/trigger/wrong-token-123`)).status).toBe(404);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await s.raw('GET', `/checks/${check.id}/trigger/${trigger.body.token}`)).status);
    expect(statuses.filter((x) => x === 429)).toHaveLength(2);
  });

  it('runs a test session to PASSED and answers the completion long-poll', async () => {
    const ok = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`, { tags: ['session-pass'] }))).body;
    const session = await s.a.request('POST', '/v1/test-sessions/trigger', { checkIds: [ok.id], name: 'CI run' });
    expect(session.status).toBe(201);
    expect(session.body).toMatchObject({ name: 'CI run', status: 'RUNNING', checkIds: [ok.id] });
    const done = await s.a.request('GET', `/v1/test-sessions/${session.body.id}/completion?maxWaitSeconds=30`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: session.body.id, status: 'PASSED', errorGroupIds: [] });
    expect(done.body.results[0]).toMatchObject({ checkId: ok.id, status: 'PASSED' });
    expect((await s.a.request('GET', `/v1/test-sessions/${session.body.id}`)).body.status).toBe('PASSED');
    // Test session runs do not change the check's own status.
    expect((await s.a.request('GET', `/v1/check-statuses/${ok.id}`)).status).toBe(404);
  });

  it('fails a test session whose check fails and groups its errors', async () => {
    const bad = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/fail`, { tags: ['session-fail'] }))).body;
    const updates: EventOf<'testSessionUpdated'>[] = [];
    const unsubscribe = s.lookout.bus.subscribe('testSessionUpdated', (e) => updates.push(e));
    const session = (await s.a.request('POST', '/v1/test-sessions/trigger', { tags: ['session-fail'] })).body;
    const done = await s.a.request('GET', `/v1/test-sessions/${session.id}/completion?maxWaitSeconds=30`);
    unsubscribe();
    expect(done.body).toMatchObject({ status: 'FAILED' });
    expect(done.body.results[0]).toMatchObject({ checkId: bad.id, status: 'FAILED' });
    expect(updates.map((u) => u.testSession.status)).toContain('FAILED');
    expect(updates.every((u) => u.accountId === s.a.accountId)).toBe(true);
    const groups = await s.a.request('GET', `/v1/test-sessions/${session.id}/error-groups`);
    expect(groups.status).toBe(200);
    if (groups.body.length > 0) {
      const patched = await s.a.request('PATCH', `/v1/test-session-error-groups/${groups.body[0].id}`, { archivedUntilNextEvent: true });
      expect(patched.body.archivedUntilNextEvent).toBe(true);
      expect((await s.b.request('GET', `/v1/test-session-error-groups/${groups.body[0].id}`)).status).toBe(404);
    }
  });

  it('tells, per entry, a run that broke down (hasErrors) and a degraded one from a failed one, as their results do', async () => {
    const failing = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/fail`, { tags: ['session-flags'] }))).body;
    // Nothing listens on port 1: the request itself fails, an error rather than a failed assertion.
    const broken = (await s.a.request('POST', '/v1/checks/api', apiCheck('http://127.0.0.1:1/', { tags: ['session-flags'] }))).body;
    const slow = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/slow`, { tags: ['session-flags'], degradedResponseTime: 10, maxResponseTime: 20_000 }))).body;
    const session = (await s.a.request('POST', '/v1/test-sessions/trigger', { tags: ['session-flags'] })).body;
    const done = await s.a.request('GET', `/v1/test-sessions/${session.id}/completion?maxWaitSeconds=30`);
    expect(done.body.status).toBe('FAILED');
    const entry = (id: string) => done.body.results.find((r: { checkId: string }) => r.checkId === id);
    expect(entry(failing.id)).toMatchObject({ status: 'FAILED', hasFailures: true, hasErrors: false, isDegraded: false });
    expect(entry(broken.id)).toMatchObject({ status: 'FAILED', hasFailures: true, hasErrors: true, isDegraded: false });
    expect(entry(slow.id)).toMatchObject({ status: 'PASSED', hasFailures: false, hasErrors: false, isDegraded: true });
    // The flags are those of the entry's FINAL result, which the CLI reads next.
    for (const check of [failing, broken, slow]) {
      const e = entry(check.id);
      const result = (await s.a.request('GET', `/v1/test-sessions/${session.id}/results/${e.testSessionResultId}`)).body;
      expect({ hasErrors: result.hasErrors, isDegraded: result.isDegraded }).toEqual({ hasErrors: e.hasErrors, isDegraded: e.isDegraded });
    }
    // The session as listed and read says the same.
    const read = await s.a.request('GET', `/v1/test-sessions/${session.id}`);
    expect(read.body.results).toEqual(done.body.results);
  });

  it('lists test sessions newest first with a cursor, per account', async () => {
    const page = await s.a.request('GET', '/v1/test-sessions?limit=1');
    expect(page.body.length).toBe(1);
    expect(page.body.nextId).not.toBeNull();
    const next = await s.a.request('GET', `/v1/test-sessions?limit=1&nextId=${page.body.nextId}`);
    expect(next.body.entries[0].id).not.toBe(page.body.entries[0].id);
    expect((await s.b.request('GET', '/v1/test-sessions')).body).toEqual({ length: 0, entries: [], nextId: null });
    expect((await s.b.request('GET', `/v1/test-sessions/${page.body.entries[0].id}`)).status).toBe(404);
  });

  it.each([
    ['an unknown check id', { checkIds: ['00000000-0000-4000-8000-000000000000'] }, 'checkIds.0'],
    ['a non-UUID check id', { checkIds: ['nope'] }, 'checkIds.0'],
    ['an unknown run location', { runLocation: 'mars-1' }, 'runLocation'],
  ])('refuses to trigger a session with %s', async (_n, body, key) => {
    const res = await s.a.request('POST', '/v1/test-sessions/trigger', body);
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toContain(key);
  });

  it('runs a check now with an API key and answers its FINAL results; other accounts and bad ids get 404 and 400', async () => {
    const check = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/fail`))).body;
    const run = await s.a.request('POST', `/v1/checks/${check.id}/run`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ checkId: check.id, sequenceId: expect.any(String) });
    expect(run.body.results).toEqual([expect.objectContaining({ checkId: check.id, resultType: 'FINAL', hasFailures: true, runLocation: 'eu-west-1' })]);
    // No trigger token is involved.
    expect((await s.a.request('GET', `/v1/triggers/checks/${check.id}`)).status).toBe(404);
    expect((await s.b.request('POST', `/v1/checks/${check.id}/run`)).status).toBe(404);
    expect((await s.raw('POST', `/v1/checks/${check.id}/run`)).status).toBe(401);
    const bad = await s.a.request('POST', '/v1/checks/not-a-uuid/run');
    expect(bad.status).toBe(400);
    expect(bad.body.validation.keys).toContain('checkId');
  });

  it('refuses another account\'s checks in a trigger', async () => {
    const mine = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`))).body;
    const res = await s.b.request('POST', '/v1/test-sessions/trigger', { checkIds: [mine.id] });
    expect(res.status).toBe(400);
  });

  it.each([0, 31, 'x'])('rejects maxWaitSeconds=%s', async (v) => {
    const res = await s.a.request('GET', `/v1/test-sessions/00000000-0000-4000-8000-000000000000/completion?maxWaitSeconds=${v}`);
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toContain('maxWaitSeconds');
  });
});

describe('heartbeat pings', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('records a ping as a passing result and /fail as a failing one, without an API key', async () => {
    const hb = (await s.a.request('POST', '/v1/checks/heartbeat', { name: 'nightly', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } })).body;
    const token = hb.heartbeat.pingToken;
    const created = new Promise<EventOf<'checkResultCreated'>>((resolve) => {
      const off = s.lookout.bus.subscribe('checkResultCreated', (e) => {
        if (e.checkId === hb.id) {
          off();
          resolve(e);
        }
      });
    });
    const ping = await s.raw('GET', `/ping/${token}`);
    expect(ping.status).toBe(200);
    expect((await created).result).toMatchObject({ hasFailures: false, resultType: 'FINAL' });
    // This process does not schedule (API only): a ping must not make it evaluate the deadline itself.
    expect(s.lookout.runner.scheduler.stats().scheduled).toBe(0);
    expect((await s.raw('POST', `/ping/${token}/start`)).status).toBe(200);
    expect((await s.raw('POST', `/ping/${token}/fail`)).status).toBe(200);
    const results = await s.a.request('GET', `/v2/check-results/${hb.id}?limit=10`);
    expect(results.body.entries.map((r: { hasFailures: boolean }) => r.hasFailures).sort()).toEqual([false, true]);
    const availability = await s.a.request('GET', `/v1/checks/heartbeats/${hb.id}/availability?quickRange=last24Hours`);
    expect(availability.body).toMatchObject({ checkId: hb.id, availability: 50 });
    expect((await s.b.request('GET', `/v1/checks/heartbeats/${hb.id}/availability`)).status).toBe(404);
    const events = await s.a.request('GET', `/v1/checks/heartbeats/${hb.id}/events`);
    expect(events.body.map((e: { type: string }) => e.type)).toEqual(['FAIL', 'START', 'PING']);
    expect((await s.b.request('GET', `/v1/checks/heartbeats/${hb.id}/events`)).status).toBe(404);
  });

  it('answers 409 with a clear reason to "run now" of a heartbeat (REST, trigger URL, test session, GraphQL), storing no result', async () => {
    const hb = (await s.a.request('POST', '/v1/checks/heartbeat', { name: 'backup', tags: ['beat'], heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } })).body;
    const results = async () => (await s.a.request('GET', `/v2/check-results/${hb.id}?limit=10`)).body.entries;
    const run = await s.a.request('POST', `/v1/checks/${hb.id}/run`);
    expect(run.status).toBe(409);
    expect(run.body.message).toMatch(/backup|heartbeat/i);
    expect(run.body.message).toContain('/ping/');
    const token = (await s.a.request('POST', `/v1/triggers/checks/${hb.id}`)).body.token;
    expect((await s.raw('POST', `/checks/${hb.id}/trigger/${token}`)).status).toBe(409);
    for (const body of [{ checkIds: [hb.id] }, { tags: ['beat'] }]) {
      const session = await s.a.request('POST', '/v1/test-sessions/trigger', body);
      expect(session.status).toBe(409);
      expect(session.body.message).toContain('"backup"');
    }
    const viaGraphql = await gql(s.a, 'mutation($id: ID!) { runCheck(id: $id) { results { hasFailures } userErrors { code message } } }', { id: hb.id });
    expect(viaGraphql.data.runCheck.userErrors).toEqual([{ code: 'CONFLICT', message: expect.stringContaining('/ping/') }]);
    expect(await results()).toEqual([]);
  });

  it.each(['unknown-token-000000', 'short'])('answers 4xx for the ping token %s', async (token) => {
    const res = await s.raw('GET', `/ping/${token}`);
    expect([400, 404]).toContain(res.status);
    expect(res.body).toMatchObject({ statusCode: res.status });
  });
});

describe('the scheduler inside the server', () => {
  let s: TestServer;
  let target: { url: string; server: Server };
  beforeAll(async () => {
    target = await startTarget();
    s = await startTestServer({ config: { runnerEnabled: true } });
  });
  afterAll(async () => {
    await s?.close();
    target?.server.close();
  });

  it('runs a sub-minute check on its own and publishes the result', async () => {
    const received = new Promise<EventOf<'checkResultCreated'>>((resolve) => {
      const off = s.lookout.bus.subscribe('checkResultCreated', (e) => {
        off();
        resolve(e);
      });
    });
    const check = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`, { frequency: 0, frequencyOffset: 10 }))).body;
    await s.lookout.runner.scheduler.refresh();
    const event = await received;
    expect(event).toMatchObject({ accountId: s.a.accountId, checkId: check.id, result: { resultType: 'FINAL', hasFailures: false } });
  });
});
