import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookout, type Lookout } from '../../src/main.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Two API processes of one installation (one PostgreSQL, one Redis) hold one rate-limit budget per
 * account and route: a client spreading its requests over both gets no more than the limit.
 */
const postgres = BACKENDS.find((b) => b.name === 'postgres');
const redisUrl = process.env.TEST_REDIS_URL;
if (!postgres || !redisUrl) console.info('rate-limit-across-processes: skipped (needs TEST_DATABASE_URL and TEST_REDIS_URL)');

describe.skipIf(!postgres || !redisUrl)('rate limits across processes (PostgreSQL and Redis)', () => {
  const LIMIT = 6;
  let first: TestServer;
  let second: Lookout;
  let secondUrl: string;

  beforeAll(async () => {
    first = await startTestServer({ backend: postgres!, config: { redisUrl, rateLimitMax: LIMIT } });
    second = await createLookout({
      config: { port: 0, host: '127.0.0.1', rateLimitMax: LIMIT, runnerEnabled: false, redisUrl, bootstrapAccountId: undefined, bootstrapApiKey: undefined },
      storeOptions: first.storeOptions,
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    });
    secondUrl = (await second.listen()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts an account\'s requests on either process against one budget', async () => {
    const headers = { authorization: `Bearer ${first.a.apiKey}`, 'x-lookout-account': first.a.accountId };
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const url = (i % 2 === 0 ? first.url : secondUrl) + '/v1/checks';
      statuses.push((await fetch(url, { headers })).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    // Another account's budget is its own.
    expect((await first.b.request('GET', '/v1/checks')).status).toBe(200);
  });
});
