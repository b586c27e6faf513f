import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookout } from '../src/main.js';
import { createSessionLeases } from '../src/service/create-session-leases.js';
import type { Store } from '../src/store/create-store.js';
import { BACKENDS, openTestStore } from './support/backends.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const logger = pino({ level: 'silent' });

describe.each(BACKENDS)('test session leases ($name)', (backend) => {
  let store: Store;
  let accountId: string;
  beforeAll(async () => {
    store = await openTestStore(backend);
    accountId = (await store.accounts.create({ name: 'Sessions' })).id;
  });
  afterAll(async () => store?.close());

  async function session(lease?: { owner: string; ms: number }): Promise<string> {
    const id = randomUUID();
    await store.testSessions.insert({ id, account_id: accountId, name: 's', status: 'RUNNING', run_location: null, environment: null, check_ids: [], results: [] }, lease);
    return id;
  }
  const status = async (id: string) => (await store.testSessions.get(accountId, id))!.status;

  it('cancels only the running sessions whose process is gone: lease run out, or never leased', async () => {
    const live = await session({ owner: 'alive', ms: 60_000 });
    const dead = await session({ owner: 'dead', ms: 60_000 });
    const old = await session();
    await store.db.query(`UPDATE test_sessions SET lease_until = now() - interval '1 second' WHERE id = $1`, [dead]);
    const leases = createSessionLeases({ store, logger });
    expect(await leases.sweep()).toBeGreaterThanOrEqual(2);
    expect([await status(live), await status(dead), await status(old)]).toEqual(['RUNNING', 'CANCELLED', 'CANCELLED']);
  });

  it('keeps the sessions it holds alive by renewing their leases', async () => {
    const leases = createSessionLeases({ store, logger, leaseMs: 60_000, renewMs: 20 });
    const id = await session(leases.lease);
    leases.hold(id);
    await store.db.query(`UPDATE test_sessions SET lease_until = now() + interval '1 second' WHERE id = $1`, [id]);
    const renewed = async () => (await store.db.query<{ far: boolean }>(`SELECT lease_until > now() + interval '30 seconds' AS far FROM test_sessions WHERE id = $1`, [id]))[0]!.far;
    await leases.start();
    // Renewed on the next tick; waits for that write, not for time.
    for (let i = 0; i < 500 && !(await renewed()); i++) await new Promise((r) => setImmediate(r));
    leases.close();
    expect(await renewed()).toBe(true);
    expect(await status(id)).toBe('RUNNING');
  });
});

const postgres = BACKENDS.find((b) => b.name === 'postgres');
if (!postgres) console.info('session-leases: the two-process case is skipped (needs TEST_DATABASE_URL)');

describe.skipIf(!postgres)('a process start and the test sessions of other processes (PostgreSQL)', () => {
  let first: TestServer;
  beforeAll(async () => { first = await startTestServer({ backend: postgres! }); });
  afterAll(async () => first?.close());

  it('leaves running the sessions a live process runs, and cancels those of a process that died', async () => {
    const store = first.lookout.store;
    const insert = async (lease: { owner: string; ms: number }) => {
      const id = randomUUID();
      await store.testSessions.insert({ id, account_id: first.a.accountId, name: 'ci', status: 'RUNNING', run_location: null, environment: null, check_ids: [], results: [] }, lease);
      return id;
    };
    const running = await insert({ owner: 'live-process', ms: 60_000 });
    const orphaned = await insert({ owner: 'dead-process', ms: 60_000 });
    await store.db.query(`UPDATE test_sessions SET lease_until = now() - interval '1 second' WHERE id = $1`, [orphaned]);

    const second = await createLookout({
      config: { port: 0, host: '127.0.0.1', runnerEnabled: false, bootstrapAccountId: undefined, bootstrapApiKey: undefined },
      storeOptions: first.storeOptions, logger,
    });
    try {
      const statusOf = async (id: string) => (await first.a.request('GET', `/v1/test-sessions/${id}`)).body.status;
      expect(await statusOf(running)).toBe('RUNNING');
      expect(await statusOf(orphaned)).toBe('CANCELLED');
    } finally {
      await second.close();
    }
  });
});
