import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The scheduler follows every committed change, also one committed by a transaction that began
 * before the scheduler last looked (issue 12's watermark race). PostgreSQL only: a transaction
 * held open from a second connection is what PGlite's single connection cannot have.
 */
const postgres = BACKENDS.find((b) => b.name === 'postgres');
if (!postgres) console.info('scheduler-follows-commits: skipped (needs TEST_DATABASE_URL)');

describe.skipIf(!postgres)('the scheduler follows committed changes (PostgreSQL)', () => {
  let s: TestServer;
  let client: pg.Client;

  beforeAll(async () => {
    s = await startTestServer({ backend: postgres!, config: { runnerEnabled: true } });
    client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await client.query(`SET search_path TO "${s.storeOptions.schema}"`);
  });

  afterAll(async () => {
    await client?.end();
    await s?.close();
  });

  it('stops a check turned off by a transaction that was open across several refreshes', async () => {
    const created = await s.a.request('POST', '/v1/checks/tcp', { name: 'Slow writer', frequency: 1440, locations: ['eu-west-1'], request: { hostname: '127.0.0.1', port: 9 } });
    expect(created.status, created.text).toBe(201);
    const scheduler = s.lookout.runner.scheduler;
    await scheduler.refresh();
    expect(scheduler.stats().scheduled).toBe(1);

    await client.query('BEGIN');
    // A long transaction: its rows carry its start time, a minute before the commit.
    await client.query(
      `UPDATE checks SET data = jsonb_set(data, '{activated}', 'false'), updated_at = now() - interval '1 minute' WHERE id = $1`,
      [created.body.id],
    );
    await scheduler.refresh();
    await scheduler.refresh();
    expect(scheduler.stats().scheduled).toBe(1);
    await client.query('COMMIT');

    await scheduler.refresh();
    expect(scheduler.stats().scheduled).toBe(0);
  });
});
