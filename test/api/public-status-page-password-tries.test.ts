import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A password form post, from `headers` (a Host, a proxy's X-Forwarded-*), never following the redirect. */
async function login(s: TestServer, path: string, password: string, headers: Record<string, string> = {}) {
  const res = await request(`${s.url}${path}`, { method: 'POST', headers: { ...FORM, ...headers }, body: `password=${encodeURIComponent(password)}` });
  await res.body.text();
  return { status: res.statusCode, headers: res.headers };
}

/** A private page with the password `secret words` (and `customDomain` when given); its slug. */
async function privatePage(s: TestServer, customDomain?: string): Promise<string> {
  const service = (await s.a.request('POST', '/v1/status-pages/services', { name: 'API' })).body.id as string;
  const slug = `locked-${randomUUID().slice(0, 8)}`;
  const res = await s.a.request('POST', '/v1/status-pages', {
    name: 'Internal', url: slug, isPrivate: true, password: 'secret words', ...(customDomain ? { customDomain } : {}),
    cards: [{ name: 'All', services: [{ id: service }] }],
  });
  expect(res.status).toBe(201);
  return slug;
}

/** Ten wrong passwords, each refused with 401. */
async function tenWrong(s: TestServer, path: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 10; i++) expect((await login(s, path, `guess ${i}`, headers)).status).toBe(401);
}

describe('password tries of private status pages behind a trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { trustProxy: ['127.0.0.1', '::1'] } });
  });
  afterAll(async () => s?.close());

  it('locks one client out of one page after 10 wrong passwords, with 429 and Retry-After, even for the right one', async () => {
    const slug = await privatePage(s);
    const client = { 'x-forwarded-for': '203.0.113.10' };
    await tenWrong(s, `/status/${slug}/login`, client);
    const locked = await login(s, `/status/${slug}/login`, 'secret words', client);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.headers['set-cookie']).toBeUndefined();
    // Another client of the same page is not punished for the first one's guesses.
    expect((await login(s, `/status/${slug}/login`, 'secret words', { 'x-forwarded-for': '203.0.113.11' })).status).toBe(303);
  });

  it('does not lock the same client out of another page', async () => {
    const [a, b] = [await privatePage(s), await privatePage(s)];
    const client = { 'x-forwarded-for': '203.0.113.20' };
    await tenWrong(s, `/status/${a}/login`, client);
    expect((await login(s, `/status/${a}/login`, 'nope', client)).status).toBe(429);
    expect((await login(s, `/status/${b}/login`, 'nope', client)).status).toBe(401);
    expect((await login(s, `/status/${b}/login`, 'secret words', client)).status).toBe(303);
  });

  it('limits the password form on a custom domain too, and counts it with the page\'s own path', async () => {
    const domain = `private-${randomUUID().slice(0, 8)}.example.test`;
    const slug = await privatePage(s, domain);
    const client = { 'x-forwarded-for': '203.0.113.30' };
    await tenWrong(s, '/login', { ...client, host: domain });
    const locked = await login(s, '/login', 'secret words', { ...client, host: domain });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(s, `/status/${slug}/login`, 'secret words', client)).status).toBe(429);
    expect((await login(s, '/login', 'secret words', { 'x-forwarded-for': '203.0.113.31', host: domain })).status).toBe(303);
  });

  it('marks the session cookie Secure when the proxy says the visitor came over https', async () => {
    const slug = await privatePage(s);
    const overHttps = await login(s, `/status/${slug}/login`, 'secret words', { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.40' });
    expect(overHttps.status).toBe(303);
    expect(String(overHttps.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const overHttp = await login(s, `/status/${slug}/login`, 'secret words', { 'x-forwarded-for': '203.0.113.40' });
    expect(String(overHttp.headers['set-cookie'])).not.toContain('Secure');
  });
});

describe('password tries of private status pages with no trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('keys tries on the connection\'s address, never on an X-Forwarded-For the client made up', async () => {
    const slug = await privatePage(s);
    for (let i = 0; i < 10; i++) expect((await login(s, `/status/${slug}/login`, 'nope', { 'x-forwarded-for': `198.51.100.${i}` })).status).toBe(401);
    expect((await login(s, `/status/${slug}/login`, 'secret words', { 'x-forwarded-for': '198.51.100.99' })).status).toBe(429);
  });

  it('ignores X-Forwarded-Proto from an untrusted client: the cookie is Secure only when the server is reached over https', async () => {
    const slug = await privatePage(s);
    const res = await login(s, `/status/${slug}/login`, 'secret words', { 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).not.toContain('Secure');
  });
});

describe('the session cookie of a server whose public URL is https', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { publicUrl: 'https://status.example.test' } });
  });
  afterAll(async () => s?.close());

  it('is Secure, HttpOnly and SameSite=Lax', async () => {
    const slug = await privatePage(s);
    const res = await login(s, `/status/${slug}/login`, 'secret words');
    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });
});
