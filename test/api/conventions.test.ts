import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('wire conventions', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { bodyLimit: 64 * 1024 } });
  });
  afterAll(async () => s?.close());

  describe('authentication', () => {
    it.each([
      ['no Authorization header', {}],
      ['a non-Bearer scheme', { authorization: 'Basic abc' }],
      ['an unknown key', { authorization: 'Bearer lo_unknown_key_0000' }],
      ['an empty bearer', { authorization: 'Bearer ' }],
    ])('answers 401 for %s', async (_n, headers) => {
      const res = await s.raw('GET', '/v1/checks', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      expect(typeof res.body.message).toBe('string');
    });

    it.each(['X-Lookout-Account', 'X-Service-Account', 'X-Checkly-Account'])(
      'answers 403 when %s names another account than the key\'s',
      async (header) => {
        const res = await s.raw('GET', '/v1/checks', { headers: { authorization: `Bearer ${s.a.apiKey}`, [header]: s.b.accountId } });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      },
    );

    it.each(['X-Lookout-Account', 'X-Service-Account', 'X-Checkly-Account'])('accepts %s naming the key\'s own account', async (header) => {
      const res = await s.raw('GET', '/v1/checks', { headers: { authorization: `Bearer ${s.a.apiKey}`, [header]: s.a.accountId } });
      expect(res.status).toBe(200);
    });

    it('uses the key\'s account when no account header is sent, and ignores informational headers', async () => {
      const res = await s.raw('GET', '/v1/checks', { headers: { authorization: `Bearer ${s.a.apiKey}`, 'x-checkly-source': 'CLI', 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
    });

    it('stores API keys only as hashes', async () => {
      const rows = await s.lookout.store.db.query<{ key_hash: string; masked_key: string }>('SELECT key_hash, masked_key FROM api_keys');
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(s.a.apiKey);
      expect(dump).not.toContain(s.b.apiKey);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
    });
  });

  describe('errors', () => {
    it('answers an unknown route with 404 in the error shape', async () => {
      const res = await s.a.request('GET', '/v1/unknown-thing');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    });

    it.each(['{', '{"name": }', 'not json', '[1,', '{"__proto__": {"x": 1}}', '{"name": "nul\\u0000", "request": {"url": "https://x.test"}}'])('answers 400, never 500, for the body %j', async (body) => {
      const res = await s.a.request('POST', '/v1/checks/api', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });

    it('answers 413 for an oversize body', async () => {
      const res = await s.a.request('POST', '/v1/checks/browser', { name: 'big', script: 'x'.repeat(70 * 1024) });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    });

    it('answers 415 for a body that is not JSON', async () => {
      const res = await s.a.request('POST', '/v1/checks/api', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ statusCode: 415 });
    });

    it('accepts Content-Type: application/json with an empty body on GET and DELETE', async () => {
      const created = await s.a.request('POST', '/v1/checks/tcp', { name: 'T', request: { hostname: 'h', port: 1 } });
      const get = await s.a.request('GET', `/v1/checks/${created.body.id}`, undefined, { 'content-type': 'application/json' });
      expect(get.status).toBe(200);
      const del = await s.a.request('DELETE', `/v1/checks/${created.body.id}`, '', { 'content-type': 'application/json' });
      expect(del.status).toBe(204);
    });
  });

  describe('specification documents', () => {
    it('serves /openapi.json describing the routes, without authentication', async () => {
      const res = await s.raw('GET', '/openapi.json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toMatch(/^3\./);
      expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/v1/checks', '/v1/checks/dns/{id}', '/v1/checks/browser', '/v2/check-groups/{id}']));
      expect(res.body.paths['/v1/checks/browser'].post.requestBody).toBeDefined();
    });

    it('serves /swagger.json with a deprecation header', async () => {
      const res = await s.raw('GET', '/swagger.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('deprecation')).toBe('true');
      expect(res.headers.get('link')).toContain('/openapi.json');
    });
  });
});

describe('rate limits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { rateLimitMax: 3 } });
  });
  afterAll(async () => s?.close());

  it('answers 429 with Retry-After and attributes once a route\'s budget for the account is spent', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await s.a.request('GET', '/v1/checks')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const res = await s.a.request('GET', '/v1/checks');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', attributes: { limit: 3, window: 60 } });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts each route and each account separately', async () => {
    expect((await s.a.request('GET', '/v1/check-groups')).status).toBe(200);
    expect((await s.b.request('GET', '/v1/checks')).status).toBe(200);
  });
});
