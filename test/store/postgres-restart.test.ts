import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from '../support/postgres-server.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/until.js';

const KEY = 'lo_pg_restart_test_key_0123456789abcdef';
const ACCOUNT = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

const unavailable = ownPostgresUnavailable();
if (unavailable) console.warn(`skipping the PostgreSQL restart tests: ${unavailable}`);

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, any>;
}

async function call(server: SpawnedServer, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { ...headers, ...extra }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

const createCheck = (server: SpawnedServer, name: string) => call(server, 'POST', '/v1/checks/api', { name, activated: false, request: { url: 'https://restart.test' } });

/** A 503 as the conventions shape it while the database is away. */
function expectDatabaseUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(answer.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', attributes: { code: 'DATABASE_UNAVAILABLE' } });
}

// Starts a PostgreSQL server and a Lookout process of its own: tens of seconds on a loaded machine.
describe.skipIf(unavailable)('a server whose PostgreSQL goes away', { timeout: 180_000 }, () => {
  let postgres: OwnPostgres;
  let server: SpawnedServer;
  beforeAll(async () => {
    postgres = await startOwnPostgres();
    // Rate limiting off: while PostgreSQL is away the writers' 503s come back fast, and a loop of them
    // would meet the per-minute budget (a 429) instead of the fault this suite is about.
    server = await spawnServer({ DATABASE_URL: postgres.url, LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT, LOOKOUT_RATE_LIMIT: '0' });
  }, 120_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await postgres?.close();
  });

  it('answers coded 503s with Retry-After on REST and GraphQL while it is stopped, not ready, and resumes after', async () => {
    expect((await createCheck(server, 'before the outage')).status).toBe(201);
    await postgres.pause();

    expectDatabaseUnavailable(await createCheck(server, 'during the outage'));
    expectDatabaseUnavailable(await call(server, 'GET', '/v1/checks'));
    const ready = await call(server, 'GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not ready');
    // Liveness still answers: the process is fine, only its database is away.
    expect((await call(server, 'GET', '/health')).status).toBe(200);
    const graphql = await call(server, 'POST', '/graphql', { query: '{ checks(first: 5) { nodes { id } } }' });
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('DATABASE_UNAVAILABLE');
    await until(async () => server.output().includes('claiming run jobs paused'), 'the runner to pause claiming');
    // The leader's own session broke: it stops scheduling while the database is away.
    await until(async () => server.output().includes('no longer scheduler leader'), 'the scheduler to stop');

    await postgres.start();
    await until(async () => (await call(server, 'GET', '/health/ready')).status === 200, 'readiness back after the start');
    expect((await createCheck(server, 'after the outage')).status).toBe(201);
    await until(async () => server.output().includes('claiming run jobs resumed'), 'the runner to resume claiming');
    await until(async () => (await call(server, 'GET', '/health')).body.scheduler === 'leader', 'the scheduler to lead again');
    expect(server.child.exitCode).toBeNull();
  });

  it('survives a fast restart and a SIGKILL of PostgreSQL under write load, keeping every acknowledged write', async () => {
    const acknowledged: string[] = [];
    const refused: Answer[] = [];
    let stop = false;
    async function writer(n: number): Promise<void> {
      for (let i = 0; !stop; i++) {
        const answer = await createCheck(server, `load ${n}.${i}`);
        if (answer.status === 201) acknowledged.push(answer.body.id as string);
        else refused.push(answer);
      }
    }
    const readiness: number[] = [];
    async function readinessProbe(): Promise<void> {
      while (!stop) readiness.push((await call(server, 'GET', '/health/ready')).status);
    }
    const load = Promise.all([writer(1), writer(2), readinessProbe()]);
    const writesAfter = async (what: string) => {
      const from = acknowledged.length;
      await until(async () => acknowledged.length >= from + 5, what, 60_000);
    };
    try {
      await writesAfter('writes before the faults');
      await postgres.restart();
      await writesAfter('writes after the fast restart');
      await postgres.killAndStart();
      await writesAfter('writes after the SIGKILL and crash recovery');
    } finally {
      stop = true;
      await load;
    }

    expect(server.child.exitCode).toBeNull();
    // Whatever was refused during the faults was refused as "retry later", never as a 500.
    for (const answer of refused) expectDatabaseUnavailable(answer);
    expect(new Set(readiness)).toEqual(new Set(readiness.filter((s) => s === 200 || s === 503)));
    // The SIGKILL leaves PostgreSQL away until a new postmaster has recovered: readiness saw it.
    expect(readiness).toContain(503);
    expect(readiness.at(-1)).toBe(200);
    for (const id of acknowledged) expect((await call(server, 'GET', `/v1/checks/${id}`)).status).toBe(200);
  });
});
