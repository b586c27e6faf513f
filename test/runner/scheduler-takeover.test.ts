import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';

/**
 * Two `lookout serve` processes on one PostgreSQL: exactly one leads the schedule (and alerting),
 * and when it is killed with SIGKILL the other takes over. Child processes, PostgreSQL only.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.info('scheduler-takeover: skipped (needs TEST_DATABASE_URL)');

const KEY = 'lo_takeover_test_key_0123456789abcdef01';
const ACCOUNT = '5d0e6a52-3f7c-4c55-9d7e-2a1f8c0d9e22';

/** Resolves after `count` FINAL results of `checkId` arrive on the server's event stream (it runs them itself). */
async function finalsOn(server: SpawnedServer, checkId: string, count: number): Promise<void> {
  const res = await fetch(`${server.url}/v1/events/stream?types=checkResultCreated`, { headers: { authorization: `Bearer ${KEY}`, 'x-lookout-account': ACCOUNT } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let seen = 0;
  try {
    while (seen < count) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += decoder.decode(value, { stream: true });
      const messages = buffer.split('\n\n');
      buffer = messages.pop()!;
      for (const m of messages) {
        const data = m.split('\n').find((l) => l.startsWith('data: '));
        const event = data ? JSON.parse(data.slice(6)) as { checkId?: string; result?: { resultType?: string } } : null;
        if (event?.checkId === checkId && event.result?.resultType === 'FINAL') seen++;
      }
    }
  } finally {
    await reader.cancel();
  }
}

/** Resolves when the process prints a line matching `pattern` (now or later). */
function printed(server: SpawnedServer, pattern: RegExp): Promise<void> {
  if (pattern.test(server.output())) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onData = () => {
      if (!pattern.test(server.output())) return;
      server.child.stdout!.off('data', onData);
      resolve();
    };
    server.child.stdout!.on('data', onData);
    void server.exited.then(() => reject(new Error(`exited before printing ${pattern}:\n${server.output()}`)));
  });
}

describe.skipIf(!url)('scheduler leadership across processes (PostgreSQL)', { timeout: 180_000 }, () => {
  const schema = `takeover_${randomBytes(5).toString('hex')}`;
  const servers: SpawnedServer[] = [];
  let env: Record<string, string>;
  let target: HttpTarget;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    const u = new URL(url!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    env = { DATABASE_URL: u.toString(), LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT, LOOKOUT_RUNNER: 'on' };
    target = await startHttpTarget();
  });

  afterAll(async () => {
    for (const s of servers) {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await s.exited;
    }
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    await target?.close();
  });

  const health = async (s: SpawnedServer) => (await fetch(`${s.url}/health`)).json() as Promise<{ role: string; scheduler: string }>;

  it('lets one process lead, the other take over when the leader is killed, and runs every slot once', async () => {
    const first = await spawnServer(env);
    servers.push(first);
    await printed(first, /elected scheduler leader/);
    // Every 10 s (frequency 0 = sub-minute, period frequencyOffset seconds).
    const created = await fetch(`${first.url}/v1/checks/api`, {
      method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'x-lookout-account': ACCOUNT, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Every ten seconds', frequency: 0, frequencyOffset: 10, locations: ['eu-west-1'], request: { url: `${target.http.url}/json` } }),
    });
    expect(created.status).toBe(201);
    const checkId = ((await created.json()) as { id: string }).id;
    await finalsOn(first, checkId, 1);
    const second = await spawnServer(env);
    servers.push(second);
    expect(await health(first)).toMatchObject({ role: 'all', scheduler: 'leader' });
    expect(await health(second)).toMatchObject({ role: 'all', scheduler: 'standby' });

    first.child.kill('SIGKILL');
    await first.exited;
    await printed(second, /elected scheduler leader/);
    expect(await health(second)).toMatchObject({ scheduler: 'leader' });
    const ready = await fetch(`${second.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });

    // A graceful stop hands the leadership over too (and says so).
    const third = await spawnServer(env);
    servers.push(third);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await printed(third, /elected scheduler leader/);
    expect(await health(third)).toMatchObject({ scheduler: 'leader' });
    await finalsOn(third, checkId, 2);

    // Each slot was queued once and stored once, and none was left out across both handovers.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`SET search_path TO "${schema}"`);
      const jobs = (await admin.query<{ slot_at: Date; finals_stored: number }>(
        `SELECT slot_at, finals_stored FROM run_jobs WHERE check_id = $1 AND state = 'done' ORDER BY slot_at`, [checkId])).rows;
      const [{ finals }] = (await admin.query<{ finals: number }>(
        `SELECT count(*)::int AS finals FROM check_results WHERE check_id = $1 AND result_type = 'FINAL'`, [checkId])).rows as [{ finals: number }];
      expect(jobs.every((j) => j.finals_stored === 1)).toBe(true);
      expect(finals).toBe(jobs.length);
      const gaps = jobs.slice(1).map((j, i) => j.slot_at.getTime() - jobs[i]!.slot_at.getTime());
      // A slot the dead leader had not queued yet is caught up at once by the next one: never a whole period without a run.
      expect(gaps.every((g) => g > 0 && g < 20_000)).toBe(true);
    } finally {
      await admin.end();
    }
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('splits the roles: an API-only process takes the requests, a runner-only process runs the checks', async () => {
    // The processes of the test before leave the stage first.
    for (const s of servers.splice(0)) {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
      await s.exited;
    }
    const roles = { ...env, LOOKOUT_RUNNER: '', REDIS_URL: process.env.TEST_REDIS_URL! };
    const runner = await spawnServer({ ...roles, LOOKOUT_ROLE: 'runner' });
    servers.push(runner);
    const api = await spawnServer({ ...roles, LOOKOUT_ROLE: 'api' });
    servers.push(api);
    await printed(runner, /elected scheduler leader/);
    expect(await health(api)).toMatchObject({ role: 'api', scheduler: 'off' });
    expect(await health(runner)).toMatchObject({ role: 'runner', scheduler: 'leader' });
    const auth = { authorization: `Bearer ${KEY}`, 'x-lookout-account': ACCOUNT };
    expect((await fetch(`${runner.url}/v1/checks`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${runner.url}/graphql`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' })).status).toBe(404);
    expect((await fetch(`${runner.url}/metrics`)).status).toBe(200);

    const created = await fetch(`${api.url}/v1/checks/api`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Run elsewhere', frequency: 0, frequencyOffset: 10, locations: ['eu-west-1'], request: { url: `${target.http.url}/json` } }),
    });
    expect(created.status).toBe(201);
    // Its results come from the runner process, through Redis, to the API process's event stream.
    await finalsOn(api, ((await created.json()) as { id: string }).id, 1);
  });
});

