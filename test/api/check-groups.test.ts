import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(BACKENDS)('check groups API on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const countGroups = async () => Number((await s.a.request('GET', '/v1/check-groups?limit=1')).headers.get('content-range')?.split('/')[1]);

  it('creates a group with defaults through POST /v2/check-groups', async () => {
    const res = await s.a.request('POST', '/v2/check-groups', { name: 'Backend' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Backend', activated: true, muted: false, concurrency: 3, runParallel: false, doubleCheck: false,
      apiCheckDefaults: { url: '', headers: [], queryParameters: [], assertions: [], basicAuth: null },
      tags: [], locations: [], environmentVariables: [], alertChannelSubscriptions: [],
    });
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect((await s.a.request('GET', `/v1/check-groups/${res.body.id}`)).body).toEqual(res.body);
  });

  it('updates a group through PUT /v2/check-groups/{id} and keeps FALLBACK retry strategies', async () => {
    const g = await s.a.request('POST', '/v2/check-groups', { name: 'G', tags: ['x'] });
    const res = await s.a.request('PUT', `/v2/check-groups/${g.body.id}`, { concurrency: 10, retryStrategy: 'FALLBACK', locations: ['eu-west-1'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'G', tags: ['x'], concurrency: 10, retryStrategy: 'FALLBACK', locations: ['eu-west-1'] });
  });

  it('lists the checks of a group with the group settings applied', async () => {
    const g = await s.a.request('POST', '/v2/check-groups', {
      name: 'Applied', locations: ['ap-south-1'], tags: ['grp'], runtimeId: '2024.09',
      apiCheckDefaults: { url: 'https://api.test', headers: [{ key: 'X-Group', value: '1' }] },
      environmentVariables: [{ key: 'G_SECRET', value: 'hush', secret: true }],
    });
    const c = await s.a.request('POST', '/v1/checks/api', { name: 'In group', groupId: g.body.id, tags: ['own'], request: { url: '{{GROUP_BASE_URL}}/v1' } });
    expect(c.status).toBe(201);
    const list = await s.a.request('GET', `/v1/check-groups/${g.body.id}/checks`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-range')).toBe('0-0/1');
    expect(list.body[0]).toMatchObject({
      id: c.body.id, checkType: 'API', locations: ['ap-south-1'], tags: ['grp', 'own'], runtimeId: '2024.09',
      request: { url: 'https://api.test/v1', headers: [{ key: 'X-Group', value: '1' }] },
    });
    expect(list.text).not.toContain('hush');
    const one = await s.a.request('GET', `/v1/check-groups/${g.body.id}/checks/${c.body.id}`);
    expect(one.body).toEqual(list.body[0]);
    expect((await s.a.request('GET', `/v2/check-groups/${g.body.id}/checks`)).body).toEqual(list.body);
    // The check itself still shows its own settings.
    expect((await s.a.request('GET', `/v1/checks/${c.body.id}`)).body.request.url).toBe('{{GROUP_BASE_URL}}/v1');
  });

  it('removes a check from its group with groupId null', async () => {
    const g = await s.a.request('POST', '/v2/check-groups', { name: 'Leave' });
    const c = await s.a.request('POST', '/v1/checks/tcp', { name: 'T', groupId: g.body.id, locations: ['eu-west-1'], request: { hostname: 'h', port: 1 } });
    const upd = await s.a.request('PUT', `/v1/checks/tcp/${c.body.id}`, { groupId: null });
    expect(upd.body.groupId).toBeNull();
    expect((await s.a.request('GET', `/v1/check-groups/${g.body.id}/checks`)).body).toEqual([]);
  });

  it('refuses to delete a group that still has checks, and deletes it once empty', async () => {
    const g = await s.a.request('POST', '/v2/check-groups', { name: 'Busy' });
    const c = await s.a.request('POST', '/v1/checks/tcp', { name: 'T', groupId: g.body.id, request: { hostname: 'h', port: 1 } });
    const refused = await s.a.request('DELETE', `/v1/check-groups/${g.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    await s.a.request('DELETE', `/v1/checks/${c.body.id}`);
    expect((await s.a.request('DELETE', `/v1/check-groups/${g.body.id}`)).status).toBe(204);
    expect((await s.a.request('GET', `/v1/check-groups/${g.body.id}`)).status).toBe(404);
  });

  it('keeps groups apart between accounts', async () => {
    const g = await s.a.request('POST', '/v2/check-groups', { name: 'Private' });
    expect((await s.b.request('GET', `/v1/check-groups/${g.body.id}`)).status).toBe(404);
    expect((await s.b.request('PUT', `/v2/check-groups/${g.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await s.b.request('DELETE', `/v1/check-groups/${g.body.id}`)).status).toBe(404);
    expect((await s.b.request('GET', `/v1/check-groups/${g.body.id}/checks`)).status).toBe(404);
    const intoOther = await s.b.request('POST', '/v1/checks/api', { name: 'x', groupId: g.body.id, request: { url: 'https://x.test' } });
    expect(intoOther.status).toBe(400);
    expect(intoOther.body.validation.keys).toEqual(['groupId']);
    expect((await s.b.request('GET', '/v1/check-groups?limit=100')).body.map((x: { id: number }) => x.id)).not.toContain(g.body.id);
  });

  describe('bad input', () => {
    const bad: [string, string, string, unknown, string][] = [
      ['a missing name', 'POST', '/v2/check-groups', {}, 'name'],
      ['a concurrency of 0', 'POST', '/v2/check-groups', { name: 'g', concurrency: 0 }, 'concurrency'],
      ['a string concurrency', 'POST', '/v2/check-groups', { name: 'g', concurrency: '3' }, 'concurrency'],
      ['an unknown location', 'POST', '/v2/check-groups', { name: 'g', locations: ['moon'] }, 'locations.0'],
      ['an unknown retry strategy string', 'POST', '/v2/check-groups', { name: 'g', retryStrategy: 'SOMETIMES' }, 'retryStrategy'],
      ['an unknown runtime', 'POST', '/v2/check-groups', { name: 'g', runtimeId: 'latest' }, 'runtimeId'],
      ['more than 100 variables', 'POST', '/v2/check-groups', { name: 'g', environmentVariables: Array.from({ length: 101 }, (_, i) => ({ key: `K${i}`, value: 'v' })) }, 'environmentVariables'],
      ['an unknown alert channel', 'POST', '/v2/check-groups', { name: 'g', alertChannelSubscriptions: [{ alertChannelId: 999999, activated: true }] }, 'alertChannelSubscriptions.0.alertChannelId'],
      ['an unknown snippet', 'POST', '/v2/check-groups', { name: 'g', setupSnippetId: 999999 }, 'setupSnippetId'],
      ['an assertion source API checks lack', 'POST', '/v2/check-groups', { name: 'g', apiCheckDefaults: { assertions: [{ source: 'LATENCY', comparison: 'EQUALS' }] } }, 'apiCheckDefaults.assertions.0.source'],
      ['an update with concurrency 0', 'PUT', '/v2/check-groups/{id}', { concurrency: 0 }, 'concurrency'],
      ['a non-integer group id', 'GET', '/v1/check-groups/abc', undefined, 'id'],
      ['a group id of 0', 'GET', '/v1/check-groups/0', undefined, 'id'],
      ['a non-UUID check id in the group route', 'GET', '/v1/check-groups/1/checks/xyz', undefined, 'checkId'],
      ['a limit of 0', 'GET', '/v1/check-groups?limit=0', undefined, 'limit'],
    ];
    it.each(bad)('answers 400 naming the key for %s, and writes nothing', async (_n, method, path, body, key) => {
      let target = path;
      if (path.includes('{id}')) target = path.replace('{id}', (await s.a.request('POST', '/v2/check-groups', { name: 'target' })).body.id);
      const before = await countGroups();
      const res = await s.a.request(method, target, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.validation.keys).toContain(key);
      expect(await countGroups()).toBe(before);
    });

    it.each([
      ['GET', '/v1/check-groups/2147480000'],
      ['PUT', '/v2/check-groups/2147480000'],
      ['DELETE', '/v1/check-groups/2147480000'],
      ['GET', '/v1/check-groups/2147480000/checks'],
    ])('answers 404 for %s %s (unknown id)', async (method, path) => {
      const res = await s.a.request(method, path, method === 'PUT' ? { name: 'x' } : undefined);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    });
  });
});
