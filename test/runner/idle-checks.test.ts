import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduler } from '../../src/runner/create-scheduler.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A target that answers 200. */
async function startTarget(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.end('fine'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.each(BACKENDS)('checks with nowhere to run on $name', (backend) => {
  let s: TestServer;
  let target: { url: string; server: Server };
  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer({ backend }), startTarget()]);
  });
  afterAll(async () => {
    await s?.close();
    target?.server.close();
  });

  /** A group without locations and a check in it without locations of its own. */
  async function idleCheck(name = 'Idle') {
    const group = await s.a.request('POST', '/v2/check-groups', { name: `${name} group` });
    expect(group.body.locations).toEqual([]);
    const check = await s.a.request('POST', '/v1/checks/api', { name, groupId: group.body.id, request: { url: `${target.url}/ok` } });
    expect(check.status).toBe(201);
    expect(check.body.locations).toEqual([]);
    return { groupId: group.body.id as number, checkId: check.body.id as string };
  }

  it('accepts a check in a group without locations, and its status says why it never runs', async () => {
    const { checkId } = await idleCheck();
    const one = await s.a.request('GET', `/v1/check-statuses/${checkId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      checkId, name: 'Idle', hasFailures: false, hasErrors: false, isDegraded: false, lastCheckRunId: null, updated_at: null,
      idle: { code: 'NO_LOCATIONS', message: expect.stringContaining('Nowhere to run') },
    });
    const all = await s.a.request('GET', '/v1/check-statuses');
    expect(all.body.find((x: { checkId: string }) => x.checkId === checkId)).toEqual(one.body);
    const batch = await s.a.request('GET', `/v1/check-statuses?checkIds=${checkId}`);
    expect(batch.body).toEqual([one.body]);
    // Another account sees nothing of it.
    expect((await s.b.request('GET', `/v1/check-statuses/${checkId}`)).status).toBe(404);
    expect((await s.b.request('GET', '/v1/check-statuses')).body).toEqual([]);
  });

  it('keeps answering 404 for a check that can run but never ran, and idle null once it has run', async () => {
    const check = (await s.a.request('POST', '/v1/checks/api', { name: 'Runnable', locations: ['eu-west-1'], request: { url: `${target.url}/ok` } })).body;
    expect((await s.a.request('GET', `/v1/check-statuses/${check.id}`)).status).toBe(404);
    expect((await s.a.request('GET', '/v1/check-statuses')).body.map((x: { checkId: string }) => x.checkId)).not.toContain(check.id);
    expect((await s.a.request('POST', `/v1/checks/${check.id}/run`)).status).toBe(200);
    expect((await s.a.request('GET', `/v1/check-statuses/${check.id}`)).body).toMatchObject({ checkId: check.id, lastRunLocation: 'eu-west-1', idle: null });

    // Emptied locations ([] on update) are accepted; the status keeps its last run and says why no more come.
    const emptied = await s.a.request('PUT', `/v1/checks/api/${check.id}`, { locations: [] });
    expect(emptied.status).toBe(200);
    expect((await s.a.request('GET', `/v1/check-statuses/${check.id}`)).body).toMatchObject({
      checkId: check.id, lastRunLocation: 'eu-west-1', idle: { code: 'NO_LOCATIONS', message: expect.stringContaining('names no location') },
    });
  });

  it('refuses to run an idle check now with 409 naming the cause, through the API and the trigger URL', async () => {
    const { checkId } = await idleCheck('Run now');
    const run = await s.a.request('POST', `/v1/checks/${checkId}/run`);
    expect(run.status).toBe(409);
    expect(run.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringContaining('Nowhere to run'), attributes: { idle: { code: 'NO_LOCATIONS' } } });

    const trigger = (await s.a.request('POST', `/v1/triggers/checks/${checkId}`)).body;
    for (const method of ['GET', 'POST']) {
      const viaUrl = await s.raw(method, `/checks/${checkId}/trigger/${trigger.token}`);
      expect(viaUrl.status).toBe(409);
      expect(viaUrl.body.message).toContain('Nowhere to run');
    }
    const results = await s.a.request('GET', `/v2/check-results/${checkId}`);
    expect(results.body.entries).toEqual([]);
  });

  it('refuses a test session with an idle check unless it names a run location', async () => {
    const { checkId } = await idleCheck('Session');
    const refused = await s.a.request('POST', '/v1/test-sessions/trigger', { checkIds: [checkId] });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('"Session"');
    expect(refused.body.message).toContain('Nowhere to run');
    const placed = await s.a.request('POST', '/v1/test-sessions/trigger', { checkIds: [checkId], runLocation: 'eu-west-1' });
    expect(placed.status).toBe(201);
    const done = await s.a.request('GET', `/v1/test-sessions/${placed.body.id}/completion?maxWaitSeconds=30`);
    expect(done.body).toMatchObject({ status: 'PASSED' });
  });

  it('runs the check and clears idle once its group names a location', async () => {
    const { groupId, checkId } = await idleCheck('Fixed');
    expect((await s.a.request('PUT', `/v2/check-groups/${groupId}`, { locations: ['eu-west-1'] })).status).toBe(200);
    expect((await s.a.request('GET', `/v1/check-statuses/${checkId}`)).status).toBe(404);
    const run = await s.a.request('POST', `/v1/checks/${checkId}/run`);
    expect(run.status).toBe(200);
    expect(run.body.results[0]).toMatchObject({ runLocation: 'eu-west-1', hasFailures: false });
    expect((await s.a.request('GET', `/v1/check-statuses/${checkId}`)).body).toMatchObject({ idle: null, lastRunLocation: 'eu-west-1' });
  });

  it('never calls a heartbeat check idle: pings decide, nothing runs it', async () => {
    const group = await s.a.request('POST', '/v2/check-groups', { name: 'Heartbeats' });
    const hb = await s.a.request('POST', '/v1/checks/heartbeat', { name: 'hb', groupId: group.body.id, heartbeat: { period: 1, periodUnit: 'hours', grace: 0, graceUnit: 'minutes' } });
    expect((await s.a.request('GET', `/v1/check-statuses/${hb.body.id}`)).status).toBe(404);
  });

  it('logs an idle check once while it stays idle, not at every refresh, and again once it turns idle anew', async () => {
    const lines: Record<string, any>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const { groupId, checkId } = await idleCheck('Logged');
    const runs: string[] = [];
    const scheduler = createScheduler({ store: s.lookout.store, logger, run: async (job) => void runs.push(job.row.id), refreshMs: 3_600_000 });
    const idleLines = () => lines.filter((l) => l.checkId === checkId && l.idle);
    try {
      await scheduler.start();
      for (let i = 0; i < 3; i++) {
        await scheduler.refresh();
        await scheduler.refreshCheck(checkId);
      }
      expect(idleLines()).toHaveLength(1);
      expect(idleLines()[0]).toMatchObject({ level: 40, accountId: s.a.accountId, idle: { code: 'NO_LOCATIONS' }, msg: expect.stringContaining('"Logged" is not scheduled') });

      await s.a.request('PUT', `/v2/check-groups/${groupId}`, { locations: ['eu-west-1'] });
      await scheduler.refreshCheck(checkId);
      expect(idleLines()).toHaveLength(1);

      await s.a.request('PUT', `/v2/check-groups/${groupId}`, { locations: [] });
      await scheduler.refreshCheck(checkId);
      await scheduler.refreshCheck(checkId);
      expect(idleLines()).toHaveLength(2);
      expect(runs).not.toContain(checkId);
    } finally {
      await scheduler.close();
    }
  });
});
