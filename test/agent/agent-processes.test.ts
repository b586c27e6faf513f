import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { spawnAgent, type SpawnedAgent } from '../support/spawn-agent.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/until.js';
import { readSseData } from '../support/read-sse-data.js';

/**
 * Two `lookout serve` processes on one PostgreSQL and Redis, and `lookout agent` processes: the
 * leader queues a private location's slots, agents take them through the API process, an agent
 * killed mid-run has its run re-leased and done once, and a data-center location with a live
 * agent runs there. Child processes; PostgreSQL and Redis only.
 */
const url = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (!url || !redisUrl) console.info('agent-processes: skipped (needs TEST_DATABASE_URL and TEST_REDIS_URL)');

const KEY = 'lo_agent_processes_key_0123456789abcdef';
const ACCOUNT = '0b6a1f35-0f2c-4d7b-a7f4-3a0e1f1c2d11';
const DC_KEY = 'dc-agent-key-0123456789abcdef';

/** Collects `checkResultCreated` events of a process's event stream. */
function followResults(server: SpawnedServer): { events: { checkId: string; result: Record<string, any> }[]; close(): void } {
  const events: { checkId: string; result: Record<string, any> }[] = [];
  const abort = new AbortController();
  void (async () => {
    const res = await fetch(`${server.url}/v1/events/stream?types=checkResultCreated`, { headers: { authorization: `Bearer ${KEY}`, 'x-lookout-account': ACCOUNT }, signal: abort.signal });
    await readSseData(res.body!, (data) => {
      events.push(data as (typeof events)[number]);
    });
  })().catch(() => {});
  return { events, close: () => abort.abort() };
}

