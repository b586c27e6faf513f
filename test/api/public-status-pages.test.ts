import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicStatusPageService } from '../../src/service/public-status-page-service.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const SERVICES = '/v1/status-pages/services';
const INCIDENTS = '/v1/status-pages/incidents';

/** A GET or POST straight to the server, with any Host header, never following redirects. */
async function call(server: TestServer, method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await request(`${server.url}${path}`, { method, headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

describe.each(BACKENDS)('public status pages ($name)', (backend) => {
  let s: TestServer;
  let api: string;
  let web: string;
  let slug: string;
  let pageId: string;

  const service = async (client: TestClient, name: string) => (await client.request('POST', SERVICES, { name })).body.id as string;
  const page = async (client: TestClient, body: Record<string, unknown>) => {
    const res = await client.request('POST', '/v1/status-pages', body);
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  const incident = async (client: TestClient, body: Record<string, unknown>) => {
    const res = await client.request('POST', INCIDENTS, { severity: 'MAJOR', incidentUpdates: [{ description: 'We are looking into it', status: 'INVESTIGATING' }], ...body });
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };

  beforeAll(async () => {
    s = await startTestServer({ backend });
    api = await service(s.a, 'Public API');
    web = await service(s.a, 'Website');
    slug = `acme-${randomUUID().slice(0, 8)}`;
    const created = await page(s.a, {
      name: 'Acme <Status>', url: slug, description: 'Live status of Acme', defaultTheme: 'DARK',
      themeColors: { light: { bodyBackgroundColor: '#FFFFFF' }, dark: { bodyBackgroundColor: '#101010' } },
      cards: [{ name: 'Core', services: [{ id: api }, { id: web }] }],
    });
    pageId = created.id;
  });
  afterAll(async () => s?.close());

  it('renders the page with its cards, every service operational and 90 uptime bars, without an API key', async () => {
    const res = await call(s, 'GET', `/status/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('Acme &lt;Status&gt;');
    expect(res.text).not.toContain('Acme <Status>');
    expect(res.text).toContain('All systems operational');
    expect(res.text).toContain('data-service-id="' + api + '" data-state="OPERATIONAL"');
    // 90 bars per service; a day without data is `<i class="n">`, titled on hover by the page script.
    expect(res.text.match(/<div class="bars"[^>]*>((?:<i[^>]*><\/i>)*)<\/div>/g)).toHaveLength(2);
    expect(res.text.match(/<i class="n"><\/i>/g)).toHaveLength(180 - 2);
    expect(res.text).toContain('--bodyBackgroundColor:#101010');
    expect(res.text).toContain(`href="/status/${slug}/feed.rss"`);
  });

  it('shows a new incident on the very next request, with its state on the affected service only', async () => {
    const before = await call(s, 'GET', `/status/${slug}`);
    const created = await incident(s.a, { name: 'API errors', services: [{ id: api }], severity: 'MEDIUM' });
    const after = await call(s, 'GET', `/status/${slug}`);
    expect(Number(after.headers['x-content-version'])).toBeGreaterThan(Number(before.headers['x-content-version']));
    expect(after.text).toContain('API errors');
    expect(after.text).toContain('Partial system outage');
    expect(after.text).toContain(`data-service-id="${api}" data-state="PARTIAL_OUTAGE"`);
    expect(after.text).toContain(`data-service-id="${web}" data-state="OPERATIONAL"`);
    await s.a.request('POST', `${INCIDENTS}/${created.id}/incident-updates`, { description: 'Fixed', status: 'RESOLVED' });
    const resolved = await call(s, 'GET', `/status/${slug}`);
    expect(resolved.text).toContain('All systems operational');
    const history = await call(s, 'GET', `/status/${slug}/history`);
    expect(history.text).toContain('API errors');
    const detail = await call(s, 'GET', `/status/${slug}/incidents/${created.id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('Fixed');
  });

  it('sends the same page brotli-compressed or gzipped to a client that takes either, and plain to one that refuses both', async () => {
    const plain = await call(s, 'GET', `/status/${slug}`);
    const bytes = async (acceptEncoding: string) => {
      const res = await request(`${s.url}/status/${slug}`, { headers: { 'accept-encoding': acceptEncoding } });
      expect(res.headers.vary).toContain('accept-encoding');
      return { encoding: res.headers['content-encoding'], body: Buffer.from(await res.body.arrayBuffer()) };
    };
    const br = await bytes('gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(plain.text);
    const gzip = await bytes('gzip, br;q=0');
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(plain.text);
    const none = await bytes('identity, gzip;q=0');
    expect(none.encoding).toBeUndefined();
    expect(none.body.toString('utf8')).toBe(plain.text);
    expect(br.body.length).toBeLessThan(gzip.body.length);
  });

  it('builds a page once per version however many requests ask for it at the same time', async () => {
    const store = s.lookout.store;
    let builds = 0;
    const counting = { ...store, statusPages: { ...store.statusPages, listCards: (id: string) => { builds++; return store.statusPages.listCards(id); } } } as Store;
    const at = new Date();
    const pages = createPublicStatusPageService({ store: counting, now: () => at });
    const open = async () => pages.model((await pages.byUrl(slug))!);
    await Promise.all(Array.from({ length: 20 }, open));
    expect(builds).toBe(1);
    await s.a.request('PUT', `${SERVICES}/${web}`, { name: 'Website' });
    await Promise.all(Array.from({ length: 20 }, open));
    expect(builds).toBe(2);
    await Promise.all(Array.from({ length: 20 }, open));
    expect(builds).toBe(2);
  });

  it('answers 304 to a visitor who has the current version', async () => {
    const first = await call(s, 'GET', `/status/${slug}`);
    const again = await call(s, 'GET', `/status/${slug}`, { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('serves Statuspage-compatible summary, status and incidents documents', async () => {
    const open = await incident(s.a, { name: 'Website slow', services: [{ id: web }], severity: 'MINOR' });
    const summary = (await call(s, 'GET', `/status/${slug}/api/v2/summary.json`)).json();
    expect(summary.page).toMatchObject({ id: pageId, name: 'Acme <Status>', time_zone: 'Etc/UTC' });
    expect(summary.status).toEqual({ indicator: 'minor', description: 'Minor Service Outage' });
    expect(summary.components).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'Core', group: true, components: [api, web] }),
      expect.objectContaining({ id: web, name: 'Website', status: 'degraded_performance', group: false }),
      expect.objectContaining({ id: api, status: 'operational' }),
    ]));
    expect(summary.incidents).toEqual([expect.objectContaining({
      id: open.id, name: 'Website slow', status: 'investigating', impact: 'minor',
      incident_updates: [expect.objectContaining({ status: 'investigating', body: 'We are looking into it' })],
      components: [{ id: web, name: 'Website' }],
    })]);
    expect(summary.scheduled_maintenances).toEqual([]);
    const status = (await call(s, 'GET', `/status/${slug}/api/v2/status.json`)).json();
    expect(status.status.indicator).toBe('minor');
    const incidents = (await call(s, 'GET', `/status/${slug}/api/v2/incidents.json`)).json();
    expect(incidents.incidents.map((i: { name: string }) => i.name)).toEqual(expect.arrayContaining(['Website slow', 'API errors']));
    await s.a.request('DELETE', `${INCIDENTS}/${open.id}`);
  });

  it('publishes RSS and Atom feeds of its incidents', async () => {
    const rss = await call(s, 'GET', `/status/${slug}/feed.rss`);
    expect(rss.headers['content-type']).toContain('application/rss+xml');
    expect(rss.text).toContain('<rss version="2.0">');
    expect(rss.text).toContain('API errors (resolved)');
    const atom = await call(s, 'GET', `/status/${slug}/feed.atom`);
    expect(atom.text).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(atom.text).toContain('API errors (resolved)');
  });

  it('never shows another account\'s incidents, even on a service of the same name', async () => {
    const theirs = await service(s.b, 'Public API');
    await incident(s.b, { name: 'Their secret outage', services: [{ id: theirs }] });
    const res = await call(s, 'GET', `/status/${slug}`);
    expect(res.text).not.toContain('Their secret outage');
    expect((await call(s, 'GET', `/status/${slug}/api/v2/incidents.json`)).text).not.toContain('Their secret outage');
  });

  it('answers 404 for unknown and malformed page urls', async () => {
    expect((await call(s, 'GET', '/status/no-such-page')).status).toBe(404);
    expect((await call(s, 'GET', '/status/NOT_A_SLUG')).status).toBe(404);
    expect((await call(s, 'GET', `/status/${slug}/incidents/${randomUUID()}`)).status).toBe(404);
  });

  it('serves the page on its custom domain through the Host header', async () => {
    const domain = `status-${randomUUID().slice(0, 8)}.example.com`;
    const custom = await page(s.a, { name: 'Custom', url: `custom-${randomUUID().slice(0, 8)}`, customDomain: domain, cards: [{ name: 'All', services: [{ id: api }] }] });
    const res = await call(s, 'GET', '/', { host: `${domain.toUpperCase()}:443` });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Custom</title>');
    expect(res.text).toContain('href="/history"');
    const summary = await call(s, 'GET', '/api/v2/summary.json', { host: domain });
    expect(summary.json().page.id).toBe(custom.id);
    expect((await call(s, 'GET', '/', { host: 'unknown.example.com' })).text).not.toContain('<title>Custom</title>');
  });

  describe('a private page', () => {
    let privateSlug: string;
    let privateId: string;
    beforeAll(async () => {
      privateSlug = `private-${randomUUID().slice(0, 8)}`;
      privateId = (await page(s.a, { name: 'Internal', url: privateSlug, isPrivate: true, password: 'correct horse', cards: [{ name: 'All', services: [{ id: api }] }] })).id;
    });

    it('asks for the password and shows nothing else, in HTML, JSON, events and feeds', async () => {
      const res = await call(s, 'GET', `/status/${privateSlug}`);
      expect(res.status).toBe(401);
      expect(res.text).toContain('This status page is private');
      expect(res.text).toContain('type="password"');
      expect(res.text).not.toContain('Public API');
      expect((await call(s, 'GET', `/status/${privateSlug}/api/v2/summary.json`)).status).toBe(401);
      expect((await call(s, 'GET', `/status/${privateSlug}/content`)).status).toBe(401);
      expect((await call(s, 'GET', `/status/${privateSlug}/events`)).status).toBe(401);
      expect((await call(s, 'GET', `/status/${privateSlug}/feed.rss`)).status).toBe(404);
    });

    it('refuses a wrong password and keeps a 30-day session for the right one, until the password changes', async () => {
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const wrong = await call(s, 'POST', `/status/${privateSlug}/login`, form, 'password=nope');
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('That password is not right.');
      expect(wrong.headers['set-cookie']).toBeUndefined();
      const right = await call(s, 'POST', `/status/${privateSlug}/login`, form, `password=${encodeURIComponent('correct horse')}`);
      expect(right.status).toBe(303);
      const cookie = String(right.headers['set-cookie']);
      expect(cookie).toMatch(/Max-Age=2592000/);
      expect(cookie).toMatch(/HttpOnly/);
      const session = { cookie: cookie.split(';')[0]! };
      const seen = await call(s, 'GET', `/status/${privateSlug}`, session);
      expect(seen.status).toBe(200);
      expect(seen.text).toContain('Public API');
      expect((await call(s, 'GET', `/status/${privateSlug}/api/v2/summary.json`, session)).status).toBe(200);
      const current = (await s.a.request('GET', `/v1/status-pages/${privateId}`)).body;
      expect(current).not.toHaveProperty('password');
      const { id: _id, whiteLabel: _w, projectBindings: _p, created_at: _c, updated_at: _u, ...body } = current;
      const cards = body.cards.map((c: Record<string, any>) => ({ id: c.id, name: c.name, services: c.services.map((x: { id: string }) => ({ id: x.id })) }));
      expect((await s.a.request('PUT', `/v1/status-pages/${privateId}`, { ...body, cards, password: 'battery staple' })).status).toBe(200);
      expect((await call(s, 'GET', `/status/${privateSlug}`, session)).status).toBe(401);
    });
  });
});
