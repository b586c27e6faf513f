import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryEventBus } from '../../src/events/create-memory-event-bus.js';
import { createSessionLeases, type SessionResumer } from '../../src/service/create-session-leases.js';
import { createTestSessionRunService } from '../../src/service/test-session-run-service.js';
import { createStore, type Store, type StoreOptions } from '../../src/store/create-store.js';
import type { TestSessionCheckEntry } from '../../src/store/test-sessions-repository.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';

const logger = pino({ level: 'silent' });

describe.each(BACKENDS)('test session leases ($name)', (backend) => {
  let options: StoreOptions;
  let store: Store;
  // A second connection pool on the same database: another process, as far as PostgreSQL can tell.
  let other: Store;
  let accountId: string;
  beforeAll(async () => {
    options = backend.options();
    store = await createStore(options);
    other = backend.name === 'postgres' ? await createStore(options) : store;
    accountId = (await store.accounts.create({ name: 'Sessions' })).id;
  });
  afterAll(async () => {
    if (other !== store) await other?.close();
    await store?.close();
    await backend.cleanup(options);
  });

  async function session(lease?: { owner: string; ms: number }, extra: { kind?: 'trigger' | 'run'; job?: Record<string, unknown>; results?: TestSessionCheckEntry[] } = {}): Promise<string> {
    const id = randomUUID();
    const results = extra.results ?? [];
    await store.testSessions.insert({
      id, account_id: accountId, name: 's', status: 'RUNNING', run_location: null, environment: null, check_ids: results.map((e) => e.checkId), results, kind: extra.kind, job: extra.job,
    }, lease);
    return id;
  }
  const expire = (id: string) => store.db.query(`UPDATE test_sessions SET lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
  const status = async (id: string) => (await store.testSessions.get(accountId, id))!.status;
  /** Resumers that only note which sessions they were handed. */
  const noting = (into: string[]): Record<'trigger' | 'run', SessionResumer> => ({
    trigger: async (s) => void into.push(s.id),
    run: async (s) => void into.push(s.id),
  });

  it('takes over only the running sessions whose process is gone (lease run out, or never leased), leased to itself', async () => {
    const live = await session({ owner: 'alive', ms: 60_000 });
    const dead = await session({ owner: 'dead', ms: 60_000 });
    const old = await session();
    await expire(dead);
    const leases = createSessionLeases({ store, logger, claimLimit: 1000 });
    expect(await leases.sweep()).toBe(0); // resumes nothing until told how
    const resumed: string[] = [];
    await leases.resumeWith(noting(resumed));
    expect(resumed).toEqual(expect.arrayContaining([dead, old]));
    expect(resumed).not.toContain(live);
    expect([await status(live), await status(dead), await status(old)]).toEqual(['RUNNING', 'RUNNING', 'RUNNING']);
    const [row] = await store.db.query<{ runner_id: string; held: boolean }>(`SELECT runner_id, lease_until > now() AS held FROM test_sessions WHERE id = $1`, [dead]);
    expect(row).toEqual({ runner_id: leases.lease.owner, held: true });
    leases.close();
  });

  it('of two processes sweeping at once, exactly one resumes each abandoned session', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await session({ owner: 'dead', ms: 60_000 }));
    await store.db.query(`UPDATE test_sessions SET lease_until = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [ids]);
    const byA: string[] = [];
    const byB: string[] = [];
    const a = createSessionLeases({ store, logger, claimLimit: 1000 });
    const b = createSessionLeases({ store: other, logger, claimLimit: 1000 });
    await Promise.all([a.resumeWith(noting(byA)), b.resumeWith(noting(byB))]);
    const mine = (xs: string[]) => xs.filter((x) => ids.includes(x));
    expect([...mine(byA), ...mine(byB)].sort()).toEqual([...ids].sort());
    expect(mine(byA).filter((x) => byB.includes(x))).toEqual([]);
    // Claimed sessions are leased again: a further sweep finds nothing of them.
    expect(mine(await sweepNoting(a)).length + mine(await sweepNoting(b)).length).toBe(0);
    a.close();
    b.close();
  });

  async function sweepNoting(leases: ReturnType<typeof createSessionLeases>): Promise<string[]> {
    const seen: string[] = [];
    await leases.resumeWith(noting(seen));
    return seen;
  }

  it('keeps the sessions it holds alive by renewing their leases', async () => {
    const leases = createSessionLeases({ store, logger, leaseMs: 60_000, renewMs: 20 });
    const id = await session(leases.lease);
    leases.hold(id);
    await store.db.query(`UPDATE test_sessions SET lease_until = now() + interval '1 second' WHERE id = $1`, [id]);
    const renewed = async () => (await store.db.query<{ far: boolean }>(`SELECT lease_until > now() + interval '30 seconds' AS far FROM test_sessions WHERE id = $1`, [id]))[0]!.far;
    leases.start();
    // Renewed on the next tick; waits for that write, not for time.
    for (let i = 0; i < 500 && !(await renewed()); i++) await new Promise((r) => setImmediate(r));
    leases.close();
    expect(await renewed()).toBe(true);
    expect(await status(id)).toBe('RUNNING');
  });

  it('ends FAILED, with the reason, a `checkly test` session whose submitted checks are gone; finished entries keep their results', async () => {
    const entry = (status: TestSessionCheckEntry['status']): TestSessionCheckEntry => ({
      checkId: randomUUID(), name: status, checkType: 'API', status, resultIds: status === 'PASSED' ? [randomUUID()] : [], sequenceId: randomUUID(),
    });
    const results = [entry('PASSED'), entry('RUNNING')];
    const id = await session({ owner: 'dead', ms: 60_000 }, { kind: 'run', results });
    await expire(id);
    const leases = createSessionLeases({ store, logger, claimLimit: 1000 });
    const runs = createTestSessionRunService({ store, bus: createMemoryEventBus({ logger }), logger, publicUrl: 'http://lookout.test', executors: {}, publish: async () => {}, leases });
    const refuse: SessionResumer = async () => { throw new Error('not this kind'); };
    await leases.resumeWith({ trigger: refuse, run: (s) => runs.resume(s) });
    const row = (await store.testSessions.get(accountId, id))!;
    expect(row.status).toBe('FAILED');
    expect(row.stopped_at).not.toBeNull();
    expect(row.results.map((e) => [e.status, e.resultIds])).toEqual([['PASSED', results[0]!.resultIds], ['FAILED', []]]);
    expect(row.end_error).toMatchObject({ code: 'NOT_RESUMABLE' });
    expect(await runs.scheduling(accountId, id)).toMatchObject({ status: 'FAILED', error: { code: 'NOT_RESUMABLE' } });
    await runs.close();
    leases.close();
  });
});

