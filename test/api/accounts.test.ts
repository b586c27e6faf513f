import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCATION_NAMES, LOCATIONS, RUNTIME_IDS } from '../../src/domain/catalog.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SELF_HOSTED_ADDONS = {
  communicate: { tier: 'self-hosted', tierDisplayName: 'Self-hosted' },
  resolve: { tier: 'self-hosted', tierDisplayName: 'Self-hosted' },
};

describe.each(BACKENDS)('accounts and users API on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const stored = async (accountId: string) => (await s.lookout.store.db.query('SELECT * FROM accounts WHERE id = $1', [accountId]))[0];

  it('shows the caller its own account through /v1/accounts/me, /v1/accounts/{id} and /v1/accounts', async () => {
    const me = await s.a.request('GET', '/v1/accounts/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: s.a.accountId, name: expect.any(String), runtimeId: '2025.04', plan: 'SELF_HOSTED', planDisplayName: 'Self-hosted',
      addons: SELF_HOSTED_ADDONS, settings: {},
      alertSettings: {
        escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, timeBasedEscalation: { minutesFailingThreshold: 5 },
        reminders: { amount: 0, interval: 5 }, parallelRunFailureThreshold: { enabled: false, percentage: 10 },
      },
      created_at: expect.any(String),
    });
    expect((await s.a.request('GET', `/v1/accounts/${s.a.accountId}`)).body).toEqual(me.body);
    const all = await s.a.request('GET', '/v1/accounts');
    expect(all.status).toBe(200);
    expect(all.body).toEqual([me.body]);
  });

  it('answers 404 for another account id, exactly as for an id that does not exist', async () => {
    for (const path of [`/v1/accounts/${s.b.accountId}`, `/next/accounts/${s.b.accountId}`]) {
      const other = await s.a.request('GET', path);
      const unknown = await s.a.request('GET', path.replace(s.b.accountId, randomUUID()));
      expect(other.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(other.body).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
      expect(Object.keys(other.body).sort()).toEqual(Object.keys(unknown.body).sort());
      expect(other.text).not.toContain('Other account');
    }
  });

  it('updates the name, default runtime and alert settings with PUT /v1/accounts/me, merging partial alert settings', async () => {
    const first = await s.a.request('PUT', '/v1/accounts/me', {
      name: 'Renamed account', runtimeId: '2026.04',
      alertSettings: { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 15 } },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      name: 'Renamed account', runtimeId: '2026.04',
      alertSettings: { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 15 }, reminders: { amount: 0, interval: 5 } },
    });
    const second = await s.a.request('PUT', '/v1/accounts/me', { alertSettings: { reminders: { amount: 2, interval: 10 } } });
    expect(second.body.alertSettings).toEqual({
      escalationType: 'TIME_BASED', runBasedEscalation: { failedRunThreshold: 1 }, timeBasedEscalation: { minutesFailingThreshold: 15 },
      reminders: { amount: 2, interval: 10 }, parallelRunFailureThreshold: { enabled: false, percentage: 10 },
    });
    expect(second.body).toMatchObject({ name: 'Renamed account', runtimeId: '2026.04' });
    expect((await s.a.request('GET', '/v1/accounts/me')).body).toEqual(second.body);
    expect((await s.b.request('GET', '/v1/accounts/me')).body).toMatchObject({ name: 'Other account', runtimeId: '2025.04' });
  });

  it('drops unknown keys from an account update instead of storing them', async () => {
    const res = await s.b.request('PUT', '/v1/accounts/me', { plan: 'ENTERPRISE', id: randomUUID(), name: 'Other account' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.b.accountId, plan: 'SELF_HOSTED' });
  });

  it('answers the CLI routes /next/accounts and /next/accounts/{id} with the account and an empty feature list', async () => {
    const one = await s.b.request('GET', `/next/accounts/${s.b.accountId}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: s.b.accountId, name: 'Other account', runtimeId: '2025.04', plan: 'SELF_HOSTED', planDisplayName: 'Self-hosted',
      addons: SELF_HOSTED_ADDONS, features: [],
    });
    expect((await s.b.request('GET', '/next/accounts')).body).toEqual([one.body]);
  });

  it('answers /next/users/me with the user behind each key', async () => {
    const a = await s.a.request('GET', '/next/users/me');
    const b = await s.b.request('GET', '/next/users/me');
    expect(a.status).toBe(200);
    // A service key acts for no person: whoami names the account's first owner, who signs in as LOOKOUT_OWNER_EMAIL.
    expect(a.body).toEqual({ id: expect.any(String), name: 'Admin', email: 'owner@localhost' });
    expect(b.body.id).not.toBe(a.body.id);
    const [row] = await s.lookout.store.db.query<{ account_id: string }>('SELECT account_id FROM users WHERE id = $1', [b.body.id]);
    expect(row!.account_id).toBe(s.b.accountId);
  });

  describe('bad input', () => {
    const bad: [string, string, string, unknown, string, string][] = [
      ['an empty name', 'PUT', '/v1/accounts/me', { name: '' }, 'payload', 'name'],
      ['a blank name', 'PUT', '/v1/accounts/me', { name: '  ' }, 'payload', 'name'],
      ['a name of 256 characters', 'PUT', '/v1/accounts/me', { name: 'x'.repeat(256) }, 'payload', 'name'],
      ['a numeric name', 'PUT', '/v1/accounts/me', { name: 5 }, 'payload', 'name'],
      ['an unknown runtime', 'PUT', '/v1/accounts/me', { runtimeId: 'latest' }, 'payload', 'runtimeId'],
      ['a null runtime', 'PUT', '/v1/accounts/me', { runtimeId: null }, 'payload', 'runtimeId'],
      ['a string for alertSettings', 'PUT', '/v1/accounts/me', { alertSettings: 'loud' }, 'payload', 'alertSettings'],
      ['an unknown escalation type', 'PUT', '/v1/accounts/me', { alertSettings: { escalationType: 'SOMETIMES' } }, 'payload', 'alertSettings.escalationType'],
      ['a failed-run threshold of 6', 'PUT', '/v1/accounts/me', { alertSettings: { runBasedEscalation: { failedRunThreshold: 6 } } }, 'payload', 'alertSettings.runBasedEscalation.failedRunThreshold'],
      ['a minutes-failing threshold of 7', 'PUT', '/v1/accounts/me', { alertSettings: { timeBasedEscalation: { minutesFailingThreshold: 7 } } }, 'payload', 'alertSettings.timeBasedEscalation.minutesFailingThreshold'],
      ['a reminder amount of 6', 'PUT', '/v1/accounts/me', { alertSettings: { reminders: { amount: 6, interval: 5 } } }, 'payload', 'alertSettings.reminders.amount'],
      ['a parallel failure percentage of 5', 'PUT', '/v1/accounts/me', { alertSettings: { parallelRunFailureThreshold: { enabled: true, percentage: 5 } } }, 'payload', 'alertSettings.parallelRunFailureThreshold.percentage'],
      ['a body that is an array', 'PUT', '/v1/accounts/me', [], 'payload', '(root)'],
      ['a non-UUID account id', 'GET', '/v1/accounts/123', undefined, 'params', 'accountId'],
      ['a non-UUID account id on the CLI route', 'GET', '/next/accounts/acme', undefined, 'params', 'accountId'],
    ];
    it.each(bad)('answers 400 naming the key for %s, and writes nothing', async (_n, method, path, body, source, key) => {
      const before = await stored(s.a.accountId);
      const res = await s.a.request(method, path, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String), validation: { source } });
      expect(res.body.validation.keys).toContain(key);
      expect(await stored(s.a.accountId)).toEqual(before);
    });

    it.each([
      ['GET', '/v1/accounts'], ['GET', '/v1/accounts/me'], ['PUT', '/v1/accounts/me'], ['GET', '/v1/accounts/{id}'],
      ['GET', '/next/accounts'], ['GET', '/next/accounts/{id}'], ['GET', '/next/users/me'],
      ['GET', '/v1/locations'], ['GET', '/v1/runtimes'], ['GET', '/v1/runtimes/2025.04'],
      ['GET', '/v1/static-ips'], ['GET', '/v1/static-ipv6s'], ['GET', '/v1/static-ips.txt'], ['GET', '/v1/static-ipv6s.txt'],
      ['GET', '/v1/static-ips-by-region'], ['GET', '/v1/static-ipv6s-by-region'],
    ])('answers 401 to %s %s without a key and 403 for another account header, writing nothing', async (method, path) => {
      const target = path.replace('{id}', s.a.accountId);
      const before = await stored(s.a.accountId);
      const body = method === 'PUT' ? JSON.stringify({ name: 'Intruder' }) : undefined;
      const anonymous = await s.raw(method, target, { body, headers: { 'content-type': 'application/json' } });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
      const crossed = await s.raw(method, target, {
        body, headers: { 'content-type': 'application/json', authorization: `Bearer ${s.b.apiKey}`, 'x-checkly-account': s.a.accountId },
      });
      expect(crossed.status).toBe(403);
      expect(crossed.body).toMatchObject({ statusCode: 403, error: 'Forbidden', message: expect.any(String) });
      expect(await stored(s.a.accountId)).toEqual(before);
    });
  });
});

describe('locations and runtimes API', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('lists every data-center location with its display name, unpaginated', async () => {
    const res = await s.a.request('GET', '/v1/locations');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBeNull();
    expect(res.body).toEqual(LOCATIONS.map((region) => ({ region, name: LOCATION_NAMES[region] })));
  });

  it('lists every runtime with its stage and a dependencies object that names the Node.js version', async () => {
    const res = await s.a.request('GET', '/v1/runtimes');
    expect(res.status).toBe(200);
    expect(res.body.map((r: { name: string }) => r.name)).toEqual([...RUNTIME_IDS]);
    for (const r of res.body) {
      expect(r).toEqual({
        name: expect.any(String), stage: expect.stringMatching(/^(CURRENT|DEPRECATED)$/), multiStepSupport: expect.any(Boolean),
        nodeJsVersion: expect.any(String), runtimeEndOfLife: null, description: expect.any(String),
        dependencies: expect.objectContaining({ node: expect.any(String), playwright: expect.any(String) }),
      });
      expect(r.stage).toBe(['2026.04', '2025.04'].includes(r.name) ? 'CURRENT' : 'DEPRECATED');
    }
  });

  it('says which Playwright every runtime carries: the installed one', async () => {
    const installed = (JSON.parse(readFileSync(new URL('../../node_modules/@playwright/test/package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const res = await s.a.request('GET', '/v1/runtimes');
    for (const runtime of res.body as { dependencies: Record<string, string> }[]) expect(runtime.dependencies['@playwright/test']).toBe(installed);
    expect((await s.a.request('GET', '/v1/runtimes/2024.09')).body.dependencies['@playwright/test']).toBe(installed);
  });

  it('answers one runtime by id, and 404 for an unknown one', async () => {
    const one = await s.a.request('GET', '/v1/runtimes/2024.09');
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ name: '2024.09', stage: 'DEPRECATED', nodeJsVersion: 'v18.20.3', dependencies: { node: '18.20.3' } });
    for (const id of ['2099.01', 'latest']) {
      const missing = await s.a.request('GET', `/v1/runtimes/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.stringContaining(id) });
    }
  });

  it('answers 400 for a runtime id longer than any runtime name', async () => {
    const res = await s.a.request('GET', `/v1/runtimes/${'9'.repeat(33)}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', validation: { source: 'params', keys: ['id'] } });
  });

  it('lists the machine addresses as static IPs when none are configured', async () => {
    const v4 = await s.a.request('GET', '/v1/static-ips');
    const v6 = await s.a.request('GET', '/v1/static-ipv6s');
    expect(v4.status).toBe(200);
    expect(v6.status).toBe(200);
    expect(v4.body.every((ip: string) => isIPv4(ip))).toBe(true);
    expect(v6.body.every((ip: string) => isIPv6(ip))).toBe(true);
    if (!s.lookout.config.staticIps) expect(v4.body).not.toContain('127.0.0.1');
    expect((await s.a.request('GET', '/v1/static-ips.txt')).text).toBe(v4.body.map((ip: string) => `${ip}\n`).join(''));
  });
});

describe('static IP routes with configured addresses', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { staticIps: ['198.51.100.7', '203.0.113.5'], staticIpv6s: ['2001:db8::1', '2001:db8::2'] } });
  });
  afterAll(async () => s?.close());

  it('answers the configured addresses as JSON arrays', async () => {
    expect((await s.a.request('GET', '/v1/static-ips')).body).toEqual(['198.51.100.7', '203.0.113.5']);
    expect((await s.a.request('GET', '/v1/static-ipv6s')).body).toEqual(['2001:db8::1', '2001:db8::2']);
  });

  it('answers the text lists as text/plain, one address per line with a trailing newline', async () => {
    const v4 = await s.a.request('GET', '/v1/static-ips.txt');
    expect(v4.status).toBe(200);
    expect(v4.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(v4.text).toBe('198.51.100.7\n203.0.113.5\n');
    const v6 = await s.a.request('GET', '/v1/static-ipv6s.txt');
    expect(v6.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(v6.text).toBe('2001:db8::1\n2001:db8::2\n');
  });

  it('maps every location to the same addresses in the by-region routes', async () => {
    const v4 = await s.a.request('GET', '/v1/static-ips-by-region');
    const v6 = await s.a.request('GET', '/v1/static-ipv6s-by-region');
    expect(v4.body).toEqual(Object.fromEntries(LOCATIONS.map((r) => [r, ['198.51.100.7', '203.0.113.5']])));
    expect(v6.body).toEqual(Object.fromEntries(LOCATIONS.map((r) => [r, ['2001:db8::1', '2001:db8::2']])));
  });

  it('shows the same addresses to every account', async () => {
    expect((await s.b.request('GET', '/v1/static-ips')).body).toEqual((await s.a.request('GET', '/v1/static-ips')).body);
  });
});
