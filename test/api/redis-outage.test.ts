import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answersWithin } from '../support/answers-within.js';
import { freePort, startRedis, stopRedis } from '../support/redis-server.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/until.js';
import { readSseData } from '../support/read-sse-data.js';

/**
 * Two `lookout serve` processes sharing a Redis of the test's own, which is killed (SIGKILL) and
 * started again on the same port: while it is away requests answer without waiting on it (before,
 * each waited on ioredis's retries for seconds), rate limits still apply per process and events
 * still reach the process that published them; once it is back, events cross processes again.
 */
const redisAvailable = Boolean(process.env.TEST_REDIS_URL);
if (!redisAvailable) console.info('redis-outage: skipped (needs redis-server: TEST_REDIS_URL set)');

const KEY = 'lo_redis_outage_test_key_0123456789abcd';
const ACCOUNT = '7c2b4f0e-1a3d-4e5f-8a9b-0c1d2e3f4a5b';
const HEADERS = { authorization: `Bearer ${KEY}`, 'x-lookout-account': ACCOUNT };
const LIMIT = 8;
/** Far above the server's Redis command timeout (1.5 s; a killed Redis fails commands at once) and far below the seconds a request waited before. */
const ANSWER_BOUND_MS = 4_000;

/** Resolves when the process prints a line matching `pattern` from now on (or already has, `count` times). */
function logged(server: SpawnedServer, pattern: RegExp, count = 1): Promise<void> {
  const seen = () => server.output().split('\n').filter((l) => pattern.test(l)).length >= count;
  if (seen()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onData = () => {
      if (!seen()) return;
      server.child.stdout!.off('data', onData);
      resolve();
    };
    server.child.stdout!.on('data', onData);
    void server.exited.then(() => reject(new Error(`exited before printing ${pattern}:\n${server.output()}`)));
  });
}

/** An open SSE stream of maintenanceUpdated events; `next` resolves with the next one of `name`. */
async function openStream(server: SpawnedServer): Promise<{ waitFor(name: string): Promise<void>; close(): Promise<void> }> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/v1/events/stream?types=maintenanceUpdated`, { headers: HEADERS, signal: controller.signal });
  expect(res.status).toBe(200);
  const names: string[] = [];
  const waiters = new Set<() => void>();
  void readSseData(res.body!, (data) => {
    names.push((data as { maintenance?: { name?: string } }).maintenance?.name ?? '');
    for (const w of [...waiters]) w();
  }).catch(() => {});
  return {
    waitFor: (name) => new Promise((resolve) => {
      const check = () => {
        if (!names.includes(name)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    }),
    async close() {
      controller.abort();
    },
  };
}

async function createMaintenance(server: SpawnedServer, name: string): Promise<void> {
  const startsAt = new Date(Date.now() + 24 * 3600_000).toISOString();
  const endsAt = new Date(Date.now() + 25 * 3600_000).toISOString();
  const res = await answersWithin(fetch(`${server.url}/v1/maintenance-windows`, {
    method: 'POST', headers: { ...HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ name, startsAt, endsAt }),
  }), ANSWER_BOUND_MS, `creating maintenance ${name}`);
  expect(res.status).toBe(201);
}

describe.skipIf(!redisAvailable)('a Redis outage under two processes', { timeout: 120_000 }, () => {
  let port: number;
  let redis: ChildProcess;
  let dirs: string[] = [];
  let a: SpawnedServer;
  let b: SpawnedServer;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    dirs = await Promise.all([1, 2].map(() => mkdtemp(path.join(tmpdir(), 'lookout-redis-outage-'))));
    const env = (dir: string) => ({
      REDIS_URL: `redis://127.0.0.1:${port}`, LOOKOUT_DATA_DIR: dir, LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT,
      LOOKOUT_RUNNER: 'off', LOOKOUT_RATE_LIMIT: String(LIMIT),
    });
    [a, b] = await Promise.all([spawnServer(env(dirs[0]!)), spawnServer(env(dirs[1]!))]);
  });

  afterAll(async () => {
    for (const s of [a, b]) {
      if (!s) continue;
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await s.exited;
    }
    if (redis) await stopRedis(redis);
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('answers without waiting on Redis, keeps limiting and delivering locally, and crosses processes again once Redis is back', async () => {
    const onB = await openStream(b);
    const onA = await openStream(a);
    try {
      // Up: a write in A reaches B's stream through Redis (once B listens on the channel).
      await until(async () => {
        await createMaintenance(a, 'before');
        return answersWithin(onB.waitFor('before').then(() => true), 1_000, 'B hearing of it').catch(() => false);
      }, 'an event of A to reach B');

      const killed = once(redis, 'exit');
      redis.kill('SIGKILL');
      await killed;
      await Promise.all([a, b].map((s) => until(async () => (await fetch(`${s.url}/health/ready`)).status === 503, 'readiness to report Redis down')));

      // Down: every request answers within the bound, and the per-process budget still runs out.
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) {
        const res = await answersWithin(fetch(`${a.url}/v1/checks`, { headers: HEADERS }), ANSWER_BOUND_MS, `GET /v1/checks #${i + 1} while Redis is down`);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
      const graphql = await answersWithin(fetch(`${a.url}/graphql`, {
        method: 'POST', headers: { ...HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }),
      }), ANSWER_BOUND_MS, 'a GraphQL query while Redis is down');
      expect(graphql.status).toBe(200);
      // A write answers and its event reaches subscribers of the same process.
      await createMaintenance(a, 'during');
      await onA.waitFor('during');

      redis = await startRedis(port);
      await Promise.all([a, b].map((s) => logged(s, /Redis \(event bus subscriber\) connected/, 2)));
      await until(async () => {
        await createMaintenance(a, 'after');
        return answersWithin(onB.waitFor('after').then(() => true), 1_000, 'B hearing of it').catch(() => false);
      }, 'an event of A to reach B after Redis is back');
    } finally {
      await Promise.all([onA.close(), onB.close()]);
    }
  });
});
