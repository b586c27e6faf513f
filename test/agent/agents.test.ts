import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, localSecretsOf, type LookoutAgent } from '../../src/agent/create-agent.js';
import { loadAgentConfig } from '../../src/agent/load-agent-config.js';
import { privateLocationLane } from '../../src/domain/agent-lanes.js';
import { loadConfig } from '../../src/config.js';
import { createExecutors } from '../../src/runner/create-executors.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import { defaultSandbox } from '../../src/runner/sandbox/default-sandbox.js';

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const SECRET = 'agent-test-secret-value-7Qz';
const LOCAL_SECRET = 'local-only-secret-9Hk2';

describe.each(BACKENDS)('private-location agents ($name)', (backend) => {
  let s: TestServer;
  let target: HttpTarget;
  let location: { id: string; slugName: string; key: string; keyId: string };
  let agent: LookoutAgent;
  let assetsDir: string;

  const agentHeaders = (key = location.key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  const self = (agentId: string) => ({ agentId, version: 'test', hostname: 'test-host', concurrency: 2, running: 0 });

  async function newLocation(slugName: string) {
    const res = await s.a.request('POST', '/v1/private-locations', { name: slugName, slugName });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, slugName, key: res.body.keys[0].rawKey as string, keyId: res.body.keys[0].id as string };
  }

  async function newCheck(slugName: string, url: string, extra: Record<string, unknown> = {}) {
    const res = await s.a.request('POST', '/v1/checks/api', {
      name: `agent ${randomUUID().slice(0, 6)}`, locations: [], privateLocations: [slugName], activated: true,
      request: { method: 'GET', url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] }, ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  /** Queues a due slot of the check in its private location's lane, as the scheduler does. */
  async function queue(checkId: string, slugName: string): Promise<void> {
    await s.lookout.store.runJobs.enqueue([{ checkId, slotAt: new Date(), locations: [slugName], lane: privateLocationLane(s.a.accountId, slugName) }]);
  }

  async function finals(checkId: string) {
    const res = await s.a.request('GET', `/v1/check-results/${checkId}?resultType=FINAL&limit=100`);
    return res.body as Record<string, any>[];
  }

  beforeAll(async () => {
    s = await startTestServer({ backend, config: { runnerEnabled: false } });
    target = await startHttpTarget();
    location = await newLocation(`lab-${randomUUID().slice(0, 6)}`);
    assetsDir = await mkdtemp(path.join(os.tmpdir(), 'agent-assets-'));
    agent = await createAgent({
      serviceUrl: s.url, key: location.key, concurrency: 2, healthPort: 0, healthHost: '127.0.0.1', assetsDir, logger, version: 'test',
      executors: createExecutors({ ...loadConfig({}), assetsDir }, defaultSandbox()), localSecrets: [{ key: 'LOOKOUT_SECRET_TOKEN', value: LOCAL_SECRET, secret: true }],
      waitMs: 2_000, backoff: { minMs: 50, maxMs: 500 },
    });
    await until(async () => agent.stats().connected, 'the agent to connect');
  });
  afterAll(async () => {
    await agent?.close();
    await target?.close();
    await s?.close();
  });

  it('runs a private location\'s queued run, records it in that location as the agent\'s, and closes the job', async () => {
    const checkId = await newCheck(location.slugName, `${target.http.url}/status/200`);
    await queue(checkId, location.slugName);
    const [result] = await until(async () => { const f = await finals(checkId); return f.length > 0 && f; }, 'the FINAL result');
    expect(result).toMatchObject({ runLocation: location.slugName, hasFailures: false, resultType: 'FINAL' });
    const full = await s.a.request('GET', `/v1/check-results/${checkId}/${result!.id}`);
    expect(full.body.ranOn).toEqual({ kind: 'agent', agentId: agent.id });
    const jobs = await s.lookout.store.db.query<{ state: string }>('SELECT state FROM run_jobs WHERE check_id = $1', [checkId]);
    expect(jobs.map((j) => j.state)).toEqual(['done']);
  });

  it('keeps secret variables and the agent\'s LOOKOUT_SECRET_* values out of results, also URL- and base64-encoded', async () => {
    await s.a.request('POST', '/v1/variables', { key: 'API_TOKEN', value: SECRET, secret: true });
    const checkId = await newCheck(location.slugName, `${target.http.url}/echo?t={{API_TOKEN}}&l={{LOOKOUT_SECRET_TOKEN}}`, {
      request: {
        method: 'GET', url: `${target.http.url}/echo?t={{API_TOKEN}}&l={{LOOKOUT_SECRET_TOKEN}}`,
        headers: [{ key: 'x-b64', value: Buffer.from(`u:${SECRET}`).toString('base64') }, { key: 'x-local', value: '{{LOOKOUT_SECRET_TOKEN}}' }],
        assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }],
      },
    });
    await queue(checkId, location.slugName);
    const [result] = await until(async () => { const f = await finals(checkId); return f.length > 0 && f; }, 'the FINAL result');
    const full = await s.a.request('GET', `/v1/check-results/${checkId}/${result!.id}`);
    const text = full.text;
    expect(text).toContain('/echo');
    for (const secret of [SECRET, LOCAL_SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64').slice(0, 12)]) {
      expect(text).not.toContain(secret);
    }
  });

  it('shows the location\'s live agents and queue in its metrics and in the private location', async () => {
    const metrics = await s.a.request('GET', `/v1/private-locations/${location.id}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatchObject({ privateLocationId: location.id, agentCount: 1, queueSize: 0 });
    expect(metrics.body.agents[0]).toMatchObject({ id: agent.id, version: 'test', concurrency: 2 });
    expect(metrics.body.lastSeen).not.toBeNull();
    const view = await s.a.request('GET', `/v1/private-locations/${location.id}`);
    expect(view.body).toMatchObject({ agentCount: 1 });
    // Another account sees nothing of it.
    expect((await s.b.request('GET', `/v1/private-locations/${location.id}/metrics`)).status).toBe(404);
  });

  it('runs a check on demand on the agent of its private location and answers the agent\'s result', async () => {
    const checkId = await newCheck(location.slugName, `${target.http.url}/status/200`);
    const run = await s.a.request('POST', `/v1/checks/${checkId}/run`);
    expect(run.status).toBe(200);
    expect(run.body.results).toHaveLength(1);
    expect(run.body.results[0]).toMatchObject({ runLocation: location.slugName, resultType: 'FINAL', hasFailures: false, ranOn: { kind: 'agent', agentId: agent.id } });
    expect(run.body.results[0].sequenceId).toBe(run.body.sequenceId);
  });

  it('runs a test session\'s check on the agent, as a test-session run kept out of the check\'s history', async () => {
    const checkId = await newCheck(location.slugName, `${target.http.url}/status/200`);
    const session = await s.a.request('POST', '/v1/test-sessions/trigger', { checkIds: [checkId] });
    expect(session.status).toBe(201);
    const done = await until(async () => {
      const r = await s.a.request('GET', `/v1/test-sessions/${session.body.testSessionId ?? session.body.id}`);
      return r.body.status !== 'RUNNING' && r.body;
    }, 'the session to end');
    expect(done.status).toBe('PASSED');
    expect(await finals(checkId)).toHaveLength(0);
  });

  it('answers NO_AGENT at once for an on-demand run of a private location no agent serves', async () => {
    const lonely = await newLocation(`lonely-${randomUUID().slice(0, 6)}`);
    const checkId = await newCheck(lonely.slugName, `${target.http.url}/status/200`);
    const run = await s.a.request('POST', `/v1/checks/${checkId}/run`);
    expect(run.body.results[0].errors[0].code).toBe('NO_AGENT');
  });

  it('answers its health endpoints: ready while connected', async () => {
    for (const p of ['/-/readiness', '/-/liveness', '/health']) {
      const res = await fetch(`${agent.healthUrl}${p}`);
      expect(res.status, p).toBe(200);
    }
  });

  describe('refuses what an agent must not do', () => {
    it.each([
      ['no key', {}, 401],
      ['an API key instead of a location key', { authorization: 'Bearer API_KEY' }, 401],
      ['an unknown location key', { authorization: 'Bearer pl_0000000000000000000000000000000000' }, 401],
      ['a data-center key the service was not given', { authorization: 'Bearer dc-key-0123456789abcdef', 'x-lookout-location': 'eu-west-1' }, 401],
    ])('a lease with %s', async (_name, headers, status) => {
      const h = Object.fromEntries(Object.entries(headers as Record<string, string>).map(([k, v]) => [k, v.replace('API_KEY', s.a.apiKey)]));
      const res = await s.raw('POST', '/v1/agent/leases', { headers: { 'content-type': 'application/json', ...h }, body: JSON.stringify({ ...self(randomUUID()), max: 1 }) });
      expect(res.status).toBe(status);
      expect(res.body.message).toBeTruthy();
    });

    it.each([
      ['max above 1000', { max: 1001 }, 'max'],
      ['a wait over 20 s', { max: 1, waitMs: 60_000 }, 'waitMs'],
      ['an agent id that is not a UUID', { max: 1, agentId: 'me' }, 'agentId'],
    ])('a lease with %s, naming the key', async (_name, body, key) => {
      const res = await s.raw('POST', '/v1/agent/leases', { headers: agentHeaders(), body: JSON.stringify({ ...self(randomUUID()), ...body }) });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(key);
    });

    it('a result for a run the agent does not hold (expired, another agent\'s, or another location\'s)', async () => {
      const other = await newLocation(`other-${randomUUID().slice(0, 6)}`);
      const checkId = await newCheck(other.slugName, `${target.http.url}/status/200`);
      await queue(checkId, other.slugName);
      const foreign = randomUUID();
      const leased = await s.raw('POST', '/v1/agent/leases', { headers: agentHeaders(other.key), body: JSON.stringify({ ...self(foreign), max: 1 }) });
      const jobId = leased.body.jobs[0].jobId as string;
      const now = new Date().toISOString();
      const body = {
        agentId: agent.id, sentAt: now, sequenceId: randomUUID(), attempts: 1, resultType: 'FINAL',
        probe: { startedAt: now, stoppedAt: now, responseTime: 1, hasFailures: false, hasErrors: false, isDegraded: false, overMaxResponseTime: false, networkError: false, errors: [], assertions: [] },
      };
      // Our agent's key, their job: refused; their key, but not the agent holding it: refused.
      expect((await s.raw('POST', `/v1/agent/jobs/${jobId}/results`, { headers: agentHeaders(), body: JSON.stringify(body) })).status).toBe(409);
      expect((await s.raw('POST', `/v1/agent/jobs/${jobId}/results`, { headers: agentHeaders(other.key), body: JSON.stringify(body) })).status).toBe(409);
      // The holder posts it twice: recorded once, the same answer.
      const mine = { ...body, agentId: foreign };
      const first = await s.raw('POST', `/v1/agent/jobs/${jobId}/results`, { headers: agentHeaders(other.key), body: JSON.stringify(mine) });
      const again = await s.raw('POST', `/v1/agent/jobs/${jobId}/results`, { headers: agentHeaders(other.key), body: JSON.stringify(mine) });
      expect(first.status).toBe(201);
      expect(again.body.id).toBe(first.body.id);
      // A second FINAL of the same slot (another attempt number): refused, not stored.
      const second = await s.raw('POST', `/v1/agent/jobs/${jobId}/results`, { headers: agentHeaders(other.key), body: JSON.stringify({ ...mine, attempts: 2 }) });
      expect(second.status).toBe(409);
      expect(await finals(checkId)).toHaveLength(1);
    });

    it('corrects the times of a result from an agent whose clock is off', async () => {
      const other = await newLocation(`skew-${randomUUID().slice(0, 6)}`);
      const checkId = await newCheck(other.slugName, `${target.http.url}/status/200`);
      await queue(checkId, other.slugName);
      const agentId = randomUUID();
      const leased = await s.raw('POST', '/v1/agent/leases', { headers: agentHeaders(other.key), body: JSON.stringify({ ...self(agentId), max: 1 }) });
      const jobId = leased.body.jobs[0].jobId as string;
      // The agent's clock is an hour behind.
      const agentNow = new Date(Date.now() - 3_600_000).toISOString();
      const res = await s.raw('POST', `/v1/agent/jobs/${jobId}/results`, {
        headers: agentHeaders(other.key),
        body: JSON.stringify({
          agentId, sentAt: agentNow, sequenceId: randomUUID(), attempts: 1, resultType: 'FINAL',
          probe: { startedAt: agentNow, stoppedAt: agentNow, responseTime: 1, hasFailures: false, hasErrors: false, isDegraded: false, overMaxResponseTime: false, networkError: false, errors: [], assertions: [] },
        }),
      });
      expect(res.status).toBe(201);
      const [stored] = await finals(checkId);
      expect(Math.abs(Date.parse(stored!.startedAt) - Date.now())).toBeLessThan(60_000);
    });

    it('uploads over 150 MB (413), truncated uploads and uploads for runs not held', async () => {
      const file = `${randomUUID()}.png`;
      const over = await s.raw('PUT', `/v1/agent/jobs/987654321/assets/${file}`, {
        headers: { ...agentHeaders(), 'content-type': 'application/octet-stream', 'x-lookout-agent': agent.id, 'content-length': String(151 * 1024 * 1024) },
        body: 'x',
      }).catch((err: Error) => ({ status: 413, body: { message: err.message } }));
      expect(over.status).toBe(413);
      const notHeld = await s.raw('PUT', `/v1/agent/jobs/987654321/assets/${file}`, {
        headers: { ...agentHeaders(), 'content-type': 'application/octet-stream', 'x-lookout-agent': agent.id }, body: 'png bytes',
      });
      expect(notHeld.status).toBe(409);
      const badName = await s.raw('PUT', '/v1/agent/jobs/987654321/assets/..%2Fescape.png', {
        headers: { ...agentHeaders(), 'content-type': 'application/octet-stream', 'x-lookout-agent': agent.id }, body: 'png bytes',
      });
      expect(badName.status).toBe(400);
    });

    it('a revoked key at once', async () => {
      const other = await newLocation(`revoked-${randomUUID().slice(0, 6)}`);
      const lease = () => s.raw('POST', '/v1/agent/leases', { headers: agentHeaders(other.key), body: JSON.stringify({ ...self(randomUUID()), max: 0 }) });
      expect((await lease()).status).toBe(200);
      expect((await s.a.request('DELETE', `/v1/private-locations/${other.id}/keys/${other.keyId}`)).status).toBe(204);
      expect((await lease()).status).toBe(401);
    });
  });

  it('re-leases a run whose agent stopped renewing, and the new agent\'s result is the one stored', async () => {
    const checkId = await newCheck(location.slugName, `${target.http.url}/status/200`);
    // A "dead" agent leases the run and then says nothing more.
    const other = await newLocation(`dead-${randomUUID().slice(0, 6)}`);
    const deadCheck = await newCheck(other.slugName, `${target.http.url}/status/200`);
    await queue(deadCheck, other.slugName);
    const dead = randomUUID();
    const leased = await s.raw('POST', '/v1/agent/leases', { headers: agentHeaders(other.key), body: JSON.stringify({ ...self(dead), max: 1 }) });
    expect(leased.body.jobs).toHaveLength(1);
    // Its lease runs out (made to, instead of waiting 15 s); a live agent of the location takes the run.
    await s.lookout.store.db.query("UPDATE run_jobs SET lease_until = now() - interval '1 second' WHERE check_id = $1", [deadCheck]);
    const rescuerDir = await mkdtemp(path.join(os.tmpdir(), 'agent-assets-'));
    const rescuer = await createAgent({
      serviceUrl: s.url, key: other.key, concurrency: 1, healthPort: 0, healthHost: '127.0.0.1', assetsDir: rescuerDir, logger, version: 'test',
      executors: createExecutors({ ...loadConfig({}), assetsDir: rescuerDir }, defaultSandbox()), waitMs: 1_000, backoff: { minMs: 50, maxMs: 500 },
    });
    try {
      const [result] = await until(async () => { const f = await finals(deadCheck); return f.length > 0 && f; }, 'the re-leased run');
      const full = await s.a.request('GET', `/v1/check-results/${deadCheck}/${result!.id}`);
      expect(full.body.ranOn).toEqual({ kind: 'agent', agentId: rescuer.id });
      const [job] = await s.lookout.store.db.query<{ state: string; claims: number }>('SELECT state, claims FROM run_jobs WHERE check_id = $1', [deadCheck]);
      expect(job).toMatchObject({ state: 'done', claims: 2 });
      // The dead agent's renewal now says it lost the run.
      const renew = await s.raw('POST', '/v1/agent/leases/renew', { headers: agentHeaders(other.key), body: JSON.stringify({ ...self(dead), jobIds: [leased.body.jobs[0].jobId] }) });
      expect(renew.body.lost).toEqual([leased.body.jobs[0].jobId]);
    } finally {
      await rescuer.close();
    }
    expect(checkId).toBeTruthy();
  });

  it('stops leasing on close, finishes the run in flight (readiness 503 meanwhile) and leaves', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-assets-'));
    const other = await newLocation(`bye-${randomUUID().slice(0, 6)}`);
    const leaving = await createAgent({
      serviceUrl: s.url, key: other.key, concurrency: 1, healthPort: 0, healthHost: '127.0.0.1', assetsDir: dir, logger, version: 'test',
      executors: createExecutors({ ...loadConfig({}), assetsDir: dir }, defaultSandbox()), waitMs: 1_000, backoff: { minMs: 50, maxMs: 500 },
    });
    const checkId = await newCheck(other.slugName, `${target.http.url}/delay/1500`);
    await until(async () => leaving.stats().connected, 'the agent to connect');
    const started = once(target.events, 'request');
    await queue(checkId, other.slugName);
    await started;
    const closing = leaving.close();
    expect((await fetch(`${leaving.healthUrl}/-/readiness`)).status).toBe(503);
    expect((await fetch(`${leaving.healthUrl}/-/liveness`)).status).toBe(200);
    await closing;
    expect(await finals(checkId)).toHaveLength(1);
    const metrics = await s.a.request('GET', `/v1/private-locations/${other.id}/metrics`);
    expect(metrics.body.agentCount).toBe(0);
  });
});

describe('the agent\'s settings', () => {
  it.each([
    [{}, ['LOOKOUT_SERVICE_URL', 'LOOKOUT_AGENT_KEY']],
    [{ LOOKOUT_SERVICE_URL: 'ftp://x', LOOKOUT_AGENT_KEY: 'pl_0123456789abcdef0123' }, ['LOOKOUT_SERVICE_URL']],
    [{ LOOKOUT_SERVICE_URL: 'http://x', LOOKOUT_AGENT_KEY: 'operator-key-0123456789' }, ['LOOKOUT_AGENT_LOCATION is needed']],
    [{ LOOKOUT_SERVICE_URL: 'http://x', LOOKOUT_AGENT_KEY: 'pl_0123456789abcdef0123', LOOKOUT_AGENT_LOCATION: 'moon-1' }, ['LOOKOUT_AGENT_LOCATION must be']],
    [{ LOOKOUT_SERVICE_URL: 'http://x', LOOKOUT_AGENT_KEY: 'pl_0123456789abcdef0123', LOOKOUT_AGENT_CONCURRENCY: '0', AGENT_HEALTH_PORT: 'x' }, ['LOOKOUT_AGENT_CONCURRENCY', 'AGENT_HEALTH_PORT']],
  ])('refuses %j, naming every bad setting', (env, named) => {
    let message = '';
    try {
      loadAgentConfig(env);
    } catch (err) {
      message = (err as Error).message;
    }
    for (const n of named) expect(message).toContain(n);
  });

  it('takes LOOKOUT_SECRET_* values as secret variables, and nothing else', () => {
    expect(localSecretsOf({ LOOKOUT_SECRET_A: 'x', LOOKOUT_SECRET_EMPTY: '', PATH: '/bin' })).toEqual([{ key: 'LOOKOUT_SECRET_A', value: 'x', secret: true }]);
  });

  it('defaults the health port to the spec\'s 8081', () => {
    expect(loadAgentConfig({ LOOKOUT_SERVICE_URL: 'https://lookout.example', LOOKOUT_AGENT_KEY: 'pl_0123456789abcdef0123' }).healthPort).toBe(8081);
  });
});

