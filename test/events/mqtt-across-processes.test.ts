import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookout, type Lookout } from '../../src/main.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Two API processes of one installation (one PostgreSQL, one Redis): the real `checkly trigger`
 * sends its request to one and follows its results over MQTT on the other, as it may behind a
 * load balancer without sticky sessions.
 */
const postgres = BACKENDS.find((b) => b.name === 'postgres');
const redisUrl = process.env.TEST_REDIS_URL;
if (!postgres || !redisUrl) console.info('mqtt-across-processes: skipped (needs TEST_DATABASE_URL and TEST_REDIS_URL)');

describe.skipIf(!postgres || !redisUrl)('checkly trigger across two processes (PostgreSQL and Redis)', () => {
  let first: TestServer;
  let second: Lookout;
  let secondUrl: string;
  let target: HttpTarget;
  let home: string;
  let checkId: string;

  beforeAll(async () => {
    first = await startTestServer({ backend: postgres!, config: { redisUrl } });
    second = await createLookout({
      config: { port: 0, host: '127.0.0.1', rateLimitMax: 600, runnerEnabled: false, redisUrl, bootstrapAccountId: undefined, bootstrapApiKey: undefined },
      storeOptions: first.storeOptions,
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    });
    secondUrl = (await second.listen()).replace('[::1]', '127.0.0.1');
    target = await startHttpTarget();
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-mqtt-processes-'));
    const res = await first.a.request('POST', '/v1/checks/api', {
      name: 'Cart API', tags: ['cart'], locations: ['eu-central-1'],
      request: { url: `${target.http.url}/json`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
    expect(res.status, res.text).toBe(201);
    checkId = res.body.id;
  });

  afterAll(async () => {
    await second?.close();
    await Promise.all([first?.close(), target?.close()]);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('streams the results of a session run by one process to a CLI connected to the other', async () => {
    const r = await runChecklyCli(['trigger', '--tags', 'cart', '--test-session-name', 'across'], {
      server: { ...first, url: secondUrl }, client: first.a, home, cwd: home,
      env: { CHECKLY_MQTT_URL: `${first.url.replace(/^http/, 'ws')}/mqtt` },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Cart API');
    expect(r.stdout).toMatch(/1 passed, 1 total/);
    const sessions = (await first.a.request('GET', '/v1/test-sessions?limit=10')).body.entries as { name: string; checkIds: string[] }[];
    expect(sessions.find((s) => s.name === 'across')?.checkIds).toEqual([checkId]);
  });
});
