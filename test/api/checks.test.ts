import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const MINIMAL: Record<string, Record<string, unknown>> = {
  api: { name: 'API', request: { url: 'https://example.test/health' } },
  url: { name: 'URL', request: { url: 'https://example.test/' } },
  tcp: { name: 'TCP', request: { hostname: 'db.test', port: 5432 } },
  dns: { name: 'DNS', request: { query: 'example.test', recordType: 'A' } },
  icmp: { name: 'ICMP', request: { hostname: 'example.test' } },
  heartbeat: { name: 'Heartbeat', heartbeat: { period: 1, periodUnit: 'hours', grace: 10, graceUnit: 'minutes' } },
  browser: { name: 'Browser', script: "await page.goto('https://example.test')" },
  multistep: { name: 'Multistep', script: "await request.get('https://example.test')" },
};
const TYPE_OF: Record<string, string> = { api: 'API', url: 'URL', tcp: 'TCP', dns: 'DNS', icmp: 'ICMP', heartbeat: 'HEARTBEAT', browser: 'BROWSER', multistep: 'MULTI_STEP' };

describe.each(BACKENDS)('checks API on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const countChecks = async () => Number((await s.a.request('GET', '/v1/checks?limit=1')).headers.get('content-range')?.split('/')[1]);

  it.each(Object.keys(MINIMAL))('creates a %s check through its typed route and reads it back', async (segment) => {
    const created = await s.a.request('POST', `/v1/checks/${segment}`, MINIMAL[segment]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...MINIMAL[segment], checkType: TYPE_OF[segment], activated: true });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const read = await s.a.request('GET', `/v1/checks/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('echoes every accepted field as sent', async () => {
    const body = {
      name: 'Echo', activated: false, muted: true, shouldFail: true, locations: ['eu-west-1', 'us-west-2'], tags: ['a', 'b'],
      frequency: 5, frequencyOffset: 50, description: 'd', runtimeId: '2024.09', runParallel: true, groupOrder: 2,
      degradedResponseTime: 1000, maxResponseTime: 2000, useGlobalAlertSettings: false,
      alertSettings: { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 10 }, reminders: { amount: 2, interval: 10 }, runBasedEscalation: { failedRunThreshold: 2 }, parallelRunFailureThreshold: { enabled: true, percentage: 50 } },
      retryStrategy: { type: 'EXPONENTIAL', baseBackoffSeconds: 10, maxRetries: 3, maxDurationSeconds: 300, sameRegion: false, onlyOn: ['NETWORK_ERROR'] },
      request: {
        method: 'POST', url: 'https://example.test/x', followRedirects: false, skipSSL: true, ipFamily: 'IPv6', body: '{"a":1}', bodyType: 'JSON',
        headers: [{ key: 'X-A', value: '1', locked: false }], queryParameters: [{ key: 'q', value: 'v', locked: true }],
        assertions: [{ source: 'JSON_BODY', property: '$.a', comparison: 'EQUALS', target: '1', regex: null }],
        basicAuth: { username: 'u', password: 'p' },
      },
      environmentVariables: [{ key: 'PLAIN', value: 'v', locked: false, secret: false }],
    };
    const res = await s.a.request('POST', '/v1/checks/api', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(body);
  });

  it('accepts the generic create route with checkType and the generic update route', async () => {
    const res = await s.a.request('POST', '/v1/checks', { checkType: 'TCP', ...MINIMAL.tcp });
    expect(res.status).toBe(201);
    expect(res.body.checkType).toBe('TCP');
    const upd = await s.a.request('PUT', `/v1/checks/${res.body.id}`, { checkType: 'TCP', name: 'Renamed', request: { port: 6543 } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: 'Renamed', request: { hostname: 'db.test', port: 6543 } });
    expect(upd.body.updated_at).not.toBeNull();
  });

  it('updates a DNS check through PUT /v1/checks/dns/{id}, keeping fields it did not send', async () => {
    const created = await s.a.request('POST', '/v1/checks/dns', { ...MINIMAL.dns, tags: ['dns'] });
    const upd = await s.a.request('PUT', `/v1/checks/dns/${created.body.id}`, { name: 'DNS 2', frequency: 0, frequencyOffset: 20, request: { recordType: 'MX' } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: 'DNS 2', tags: ['dns'], frequency: 0, frequencyOffset: 20, request: { query: 'example.test', recordType: 'MX' } });
  });

  it('refuses to change a check type through an update', async () => {
    const created = await s.a.request('POST', '/v1/checks/tcp', MINIMAL.tcp);
    const viaTyped = await s.a.request('PUT', `/v1/checks/api/${created.body.id}`, { name: 'x' });
    const viaGeneric = await s.a.request('PUT', `/v1/checks/${created.body.id}`, { checkType: 'API' });
    for (const res of [viaTyped, viaGeneric]) {
      expect(res.status).toBe(400);
      expect(res.body.validation.keys).toEqual(['checkType']);
    }
  });

  it('never lets a client set a heartbeat ping token, and keeps it across updates', async () => {
    const created = await s.a.request('POST', '/v1/checks/heartbeat', { ...MINIMAL.heartbeat, heartbeat: { ...MINIMAL.heartbeat!.heartbeat as object, pingToken: 'chosen-by-client-123456' } });
    const token = created.body.heartbeat.pingToken;
    expect(token).not.toBe('chosen-by-client-123456');
    expect(created.body.heartbeat.pingUrl).toContain(`/ping/${token}`);
    const upd = await s.a.request('PUT', `/v1/checks/heartbeat/${created.body.id}`, { heartbeat: { period: 2, pingToken: 'other-token-1234567' } });
    expect(upd.body.heartbeat).toMatchObject({ period: 2, periodUnit: 'hours', pingToken: token });
  });

  it('stores the playwrightConfig of browser and multi-step checks, and the script files of API checks, and reads them back', async () => {
    const playwrightConfig = {
      use: { baseURL: 'https://shop.test', viewport: { width: 390, height: 844 }, locale: 'de-DE', extraHTTPHeaders: { 'X-Shop': 'yes' }, actionTimeout: 5000 },
      expect: { timeout: 3000 },
      timeout: 60000,
    };
    const browser = await s.a.request('POST', '/v1/checks/browser', { ...MINIMAL.browser, playwrightConfig });
    expect(browser.status, browser.text).toBe(201);
    expect(browser.body.playwrightConfig).toEqual(playwrightConfig);
    expect((await s.a.request('GET', `/v1/checks/${browser.body.id}`)).body.playwrightConfig).toEqual(playwrightConfig);
    const updated = await s.a.request('PUT', `/v1/checks/browser/${browser.body.id}`, { playwrightConfig: { use: { locale: 'fr-FR' } } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.playwrightConfig).toEqual({ use: { locale: 'fr-FR' } });
    const files = {
      setupScriptPath: '__checks__/setup.ts', setupScriptDependencies: [{ path: '__checks__/auth.ts', content: 'export const a = 1' }],
      localSetupScript: "import { a } from './auth'\nrequest.headers.a = String(a)",
    };
    const api = await s.a.request('POST', '/v1/checks/api', { ...MINIMAL.api, ...files });
    expect(api.status, api.text).toBe(201);
    expect((await s.a.request('GET', `/v1/checks/${api.body.id}`)).body).toMatchObject({ ...files, tearDownScriptPath: null, tearDownScriptDependencies: null });
  });

  it('reads a secret environment variable back as null', async () => {
    const res = await s.a.request('POST', '/v1/checks/browser', { ...MINIMAL.browser, environmentVariables: [{ key: 'TOKEN', value: 's3cr3t', secret: true }, { key: 'OPEN', value: 'o' }] });
    expect(res.status).toBe(201);
    expect(res.text).not.toContain('s3cr3t');
    const read = await s.a.request('GET', `/v1/checks/${res.body.id}`);
    // Entries are filled with their defaults (locked and secret false), so they read back whole.
    expect(read.body.environmentVariables).toEqual([{ key: 'TOKEN', value: null, locked: false, secret: true }, { key: 'OPEN', value: 'o', locked: false, secret: false }]);
    const list = await s.a.request('GET', '/v1/checks?limit=100');
    expect(list.text).not.toContain('s3cr3t');
  });

  it('lists checks with Content-Range pagination and filters', async () => {
    for (let i = 0; i < 3; i++) await s.b.request('POST', '/v1/checks/api', { name: `Paged ${i}`, tags: ['paged', i === 0 ? 'first' : 'rest'], request: { url: 'https://p.test' }, activated: i !== 2 });
    await s.b.request('POST', '/v1/checks/tcp', { ...MINIMAL.tcp, tags: ['paged'] });
    const page1 = await s.b.request('GET', '/v1/checks?limit=2&page=1');
    expect(page1.headers.get('content-range')).toBe('0-1/4');
    expect(page1.body).toHaveLength(2);
    const page2 = await s.b.request('GET', '/v1/checks?limit=2&page=2');
    expect(page2.headers.get('content-range')).toBe('2-3/4');
    const past = await s.b.request('GET', '/v1/checks?limit=2&page=5');
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')).toBe('*/4');
    const names = (r: { body: { name: string }[] }) => r.body.map((c) => c.name).sort();
    expect(names(await s.b.request('GET', '/v1/checks?tag=paged&tag=first'))).toEqual(['Paged 0']);
    expect(names(await s.b.request('GET', '/v1/checks?tag%5B%5D=rest'))).toEqual(['Paged 1', 'Paged 2']);
    expect(names(await s.b.request('GET', '/v1/checks?checkType=TCP'))).toEqual(['TCP']);
    expect(names(await s.b.request('GET', '/v1/checks?activated=false'))).toEqual(['Paged 2']);
    expect(names(await s.b.request('GET', '/v1/checks?search=aged%201'))).toEqual(['Paged 1']);
    const all = (await s.b.request('GET', '/v1/checks?limit=100')).body as { id: string; name: string }[];
    const ids = all.slice(0, 2).map((c) => c.id);
    expect(names(await s.b.request('GET', `/v1/checks?ids=${ids.join(',')}`))).toEqual(all.slice(0, 2).map((c) => c.name).sort());
  });

  it('deletes a check and answers 404 afterwards', async () => {
    const created = await s.a.request('POST', '/v1/checks/url', MINIMAL.url);
    const del = await s.a.request('DELETE', `/v1/checks/${created.body.id}`, undefined, { 'content-type': 'application/json' });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await s.a.request('GET', `/v1/checks/${created.body.id}`)).status).toBe(404);
    expect((await s.a.request('DELETE', `/v1/checks/${created.body.id}`)).status).toBe(404);
  });

  it('never shows, changes or deletes another account\'s check', async () => {
    const mine = await s.a.request('POST', '/v1/checks/api', MINIMAL.api);
    const id = mine.body.id;
    expect((await s.b.request('GET', `/v1/checks/${id}`)).status).toBe(404);
    expect((await s.b.request('PUT', `/v1/checks/api/${id}`, { name: 'stolen' })).status).toBe(404);
    expect((await s.b.request('PUT', `/v1/checks/${id}`, { name: 'stolen' })).status).toBe(404);
    expect((await s.b.request('DELETE', `/v1/checks/${id}`)).status).toBe(404);
    expect((await s.b.request('GET', '/v1/checks?limit=100')).body.map((c: { id: string }) => c.id)).not.toContain(id);
    expect((await s.b.request('GET', `/v1/checks?ids=${id}`)).body).toEqual([]);
    expect((await s.a.request('GET', `/v1/checks/${id}`)).body.name).toBe('API');
  });

  it('subscribes a new check to all existing alert channels unless autoAssignAlerts=false', async () => {
    await s.lookout.store.db.query(
      `INSERT INTO alert_channels (account_id, type, data) VALUES ($1, 'EMAIL', '{"config":{"address":"ops@a.test"}}')`,
      [s.a.accountId],
    );
    const auto = await s.a.request('POST', '/v1/checks/api', MINIMAL.api);
    expect(auto.body.alertChannelSubscriptions.length).toBeGreaterThan(0);
    expect(auto.body.alertChannels.email).toContainEqual({ address: 'ops@a.test' });
    const manual = await s.a.request('POST', '/v1/checks/api?autoAssignAlerts=false', MINIMAL.api);
    expect(manual.body.alertChannelSubscriptions).toEqual([]);
  });

  describe('bad input', () => {
    const bad: [string, string, string, unknown, string][] = [
      ['a missing name', 'POST', '/v1/checks/api', { request: { url: 'https://x.test' } }, 'name'],
      ['a name of the wrong type', 'POST', '/v1/checks/api', { name: 5, request: { url: 'https://x.test' } }, 'name'],
      ['a missing request', 'POST', '/v1/checks/api', { name: 'x' }, 'request'],
      ['an unknown HTTP method', 'POST', '/v1/checks/api', { name: 'x', request: { url: 'https://x.test', method: 'BREW' } }, 'request.method'],
      ['an unknown location', 'POST', '/v1/checks/api', { ...MINIMAL.api, locations: ['mars-1'] }, 'locations.0'],
      ['an unknown runtime', 'POST', '/v1/checks/api', { ...MINIMAL.api, runtimeId: '1999.01' }, 'runtimeId'],
      ['a frequency outside the set', 'POST', '/v1/checks/api', { ...MINIMAL.api, frequency: 7 }, 'frequency'],
      ['a string frequency', 'POST', '/v1/checks/api', { ...MINIMAL.api, frequency: '10' }, 'frequency'],
      ['a sub-minute browser check', 'POST', '/v1/checks/browser', { ...MINIMAL.browser, frequency: 0, frequencyOffset: 10 }, 'frequency'],
      ['a sub-minute frequency with a bad offset', 'POST', '/v1/checks/tcp', { ...MINIMAL.tcp, frequency: 0, frequencyOffset: 15 }, 'frequencyOffset'],
      ['an offset above floor(frequency*10)', 'POST', '/v1/checks/api', { ...MINIMAL.api, frequency: 5, frequencyOffset: 51 }, 'frequencyOffset'],
      ['an offset above ceil(frequency/60)', 'POST', '/v1/checks/api', { ...MINIMAL.api, frequency: 720, frequencyOffset: 13 }, 'frequencyOffset'],
      ['a description over 500 characters', 'POST', '/v1/checks/api', { ...MINIMAL.api, description: 'x'.repeat(501) }, 'description'],
      ['more than 100 environment variables', 'POST', '/v1/checks/browser', { ...MINIMAL.browser, environmentVariables: Array.from({ length: 101 }, (_, i) => ({ key: `K${i}`, value: 'v' })) }, 'environmentVariables'],
      ['a negative groupOrder', 'POST', '/v1/checks/api', { ...MINIMAL.api, groupOrder: -1 }, 'groupOrder'],
      ['an unknown assertion source for the type', 'POST', '/v1/checks/tcp', { name: 'x', request: { hostname: 'h', port: 1, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } }, 'request.assertions.0.source'],
      ['an unknown comparison', 'POST', '/v1/checks/api', { name: 'x', request: { url: 'https://x.test', assertions: [{ source: 'STATUS_CODE', comparison: 'ROUGHLY', target: '200' }] } }, 'request.assertions.0.comparison'],
      ['an ordering assertion whose target is not a number', 'POST', '/v1/checks/api', { name: 'x', request: { url: 'https://x.test', assertions: [{ source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: 'fast' }] } }, 'request.assertions.0.target'],
      ['a port out of range', 'POST', '/v1/checks/tcp', { name: 'x', request: { hostname: 'h', port: 70000 } }, 'request.port'],
      ['a ping count over 50', 'POST', '/v1/checks/icmp', { name: 'x', request: { hostname: 'h', pingCount: 51 } }, 'request.pingCount'],
      ['an unknown DNS record type', 'POST', '/v1/checks/dns', { name: 'x', request: { query: 'a.test', recordType: 'SRVX' } }, 'request.recordType'],
      ['an unknown retry type', 'POST', '/v1/checks/api', { ...MINIMAL.api, retryStrategy: { type: 'SOMETIMES' } }, 'retryStrategy.type'],
      ['too many retries', 'POST', '/v1/checks/api', { ...MINIMAL.api, retryStrategy: { type: 'FIXED', maxRetries: 11 } }, 'retryStrategy.maxRetries'],
      ['a retry duration over 600 s', 'POST', '/v1/checks/api', { ...MINIMAL.api, retryStrategy: { type: 'FIXED', maxDurationSeconds: 601 } }, 'retryStrategy.maxDurationSeconds'],
      ['a failed-run threshold over 5', 'POST', '/v1/checks/api', { ...MINIMAL.api, alertSettings: { runBasedEscalation: { failedRunThreshold: 6 } } }, 'alertSettings.runBasedEscalation.failedRunThreshold'],
      ['a minutes-failing threshold outside 5|10|15|30', 'POST', '/v1/checks/api', { ...MINIMAL.api, alertSettings: { timeBasedEscalation: { minutesFailingThreshold: 7 } } }, 'alertSettings.timeBasedEscalation.minutesFailingThreshold'],
      ['a parallel threshold under 10%', 'POST', '/v1/checks/api', { ...MINIMAL.api, alertSettings: { parallelRunFailureThreshold: { enabled: true, percentage: 5 } } }, 'alertSettings.parallelRunFailureThreshold.percentage'],
      ['a group that does not exist', 'POST', '/v1/checks/api', { ...MINIMAL.api, groupId: 999999 }, 'groupId'],
      ['a group id past the integer range (found by the fuzz test)', 'POST', '/v1/checks/url', { ...MINIMAL.url, groupId: 2147483648 }, 'groupId'],
      ['a channel id past the integer range', 'POST', '/v1/checks/api', { ...MINIMAL.api, alertChannelSubscriptions: [{ alertChannelId: 2 ** 31, activated: true }] }, 'alertChannelSubscriptions.0.alertChannelId'],
      ['an alert channel that does not exist', 'POST', '/v1/checks/api', { ...MINIMAL.api, alertChannelSubscriptions: [{ alertChannelId: 999999, activated: true }] }, 'alertChannelSubscriptions.0.alertChannelId'],
      ['a private location that does not exist', 'POST', '/v1/checks/api', { ...MINIMAL.api, privateLocations: ['nowhere'] }, 'privateLocations.0'],
      ['a snippet that does not exist', 'POST', '/v1/checks/api', { ...MINIMAL.api, setupSnippetId: 999999 }, 'setupSnippetId'],
      ['a browser check without a script', 'POST', '/v1/checks/browser', { name: 'x' }, 'script'],
      ['a heartbeat with an unknown period unit', 'POST', '/v1/checks/heartbeat', { name: 'h', heartbeat: { period: 1, periodUnit: 'weeks', grace: 1, graceUnit: 'hours' } }, 'heartbeat.periodUnit'],
      ['a generic create without checkType', 'POST', '/v1/checks', MINIMAL.api, 'checkType'],
      ['a generic create with an unknown checkType', 'POST', '/v1/checks', { ...MINIMAL.api, checkType: 'SMOKE' }, 'checkType'],
      ['a body that is an array', 'POST', '/v1/checks/api', [1, 2], '(root)'],
      ['an update with a bad frequency', 'PUT', '/v1/checks/api/{id}', { frequency: 4 }, 'frequency'],
      ['an update emptying the name', 'PUT', '/v1/checks/api/{id}', { name: '' }, 'name'],
      ['an update with an unknown group', 'PUT', '/v1/checks/{id}', { groupId: 424242 }, 'groupId'],
      ['a non-UUID id', 'GET', '/v1/checks/not-a-uuid', undefined, 'id'],
      ['a limit over 100', 'GET', '/v1/checks?limit=101', undefined, 'limit'],
      ['a page of 0', 'GET', '/v1/checks?page=0', undefined, 'page'],
      ['an unknown checkType filter', 'GET', '/v1/checks?checkType=SMOKE', undefined, 'checkType'],
      ['a non-boolean autoAssignAlerts', 'POST', '/v1/checks/api?autoAssignAlerts=maybe', MINIMAL.api, 'autoAssignAlerts'],
      ['a playwrightConfig.use key the runner cannot apply', 'POST', '/v1/checks/browser', { ...MINIMAL.browser, playwrightConfig: { use: { launchOptions: { slowMo: 5 } } } }, 'playwrightConfig.use.launchOptions'],
      ['an unknown playwrightConfig key', 'POST', '/v1/checks/browser', { ...MINIMAL.browser, playwrightConfig: { projects: [] } }, 'playwrightConfig.projects'],
      ['a snapshot comparison in playwrightConfig.expect', 'POST', '/v1/checks/multistep', { ...MINIMAL.browser, playwrightConfig: { expect: { toHaveScreenshot: {} } } }, 'playwrightConfig.expect.toHaveScreenshot'],
      ['a viewport that is not a size', 'POST', '/v1/checks/browser', { ...MINIMAL.browser, playwrightConfig: { use: { viewport: { width: 'wide', height: 10 } } } }, 'playwrightConfig.use.viewport'],
      ['an update adding an unsupported playwrightConfig key', 'PUT', '/v1/checks/{browserId}', { playwrightConfig: { use: { proxy: { server: 'http://p' } } } }, 'playwrightConfig.use.proxy'],
    ];
    it.each(bad)('answers 400 naming the key for %s, and writes nothing', async (_name, method, path, body, key) => {
      let target = path;
      if (path.includes('{browserId}')) {
        const existing = await s.a.request('POST', '/v1/checks/browser', MINIMAL.browser);
        target = path.replace('{browserId}', existing.body.id);
      }
      if (path.includes('{id}')) {
        const existing = await s.a.request('POST', '/v1/checks/api', MINIMAL.api);
        target = path.replace('{id}', existing.body.id);
      }
      const before = await countChecks();
      const res = await s.a.request(method, target, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(typeof res.body.message).toBe('string');
      expect(res.body.validation.keys).toContain(key);
      expect(await countChecks()).toBe(before);
    });

    it('rejects an update of another account\'s check with 404 and leaves it unchanged', async () => {
      const mine = await s.a.request('POST', '/v1/checks/tcp', MINIMAL.tcp);
      const res = await s.b.request('PUT', `/v1/checks/tcp/${mine.body.id}`, { name: 'x', frequency: 4 });
      expect(res.status).toBe(404);
      expect((await s.a.request('GET', `/v1/checks/${mine.body.id}`)).body.name).toBe('TCP');
    });

    it('does not half-write a check whose subscriptions are invalid', async () => {
      const before = await countChecks();
      const res = await s.a.request('POST', '/v1/checks/api', { ...MINIMAL.api, alertChannelSubscriptions: [{ alertChannelId: 2147483000, activated: true }] });
      expect(res.status).toBe(400);
      expect(await countChecks()).toBe(before);
    });
  });
});