const url = process.env.TEST_DATABASE_URL;
if (!url) console.info('session-leases: the multi-process cases are skipped (need TEST_DATABASE_URL)');

const KEY = 'lo_session_resume_key_0123456789abcdef';
const ACCOUNT = '7c1d3f0a-52e4-4b9e-8d61-0f3a9c2b7e41';
const SECRET = `s3cret-${randomBytes(6).toString('hex')}`;

/**
 * `lookout serve` processes on one PostgreSQL: the process running a session dies (SIGKILL) or
 * restarts (SIGTERM), and the session is resumed elsewhere and completes, each check with exactly
 * one FINAL result.
 */
describe.skipIf(!url)('test sessions outlive the process running them (PostgreSQL, child processes)', { timeout: 120_000 }, () => {
  const schema = `resume_${randomBytes(5).toString('hex')}`;
  const servers: SpawnedServer[] = [];
  let env: Record<string, string>;
  let target: HttpTarget;
  let db: pg.Client;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(`CREATE SCHEMA "${schema}"`);
    await db.query(`SET search_path TO "${schema}"`);
    const u = new URL(url!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    env = { DATABASE_URL: u.toString(), LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT };
    target = await startHttpTarget();
  });

  afterAll(async () => {
    for (const s of servers) {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await s.exited;
    }
    await target?.close();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.end();
  });

  async function start(role: 'api' | 'runner'): Promise<SpawnedServer> {
    const s = await spawnServer({ ...env, LOOKOUT_ROLE: role });
    servers.push(s);
    return s;
  }
  async function api(server: SpawnedServer, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; body: any }> {
    const res = await fetch(`${server.url}${path}`, {
      method, headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : null };
  }
  /** Resolves once the target got a request for each of `paths`. */
  function requested(paths: string[]): Promise<void> {
    const left = new Set(paths);
    return new Promise((resolve) => {
      const on = (r: { path: string }) => {
        left.delete(r.path);
        if (left.size > 0) return;
        target.events.off('request', on);
        resolve();
      };
      target.events.on('request', on);
    });
  }
  async function session(id: string) {
    const [row] = (await db.query(`SELECT status, results, job, end_error FROM test_sessions WHERE id = $1`, [id])).rows;
    return row as { status: string; results: TestSessionCheckEntry[]; job: unknown; end_error: unknown };
  }
  /** Polls the database until the session has ended; how long it takes is up to the lease. */
  async function ended(id: string): Promise<Awaited<ReturnType<typeof session>>> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const row = await session(id);
      if (row.status !== 'RUNNING') return row;
      if (Date.now() > deadline) throw new Error(`session ${id} still RUNNING: ${JSON.stringify(row.results)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** FINAL results per check of a session: deployed checks' and submitted checks'. */
  async function finalsPerCheck(id: string): Promise<Record<string, number>> {
    const { rows } = await db.query<{ check_id: string; n: number }>(
      `SELECT check_id::text, count(*)::int AS n FROM check_results WHERE test_session_id = $1 AND result_type = 'FINAL' GROUP BY check_id
       UNION ALL
       SELECT result->>'checkId', count(*)::int FROM test_session_run_results WHERE test_session_id = $1 AND result->>'resultType' = 'FINAL' GROUP BY result->>'checkId'`,
      [id],
    );
    return Object.fromEntries(rows.map((r) => [r.check_id, r.n]));
  }
  function expectOneFinalEach(row: { results: TestSessionCheckEntry[] }, finals: Record<string, number>) {
    expect(row.results.map((e) => e.status)).toEqual(row.results.map(() => 'PASSED'));
    expect(row.results.map((e) => e.resultIds.length)).toEqual(row.results.map(() => 1));
    expect(row.results.map((e) => finals[e.checkId])).toEqual(row.results.map(() => 1));
  }

  it('kill -9 of the process running sessions mid-run: another process resumes them, they pass with one FINAL result per check', async () => {
    const a = await start('api');
    const check = await api(a, 'POST', '/v1/checks/api', { name: 'Slow deployed', request: { url: `${target.http.url}/delay/3001`, method: 'GET' } });
    expect(check.status, check.text).toBe(201);
    const inFlight = requested(['/delay/3001', '/delay/3002']);
    const triggered = await api(a, 'POST', '/v1/test-sessions/trigger', { checkIds: [check.body.id], runLocation: 'eu-west-1' });
    expect(triggered.status, triggered.text).toBe(201);
    const submitted = await api(a, 'POST', '/v1/test-sessions/run', {
      name: 'submitted',
      checkRunJobs: [{
        checkType: 'API', logicalId: 'slow', name: 'Slow submitted', request: { url: `${target.http.url}/delay/3002`, method: 'GET' },
        environmentVariables: [{ key: 'TOKEN', value: SECRET, secret: true }],
      }],
    });
    expect(submitted.status, submitted.text).toBe(202);
    const ids = [triggered.body.id as string, submitted.body.testSessionId as string];
    await inFlight;
    // What was submitted is kept for another process, secret included, but no view shows it.
    expect(JSON.stringify((await session(ids[1]!)).job)).toContain(SECRET);
    for (const path of ['/v1/test-sessions', `/v1/test-sessions/${ids[1]}`]) expect((await api(a, 'GET', path)).text).not.toContain(SECRET);

    a.child.kill('SIGKILL');
    await a.exited;
    const b = await start('runner');
    for (const id of ids) {
      const row = await ended(id);
      expect(row.status, JSON.stringify(row)).toBe('PASSED');
      expectOneFinalEach(row, await finalsPerCheck(id));
      expect(row.job).toBeNull(); // dropped, with its secrets, once the session ended
      expect(b.output()).toContain(id);
    }
  });

  it('restarting an API process (SIGTERM, start again) leaves its running session running, and it completes', async () => {
    await start('runner');
    let a = await start('api');
    // More checks than a session runs at once (5): SIGTERM comes with one not started yet.
    const paths = [0, 1, 2, 3, 4, 5].map((i) => `/delay/${2000 + i}`);
    const firstFive = requested(paths.slice(0, 5));
    const started = await api(a, 'POST', '/v1/test-sessions/run', {
      name: 'restart',
      checkRunJobs: paths.map((p, i) => ({ checkType: 'API', logicalId: `c${i}`, name: `Check ${i}`, request: { url: `${target.http.url}${p}`, method: 'GET' } })),
    });
    expect(started.status, started.text).toBe(202);
    const id = started.body.testSessionId as string;
    await firstFive;

    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(['RUNNING', 'PASSED']).toContain((await session(id)).status);
    a = await start('api');
    const row = await ended(id);
    const done = await api(a, 'GET', `/v1/test-sessions/${id}`);
    expect(done.body.status, done.text).toBe('PASSED');
    expectOneFinalEach(row, await finalsPerCheck(id));
    expect(servers.some((s) => s !== a && /resuming a test session/.test(s.output()) && s.output().includes(id))).toBe(true);
  });
});
