import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from './support/spawn-server.js';

/**
 * Two `lookout serve` processes on one PostgreSQL: exactly one leads the schedule (and alerting),
 * and when it is killed with SIGKILL the other takes over. Child processes, PostgreSQL only.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.info('scheduler-takeover: skipped (needs TEST_DATABASE_URL)');

const KEY = 'lo_takeover_test_key_0123456789abcdef01';
const ACCOUNT = '5d0e6a52-3f7c-4c55-9d7e-2a1f8c0d9e22';

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

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    const u = new URL(url!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    env = { DATABASE_URL: u.toString(), LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT, LOOKOUT_RUNNER: 'on' };
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
  });

  const health = async (s: SpawnedServer) => (await fetch(`${s.url}/health`)).json() as Promise<{ role: string; scheduler: string }>;

  it('lets one process lead, and the other take over when the leader is killed', async () => {
    const first = await spawnServer(env);
    servers.push(first);
    await printed(first, /elected scheduler leader/);
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
  });
});
