import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('health endpoints', () => {
  let api: TestServer;
  let all: TestServer;
  beforeAll(async () => {
    [api, all] = await Promise.all([
      startTestServer(),
      startTestServer({ config: { runnerEnabled: true, ...(process.env.TEST_REDIS_URL ? { redisUrl: process.env.TEST_REDIS_URL } : {}) } }),
    ]);
  });
  afterAll(async () => Promise.all([api?.close(), all?.close()]));

  it.each([
    ['an API-only process', () => api, { status: 'ok', role: 'api', scheduler: 'off' }],
    ['a runner process of an embedded store (always the leader)', () => all, { status: 'ok', role: 'all', scheduler: 'leader' }],
  ])('GET /health says what %s does, without an API key', async (_what, server, expected) => {
    const res = await server().raw('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected);
  });

  it('GET /health/ready checks the database, and Redis when the process uses it', async () => {
    const res = await all.raw('GET', '/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', ...(process.env.TEST_REDIS_URL ? { redis: 'ok' } : {}) } });
  });
});
