import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Runs `work(i)` for i below `n`, `width` at a time. */
async function inBatches(n: number, width: number, work: (i: number) => Promise<void>) {
  for (let start = 0; start < n; start += width) await Promise.all(Array.from({ length: Math.min(width, n - start) }, (_, k) => work(start + k)));
}

describe('the public status page cache', () => {
  let s: TestServer;
  let slug: string;
  let pageId: string;
  const domain = `cached-${randomUUID().slice(0, 8)}.example.test`;

  beforeAll(async () => {
    s = await startTestServer();
    const service = (await s.a.request('POST', '/v1/status-pages/services', { name: 'API' })).body.id as string;
    slug = `cached-${randomUUID().slice(0, 8)}`;
    const res = await s.a.request('POST', '/v1/status-pages', { name: 'Cached', url: slug, customDomain: domain, cards: [{ name: 'All', services: [{ id: service }] }] });
    expect(res.status).toBe(201);
    pageId = res.body.id;
  });
  afterAll(async () => s?.close());

  it('stays bounded under 1,500 requests with distinct Host headers, for one page or for none', async () => {
    const get = async (path: string, host: string) => {
      const res = await request(`${s.url}${path}`, { headers: { host } });
      await res.body.text();
      return res.statusCode;
    };
    await inBatches(500, 25, async (i) => {
      // The page by its path, each request naming another Host; the page by its domain (any case, any
      // port); and hosts that are no page at all.
      expect(await get(`/status/${slug}/api/v2/summary.json`, `visitor-${i}.example.test`)).toBe(200);
      expect(await get('/api/v2/summary.json', `${i % 2 ? domain.toUpperCase() : domain}:${1000 + i}`)).toBe(200);
      expect(await get('/api/v2/summary.json', `nobody-${i}.example.test`)).not.toBe(200);
    });
    const size = s.lookout.publicStatusPages.cacheSize();
    expect(size.pages).toBe(1);
    expect(size.aliases).toBe(2);
    // The model and the few documents rendered from it (one summary per scheme at most), not one per Host.
    expect(size.values).toBeLessThanOrEqual(4);
    const summary = await request(`${s.url}/status/${slug}/api/v2/summary.json`, { headers: { host: 'attacker.example.test' } });
    const body = await summary.body.json() as { page: { id: string; url: string } };
    expect(body.page.id).toBe(pageId);
    expect(body.page.url).not.toContain('attacker.example.test');
  });
});
