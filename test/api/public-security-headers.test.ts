import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_SCRIPT_HASH } from '../../src/api/pages/status-page-html.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The answer's headers to a GET (or a form POST) with any Host header. */
async function headersOf(s: TestServer, path: string, init: { host?: string; form?: string } = {}) {
  const res = await request(`${s.url}${path}`, {
    method: init.form === undefined ? 'GET' : 'POST',
    headers: { ...(init.host ? { host: init.host } : {}), ...(init.form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
    body: init.form,
  });
  await res.body.text();
  return { status: res.statusCode, headers: res.headers };
}

/** The headers no public answer may lack: no framing, no sniffing, no Referer. */
function expectHardened(headers: Record<string, unknown>) {
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  expect(String(headers['content-security-policy'])).toContain("default-src 'none'");
}

describe('security headers of public pages, feeds and badges', () => {
  let s: TestServer;
  let slug: string;
  let privateSlug: string;
  const domain = `secure-${randomUUID().slice(0, 8)}.example.test`;

  beforeAll(async () => {
    s = await startTestServer();
    const service = (await s.a.request('POST', '/v1/status-pages/services', { name: 'API' })).body.id as string;
    const cards = [{ name: 'All', services: [{ id: service }] }];
    slug = `public-${randomUUID().slice(0, 8)}`;
    privateSlug = `private-${randomUUID().slice(0, 8)}`;
    expect((await s.a.request('POST', '/v1/status-pages', { name: 'Open', url: slug, customDomain: domain, cards })).status).toBe(201);
    expect((await s.a.request('POST', '/v1/status-pages', { name: 'Closed', url: privateSlug, isPrivate: true, password: 'pass words', cards })).status).toBe(201);
  });
  afterAll(async () => s?.close());

  it.each([
    ['the status page', () => `/status/${slug}`, 200],
    ['its history', () => `/status/${slug}/history`, 200],
    ['an unknown page', () => '/status/no-such-page', 404],
    ['a private page\'s password form', () => `/status/${privateSlug}`, 401],
  ])('sends them with %s, whose only script is the live-update one (by hash)', async (_what, path, status) => {
    const res = await headersOf(s, path());
    expect(res.status).toBe(status);
    expectHardened(res.headers);
    expect(res.headers['content-security-policy']).toContain(`script-src '${LIVE_SCRIPT_HASH}'`);
    expect(res.headers['content-security-policy']).not.toContain("'unsafe-inline' 'unsafe-eval'");
  });

  it('sends them with a wrong password\'s answer and on a custom domain', async () => {
    expectHardened((await headersOf(s, `/status/${privateSlug}/login`, { form: 'password=nope' })).headers);
    const custom = await headersOf(s, '/', { host: domain });
    expect(custom.status).toBe(200);
    expectHardened(custom.headers);
    expectHardened((await headersOf(s, '/feed.rss', { host: domain })).headers);
  });

  it.each(['rss', 'atom'])('sends them with the %s feed', async (kind) => {
    const res = await headersOf(s, `/status/${slug}/feed.${kind}`);
    expect(res.status).toBe(200);
    expectHardened(res.headers);
  });

  it('sends them with a public dashboard, a public badge and an account\'s badge', async () => {
    expect((await s.a.request('POST', '/v1/dashboards', { customUrl: `dash-${slug}`, header: 'Ops', tags: ['none'] })).status).toBe(201);
    const dashboard = await headersOf(s, `/dashboards/dash-${slug}`);
    expect(dashboard.status).toBe(200);
    expectHardened(dashboard.headers);
    const check = (await s.a.request('POST', '/v1/checks/api', { name: 'Shop', request: { url: 'https://shop.example.test' } })).body as { id: string };
    const published = await s.a.request('POST', `/v1/badges/checks/${check.id}/public`);
    const badge = await headersOf(s, `/badges/${published.body.token}`);
    expect(badge.status).toBe(200);
    expectHardened(badge.headers);
    expect(badge.headers['content-security-policy']).not.toContain('script-src');
    const own = await s.a.request('GET', `/v1/badges/checks/${check.id}`);
    expect(own.headers.get('x-frame-options')).toBe('DENY');
  });
});
