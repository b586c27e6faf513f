import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(BACKENDS)('one custom domain serves one thing ($name)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const host = () => `status-${randomUUID().slice(0, 8)}.example.com`;
  const page = (client: TestServer['a'], customDomain: string) =>
    client.request('POST', '/v1/status-pages', { name: 'Page', url: `p-${randomUUID().slice(0, 8)}`, cards: [], customDomain });
  const dashboard = (client: TestServer['a'], customDomain: string) =>
    client.request('POST', '/v1/dashboards', { customUrl: `d-${randomUUID().slice(0, 8)}`, customDomain });

  it.each([
    ['a status page', 'a dashboard of the same account', 'a', page, dashboard],
    ['a status page', 'a dashboard of another account', 'b', page, dashboard],
    ['a dashboard', 'a status page of the same account', 'a', dashboard, page],
    ['a dashboard', 'a status page of another account', 'b', dashboard, page],
  ] as const)('refuses %s on a host %s is served on, with 409 naming customDomain', async (_first, _second, who, claim, collide) => {
    const domain = host();
    expect((await claim(s.a, domain)).status).toBe(201);
    const res = await collide(who === 'a' ? s.a : s.b, domain.toUpperCase());
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, attributes: { key: 'customDomain' } });
  });
});
