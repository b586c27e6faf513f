import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const API = { name: 'Semantics', locations: ['eu-west-1'], request: { url: 'https://example.test/' } };

describe.each(BACKENDS)('update semantics on $name', (backend) => {
  let s: TestServer;
  let channelId: number;
  let slug: string;
  beforeAll(async () => {
    s = await startTestServer({ backend });
    channelId = (await s.a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'ops@example.test' } })).body.id;
    slug = (await s.a.request('POST', '/v1/private-locations', { name: 'Office', slugName: 'office-semantics' })).body.slugName;
  });
  afterAll(async () => s?.close());

  const createCheck = async (body: Record<string, unknown> = {}) => {
    const res = await s.a.request('POST', '/v1/checks/api', { ...API, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, any>;
  };

  describe('partial objects on create are filled key by key', () => {
    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ['reminders without amount', { alertSettings: { reminders: { interval: 10 } } }, { alertSettings: { reminders: { amount: 0, interval: 10 } } }],
      ['a parallel threshold without enabled', { alertSettings: { parallelRunFailureThreshold: { percentage: 50 } } }, { alertSettings: { parallelRunFailureThreshold: { enabled: false, percentage: 50 } } }],
      ['empty SSL certificate settings', { alertSettings: { sslCertificates: {} } }, { alertSettings: { sslCertificates: { enabled: false, alertThreshold: 30 } } }],
      ['an empty run-based escalation', { alertSettings: { runBasedEscalation: {} } }, { alertSettings: { runBasedEscalation: { failedRunThreshold: 1 } } }],
      ['a retry strategy with its type only', { retryStrategy: { type: 'LINEAR' } }, { retryStrategy: { type: 'LINEAR', baseBackoffSeconds: 60, maxRetries: 2, maxDurationSeconds: 600, sameRegion: true } }],
      ['a header without value', { request: { url: 'https://example.test/', headers: [{ key: 'X-A' }] } }, { request: { headers: [{ key: 'X-A', value: '', locked: false }] } }],
      ['basic auth without password', { request: { url: 'https://example.test/', basicAuth: { username: 'u' } } }, { request: { basicAuth: { username: 'u', password: '' } } }],
      ['an assertion without property', { request: { url: 'https://example.test/', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } },
        { request: { assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', property: null, regex: null }] } }],
      ['an assertion with an empty property (stored as none)', { request: { url: 'https://example.test/', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', property: '' }] } },
        { request: { assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', property: null, regex: null }] } }],
      ['null for optional fields (not given)', { activated: null, muted: null, tags: null, frequency: null, alertSettings: null },
        { activated: true, muted: false, tags: [], frequency: 10, alertSettings: { escalationType: 'RUN_BASED' } }],
      ['a script on an API check (stored and echoed)', { script: 'console.log(1)' }, { script: 'console.log(1)' }],
    ])('fills %s', async (_label, body, expected) => {
      const created = await createCheck(body);
      expect(created).toMatchObject(expected);
      expect((await s.a.request('GET', `/v1/checks/${created.id}`)).body).toMatchObject(expected);
    });

    it('fills a heartbeat left without grace with 0', async () => {
      const res = await s.a.request('POST', '/v1/checks/heartbeat', { name: 'hb', heartbeat: { period: 1, periodUnit: 'hours', graceUnit: 'minutes' } });
      expect(res.status).toBe(201);
      expect(res.body.heartbeat).toMatchObject({ period: 1, periodUnit: 'hours', grace: 0, graceUnit: 'minutes' });
    });
  });

  describe('partial objects on update merge over the stored ones key by key', () => {
    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ['one reminder key', { alertSettings: { reminders: { amount: 2 } } }, { alertSettings: { escalationType: 'TIME_BASED', reminders: { amount: 2, interval: 15 } } }],
      ['the escalation type alone', { alertSettings: { escalationType: 'RUN_BASED' } }, { alertSettings: { escalationType: 'RUN_BASED', reminders: { amount: 1, interval: 15 } } }],
      ['one retry key', { retryStrategy: { maxRetries: 4 } }, { retryStrategy: { type: 'FIXED', baseBackoffSeconds: 5, maxRetries: 4 } }],
      ['one request key', { request: { method: 'HEAD' } }, { request: { method: 'HEAD', url: 'https://example.test/', basicAuth: { username: 'u', password: 'p' } } }],
      ['one basic auth key', { request: { basicAuth: { password: 'q' } } }, { request: { basicAuth: { username: 'u', password: 'q' } } }],
    ])('keeps what %s does not name', async (_label, update, expected) => {
      const created = await createCheck({
        alertSettings: { escalationType: 'TIME_BASED', reminders: { amount: 1, interval: 15 } },
        retryStrategy: { type: 'FIXED', baseBackoffSeconds: 5, maxRetries: 2 },
        request: { url: 'https://example.test/', basicAuth: { username: 'u', password: 'p' } },
      });
      const res = await s.a.request('PUT', `/v1/checks/api/${created.id}`, update);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject(expected);
    });
  });

  describe('null or absent leaves a list as stored, [] empties it', () => {
    const LISTS: [string, (c: Record<string, any>) => unknown, (v: unknown) => Record<string, unknown>][] = [
      ['locations', (c) => c.locations, (v) => ({ locations: v })],
      ['privateLocations', (c) => c.privateLocations, (v) => ({ privateLocations: v })],
      ['tags', (c) => c.tags, (v) => ({ tags: v })],
      ['environmentVariables', (c) => c.environmentVariables, (v) => ({ environmentVariables: v })],
      ['alertChannelSubscriptions', (c) => c.alertChannelSubscriptions, (v) => ({ alertChannelSubscriptions: v })],
      ['request.headers', (c) => c.request.headers, (v) => ({ request: { headers: v } })],
      ['request.queryParameters', (c) => c.request.queryParameters, (v) => ({ request: { queryParameters: v } })],
      ['request.assertions', (c) => c.request.assertions, (v) => ({ request: { assertions: v } })],
      ['retryStrategy.onlyOn', (c) => c.retryStrategy.onlyOn, (v) => ({ retryStrategy: { onlyOn: v } })],
    ];
    const full = () => createCheck({
      privateLocations: [slug], tags: ['t'], environmentVariables: [{ key: 'K', value: 'v' }],
      alertChannelSubscriptions: [{ alertChannelId: channelId, activated: true }],
      retryStrategy: { type: 'FIXED', onlyOn: ['NETWORK_ERROR'] },
      request: {
        url: 'https://example.test/', headers: [{ key: 'H', value: 'h' }], queryParameters: [{ key: 'q', value: '1' }],
        assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }],
      },
    });

    it.each(LISTS)('leaves %s as stored when it is null or absent, and empties it with []', async (_name, read, set) => {
      const created = await full();
      const before = read(created);
      expect(before).not.toEqual([]);
      for (const body of [set(null), {}, set(undefined)]) {
        const res = await s.a.request('PUT', `/v1/checks/api/${created.id}?autoAssignAlerts=false`, body);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(read(res.body)).toEqual(before);
      }
      const emptied = await s.a.request('PUT', `/v1/checks/api/${created.id}?autoAssignAlerts=false`, set([]));
      expect(emptied.status, JSON.stringify(emptied.body)).toBe(200);
      expect(read(emptied.body)).toEqual([]);
      expect(read((await s.a.request('GET', `/v1/checks/${created.id}`)).body)).toEqual([]);
    });

    it.each([
      ['tags', { tags: ['g'] }],
      ['locations', { locations: ['eu-west-1'] }],
      ['privateLocations', { privateLocations: [] as string[] }],
      ['environmentVariables', { environmentVariables: [{ key: 'G', value: 'g' }] }],
      ['apiCheckDefaults.headers', { apiCheckDefaults: { headers: [{ key: 'X', value: 'x' }] } }],
    ])('leaves a group\'s %s as stored when null, and empties it with [] (v1 and v2)', async (name, body) => {
      const read = (g: Record<string, any>) => name.split('.').reduce((o: any, k) => o[k], g);
      for (const v of ['v1', 'v2']) {
        const created = await s.a.request('POST', `/${v}/check-groups`, { name: `G ${name}`, ...body, privateLocations: [slug] });
        const before = read(created.body);
        const path = name.split('.');
        const wrap = (value: unknown) => (path.length === 2 ? { [path[0]!]: { [path[1]!]: value } } : { [name]: value });
        expect(read((await s.a.request('PUT', `/${v}/check-groups/${created.body.id}`, wrap(null))).body)).toEqual(before);
        const emptied = await s.a.request('PUT', `/${v}/check-groups/${created.body.id}`, wrap([]));
        expect(emptied.status, JSON.stringify(emptied.body)).toBe(200);
        expect(read(emptied.body)).toEqual([]);
      }
    });
  });

  describe('the fields null clears', () => {
    it('removes a check from its group with groupId null (conventions.md)', async () => {
      const group = await s.a.request('POST', '/v2/check-groups', { name: 'Left' });
      const created = await createCheck({ groupId: group.body.id });
      expect((await s.a.request('PUT', `/v1/checks/api/${created.id}`, { groupId: null })).body.groupId).toBeNull();
    });

    it('turns retries off with retryStrategy null (conventions.md: null means no retries)', async () => {
      const created = await createCheck({ retryStrategy: { type: 'FIXED' } });
      expect((await s.a.request('PUT', `/v1/checks/api/${created.id}`, { retryStrategy: null })).body.retryStrategy).toBeNull();
    });

    it('detaches a setup snippet with setupSnippetId null (an id cannot be cleared otherwise)', async () => {
      const snippet = await s.a.request('POST', '/v1/snippets', { name: 's', script: '' });
      const created = await createCheck({ setupSnippetId: snippet.body.id });
      expect((await s.a.request('PUT', `/v1/checks/api/${created.id}`, { setupSnippetId: null })).body.setupSnippetId).toBeNull();
    });

    it('leaves every other field as stored when sent null', async () => {
      const created = await createCheck({ muted: true, description: 'kept', frequency: 5, runtimeId: '2024.09', degradedResponseTime: 100 });
      const res = await s.a.request('PUT', `/v1/checks/api/${created.id}`, {
        name: null, muted: null, description: null, frequency: null, runtimeId: null, degradedResponseTime: null, request: null, alertSettings: null,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { updated_at: _a, ...after } = res.body;
      const { updated_at: _b, ...before } = created;
      expect(after).toEqual(before);
    });
  });

  describe('other resources', () => {
    it('merges a partial alert channel config and keeps settings sent as null', async () => {
      const hook = await s.a.request('POST', '/v1/alert-channels', {
        type: 'WEBHOOK', sendDegraded: true, config: { name: 'Hook', url: 'https://hooks.example.test/a', template: '{"a":1}', headers: [{ key: 'X', value: 'x' }] },
      });
      const res = await s.a.request('PUT', `/v1/alert-channels/${hook.body.id}`, { sendDegraded: null, type: null, config: { url: 'https://hooks.example.test/b', template: null } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ sendDegraded: true, config: { name: 'Hook', url: 'https://hooks.example.test/b', template: '{"a":1}', headers: [{ key: 'X', value: 'x', locked: false }] } });
    });

    it('keeps a variable\'s fields sent as null', async () => {
      await s.a.request('POST', '/v1/variables', { key: 'NULLS', value: 'v', locked: true });
      const res = await s.a.request('PUT', '/v1/variables/NULLS', { key: null, value: null, locked: null, secret: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ key: 'NULLS', value: 'v', locked: true, secret: false });
    });

    it('keeps a snippet\'s fields sent as null', async () => {
      const created = await s.a.request('POST', '/v1/snippets', { name: 'n', script: 'x' });
      const res = await s.a.request('PUT', `/v1/snippets/${created.body.id}`, { name: null, script: null });
      expect(res.body).toMatchObject({ name: 'n', script: 'x' });
    });

    it('keeps a private location\'s fields sent as null and removes an icon sent as ""', async () => {
      const created = await s.a.request('POST', '/v1/private-locations', { name: 'P', slugName: 'p-nulls', icon: 'pin' });
      const kept = await s.a.request('PUT', `/v1/private-locations/${created.body.id}`, { name: null, slugName: null, icon: null, proxyUrl: null });
      expect(kept.body).toMatchObject({ name: 'P', slugName: 'p-nulls', icon: 'pin', proxyUrl: null });
      expect((await s.a.request('PUT', `/v1/private-locations/${created.body.id}`, { icon: '' })).body.icon).toBeNull();
    });
  });

  describe('wrong types still answer 400 naming the key, and write nothing', () => {
    it.each<[string, string, unknown, string]>([
      ['a string reminder amount on create', 'POST /v1/checks/api', { ...API, alertSettings: { reminders: { amount: '2' } } }, 'alertSettings.reminders.amount'],
      ['a string parallel flag on update', 'PUT /v1/checks/api/{id}', { alertSettings: { parallelRunFailureThreshold: { enabled: 'yes' } } }, 'alertSettings.parallelRunFailureThreshold.enabled'],
      ['a number for SSL certificates', 'PUT /v1/checks/api/{id}', { alertSettings: { sslCertificates: 3 } }, 'alertSettings.sslCertificates'],
      ['a string for locations', 'PUT /v1/checks/api/{id}', { locations: 'eu-west-1' }, 'locations'],
      ['a number in a header value', 'PUT /v1/checks/api/{id}', { request: { headers: [{ key: 'a', value: 1 }] } }, 'request.headers.0.value'],
      ['an object for a variable value', 'PUT /v1/checks/api/{id}', { environmentVariables: [{ key: 'A', value: {} }] }, 'environmentVariables.0.value'],
      ['a string for the basic auth password', 'PUT /v1/checks/{id}', { request: { basicAuth: { password: 5 } } }, 'request.basicAuth.password'],
      ['a string for a heartbeat grace', 'POST /v1/checks/heartbeat', { name: 'h', heartbeat: { period: 1, periodUnit: 'hours', grace: '1', graceUnit: 'hours' } }, 'heartbeat.grace'],
      ['a number for a group tag list', 'PUT /v2/check-groups/{group}', { tags: 5 }, 'tags'],
      ['a string for group API default headers', 'PUT /v1/check-groups/{group}', { apiCheckDefaults: { headers: 'x' } }, 'apiCheckDefaults.headers'],
      ['a string for a subscription flag', 'PUT /v1/checks/api/{id}', { alertChannelSubscriptions: [{ alertChannelId: 1, activated: 'no' }] }, 'alertChannelSubscriptions.0.activated'],
      ['a number for a variable locked flag', 'PUT /v1/variables/WRONG', { locked: 1 }, 'locked'],
      ['a number for a snippet script', 'PUT /v1/snippets/{snippet}', { script: 1 }, 'script'],
    ])('%s', async (_label, route, body, key) => {
      const [method, rawPath] = route.split(' ') as [string, string];
      const check = await createCheck();
      const group = (await s.a.request('POST', '/v2/check-groups', { name: 'wrong types' })).body;
      const snippet = (await s.a.request('POST', '/v1/snippets', { name: 'w', script: '' })).body;
      await s.a.request('POST', '/v1/variables', { key: 'WRONG', value: 'w' });
      const path = rawPath.replace('{id}', check.id).replace('{group}', String(group.id)).replace('{snippet}', String(snippet.id));
      const before = (await s.a.request('GET', `/v1/checks/${check.id}`)).body;
      const res = await s.a.request(method, path, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', validation: { source: 'payload' } });
      expect(res.body.validation.keys).toContain(key);
      expect((await s.a.request('GET', `/v1/checks/${check.id}`)).body).toEqual(before);
    });
  });
});
