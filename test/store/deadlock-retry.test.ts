import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/create-store.js';
import type { Queryable } from '../../src/store/db.js';
import { BACKENDS, openTestStore } from '../support/backends.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const postgres = BACKENDS.find((b) => b.name === 'postgres');
if (!postgres) console.warn('skipping the deadlock tests: TEST_DATABASE_URL is not set (PGlite runs one transaction at a time)');

/** Resolves once `n` parties have arrived: each party's await returns when the last one comes. */
function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++arrived === n) open();
    await opened;
  };
}

describe.skipIf(!postgres)('deadlocks and serialization failures on PostgreSQL', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(postgres!);
    await store.db.exec('CREATE TABLE deadlock_pair (id int PRIMARY KEY, n int NOT NULL); INSERT INTO deadlock_pair VALUES (1, 0), (2, 0)');
  });
  afterAll(async () => store?.close());

  it('runs a transaction that PostgreSQL chose as the deadlock victim again, so both commit', async () => {
    const bothLocked = barrier(2);
    const attempts = { a: 0, b: 0 };
    // Each locks one row, waits until the other holds its row, then wants the other's: a deadlock on the first attempt.
    const crossing = (name: 'a' | 'b', first: number, second: number) => store.db.transaction(async (tx: Queryable) => {
      attempts[name]++;
      await tx.query('UPDATE deadlock_pair SET n = n + 1 WHERE id = $1', [first]);
      if (attempts[name] === 1) await bothLocked();
      await tx.query('UPDATE deadlock_pair SET n = n + 1 WHERE id = $1', [second]);
      return name;
    });
    await expect(Promise.all([crossing('a', 1, 2), crossing('b', 2, 1)])).resolves.toEqual(['a', 'b']);
    expect(attempts.a + attempts.b).toBe(3);
    const rows = await store.db.query<{ n: number }>('SELECT n FROM deadlock_pair ORDER BY id');
    expect(rows.map((r) => r.n)).toEqual([2, 2]);
  });

  it('gives up after a bounded number of attempts, answering the conflict', async () => {
    let attempts = 0;
    const always = store.db.transaction(async () => {
      attempts++;
      throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
    });
    await expect(always).rejects.toMatchObject({ code: '40001' });
    expect(attempts).toBeGreaterThan(1);
    expect(attempts).toBeLessThan(10);
  });
});

describe.skipIf(!postgres)('deleting a check right after running it on PostgreSQL', { timeout: 120_000 }, () => {
  let server: TestServer;
  let target: HttpTarget;
  beforeAll(async () => {
    // The runner makes this process the alerting leader: each failed run is judged while the check is deleted.
    [server, target] = await Promise.all([startTestServer({ backend: postgres!, config: { runnerEnabled: true } }), startHttpTarget()]);
  });
  afterAll(async () => Promise.all([server?.close(), target?.close()]));

  it('never answers 500, however the delete and the alerting transaction meet', async () => {
    const deletes: number[] = [];
    for (let i = 0; i < 30; i++) {
      const check = await server.a.request('POST', '/v1/checks/api', {
        name: `Deleted after its run ${i}`, locations: ['eu-west-1'], frequency: 1440,
        request: { url: `${target.http.url}/status/500`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
        useGlobalAlertSettings: false,
        alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 } },
      });
      expect(check.status).toBe(201);
      const run = await server.a.request('POST', `/v1/checks/${check.body.id}/run`);
      expect(run.status).toBe(200);
      deletes.push((await server.a.request('DELETE', `/v1/checks/${check.body.id}`)).status);
    }
    expect(deletes.filter((s) => s !== 204)).toEqual([]);
  });
});