describe.skipIf(!url || !redisUrl)('agents across processes (PostgreSQL, Redis)', { timeout: 180_000 }, () => {
  const schema = `agents_${randomBytes(5).toString('hex')}`;
  const children: (SpawnedServer | SpawnedAgent)[] = [];
  let env: Record<string, string>;
  let target: HttpTarget;
  let db: pg.Client;

  const api = (server: SpawnedServer, method: string, path: string, body?: unknown) => fetch(`${server.url}${path}`, {
    method, headers: { authorization: `Bearer ${KEY}`, 'x-lookout-account': ACCOUNT, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() as any }));

  beforeAll(async () => {
    db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(`CREATE SCHEMA "${schema}"`);
    const u = new URL(url!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    env = {
      DATABASE_URL: u.toString(), REDIS_URL: redisUrl!, LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT, LOOKOUT_DATA_CENTER_AGENT_KEY: DC_KEY,
    };
    target = await startHttpTarget();
  });

  afterAll(async () => {
    for (const c of children) {
      if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
      await c.exited;
    }
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.end();
    await target?.close();
  });

  it('re-leases the run of an agent killed mid-run and stores it once; results reach a subscriber on another process', async () => {
    const leader = await spawnServer({ ...env, LOOKOUT_ROLE: 'all' });
    children.push(leader);
    const front = await spawnServer({ ...env, LOOKOUT_ROLE: 'api' });
    children.push(front);
    const followed = followResults(leader);

    const location = await api(front, 'POST', '/v1/private-locations', { name: 'Lab', slugName: 'lab' });
    expect(location.status).toBe(201);
    const key = location.body.keys[0].rawKey as string;
    const first = await spawnAgent({ LOOKOUT_SERVICE_URL: front.url, LOOKOUT_AGENT_KEY: key });
    children.push(first);

    // Every 10 s, in the lab only; the first run hangs long enough to kill its agent in the middle.
    let calls = 0;
    target.events.on('request', () => void calls++);
    const created = await api(front, 'POST', '/v1/checks/api', {
      name: 'Lab every ten seconds', frequency: 0, frequencyOffset: 10, locations: [], privateLocations: ['lab'],
      request: { url: `${target.http.url}/delay/4000` },
    });
    expect(created.status).toBe(201);
    const checkId = created.body.id as string;
    await once(target.events, 'request');
    const [held] = (await db.query(`SELECT id, lease_owner FROM "${schema}".run_jobs WHERE check_id = $1 AND state = 'leased'`, [checkId])).rows;
    expect(held.lease_owner).toBe(`agent:${first.agentId}`);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await spawnAgent({ LOOKOUT_SERVICE_URL: front.url, LOOKOUT_AGENT_KEY: key });
    children.push(second);
    const rerun = await until(async () => {
      const [row] = (await db.query(`SELECT state, claims, lease_owner FROM "${schema}".run_jobs WHERE id = $1`, [held.id])).rows;
      return row.state === 'done' && row;
    }, 'the killed agent\'s run to be re-leased and done', 60_000);
    expect(rerun).toMatchObject({ claims: 2, lease_owner: `agent:${second.agentId}` });
    const finals = (await db.query(
      `SELECT r.id, r.detail->'ranOn' AS ran_on FROM "${schema}".check_results r WHERE r.check_id = $1 AND r.result_type = 'FINAL'`, [checkId])).rows;
    const jobsDone = (await db.query(`SELECT count(*)::int AS n FROM "${schema}".run_jobs WHERE check_id = $1 AND state = 'done'`, [checkId])).rows[0].n;
    // One FINAL per finished slot: the killed run's slot is stored once, by the second agent.
    expect(finals.length).toBe(jobsDone);
    expect(finals.some((f) => f.ran_on.agentId === second.agentId)).toBe(true);
    expect(finals.some((f) => f.ran_on.agentId === first.agentId)).toBe(false);
    // The results, recorded by the API process the agent talks to, reach a subscriber of the other process.
    await until(async () => followed.events.some((e) => e.checkId === checkId && e.result.resultType === 'FINAL'), 'the result on the other process', 60_000);
    // The private location says who serves it; the killed agent is gone within 15 s of its last report.
    const metrics = await until(async () => {
      const m = await api(front, 'GET', `/v1/private-locations/${location.body.id}/metrics`);
      return m.body.agentCount === 1 && m;
    }, 'the killed agent to drop out of the metrics', 60_000);
    expect(metrics.body.agents[0].id).toBe(second.agentId);
    expect(calls).toBeGreaterThanOrEqual(2);
    followed.close();

    // A data-center location with a live agent runs there; every result says where it ran.
    const dc = await spawnAgent({ LOOKOUT_SERVICE_URL: front.url, LOOKOUT_AGENT_KEY: DC_KEY, LOOKOUT_AGENT_LOCATION: 'eu-central-1' });
    children.push(dc);
    await until(async () => (await fetch(`${dc.healthUrl}/-/readiness`)).status === 200, 'the data-center agent to be ready', 60_000);
    const europe = await api(front, 'POST', '/v1/checks/api', {
      name: 'Frankfurt', frequency: 0, frequencyOffset: 10, locations: ['eu-central-1'], request: { url: `${target.http.url}/status/200` },
    });
    expect(europe.status).toBe(201);
    const ran = await until(async () => {
      const [row] = (await db.query(
        `SELECT run_location, detail->'ranOn' AS ran_on FROM "${schema}".check_results WHERE check_id = $1 AND result_type = 'FINAL' LIMIT 1`, [europe.body.id])).rows;
      return row;
    }, 'a run of the data-center location', 60_000);
    expect(ran).toEqual({ run_location: 'eu-central-1', ran_on: { kind: 'agent', agentId: dc.agentId } });

    // A graceful stop: the agent finishes, leaves, and says so.
    dc.child.kill('SIGTERM');
    expect(await dc.exited).toBe(0);
    expect(dc.output()).toMatch(/"msg":"agent stopped"/);
    expect(front.output()).toMatch(/"msg":"agent joined"/);
    expect(front.output()).toMatch(/"msg":"agent left"/);
  });
});
