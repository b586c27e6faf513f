import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

/** Asserts the error body of conventions.md and, for 400s, that `key` is named. */
function expectError(res: TestResponse, status: number, key?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  if (key !== undefined) expect(res.body.validation.keys).toContain(key);
}

const pick = (view: Record<string, any>, fields: string[]) =>
  Object.fromEntries(['id', ...fields].filter((f) => Object.hasOwn(view, f)).map((f) => [f, view[f]]));

describe.each(BACKENDS)('sparse fieldsets of the check reads on $name', (backend) => {
  let s: TestServer;
  let a: TestClient;
  let full: Record<string, any>[];

  beforeAll(async () => {
    s = await startTestServer({ backend });
    a = s.a;
    const channel = await a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'ops@example.com' } });
    expect(channel.status).toBe(201);
    const group = await a.request('POST', '/v1/check-groups', { name: 'Group', locations: ['eu-west-1'] });
    expect(group.status).toBe(201);
    const bodies = [
      { name: 'API', tags: ['a'], groupId: group.body.id, request: { url: 'https://example.test/health', headers: [{ key: 'X', value: '1' }] }, environmentVariables: [{ key: 'S', value: 'secret', secret: true }] },
      { name: 'Heartbeat', heartbeat: { period: 1, periodUnit: 'hours', grace: 10, graceUnit: 'minutes' } },
      { name: 'Browser', script: "await page.goto('https://example.test')", muted: true },
    ];
    const segments = ['api', 'heartbeat', 'browser'];
    for (const [i, body] of bodies.entries()) {
      const res = await a.request('POST', `/v1/checks/${segments[i]}`, { ...body, alertChannelSubscriptions: [{ alertChannelId: channel.body.id, activated: true }] });
      expect(res.status, res.text).toBe(201);
    }
    full = (await a.request('GET', '/v1/checks?limit=100')).body;
    expect(full).toHaveLength(3);
  });
  afterAll(async () => s?.close());

  it.each([
    ['scalars of the list', ['name', 'checkType', 'activated', 'muted', 'tags', 'groupId']],
    ['subscriptions without their channels', ['alertChannelSubscriptions']],
    ['the channels of the subscriptions', ['alertChannels']],
    ['the bulky parts (request, script, heartbeat, redacted variables)', ['request', 'script', 'heartbeat', 'environmentVariables']],
    ['timestamps', ['created_at', 'updated_at']],
    ['id alone', ['id']],
  ])('answers only %s on GET /v1/checks and GET /v1/checks/{id}, equal to the same fields of the whole check', async (_name, fields) => {
    const list = await a.request('GET', `/v1/checks?limit=100&fields=${fields.join(',')}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual(full.map((c) => pick(c, fields)));
    for (const check of full) {
      const one = await a.request('GET', `/v1/checks/${check.id}?${fields.map((f) => `fields=${f}`).join('&')}`);
      expect(one.status, one.text).toBe(200);
      expect(one.body).toEqual(pick(check, fields));
    }
  });

  it('takes fields comma-separated, repeated and as fields[], together with the other filters and pages', async () => {
    const res = await a.request('GET', '/v1/checks?limit=1&page=2&fields=name&fields[]=tags&fields=checkType,muted');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([pick(full[1]!, ['name', 'tags', 'checkType', 'muted'])]);
    expect(res.headers.get('content-range')).toBe('1-1/3');
    const filtered = await a.request('GET', `/v1/checks?tag=a&fields=name&ids=${full[0]!.id}`);
    expect(filtered.body).toEqual([{ id: full[0]!.id, name: 'API' }]);
  });

  it('answers every field without fields= or with an empty one', async () => {
    expect((await a.request('GET', '/v1/checks?limit=100&fields=')).body).toEqual(full);
    expect((await a.request('GET', `/v1/checks/${full[0]!.id}`)).body).toEqual(full[0]);
  });

  it('answers 404 for an unknown check whatever the fields', async () => {
    expectError(await a.request('GET', '/v1/checks/00000000-0000-4000-8000-000000000000?fields=name'), 404);
  });

  describe('bad input', () => {
    it.each([
      ['an unknown field on the list', '/v1/checks?fields=name,nope', 'nope'],
      ['an unknown field repeated on the list', '/v1/checks?fields=name&fields=alsoNope', 'alsoNope'],
      ['an unknown field on a check', '/v1/checks/00000000-0000-4000-8000-000000000000?fields=nope', 'nope'],
      ['a result field on a check', '/v1/checks/00000000-0000-4000-8000-000000000000?fields=startedAt', 'startedAt'],
    ])('answers 400 naming fields and the value for %s', async (_name, path, value) => {
      const res = await a.request('GET', path);
      expectError(res, 400, 'fields');
      expect(res.text).toContain(value);
    });

    it.each([
      ['more than 100 fields', `/v1/checks?${Array.from({ length: 101 }, () => 'fields=name').join('&')}`],
      ['a field name over 100 characters', `/v1/checks?fields=${'x'.repeat(101)}`],
    ])('answers 400 for %s', async (_name, path) => {
      expectError(await a.request('GET', path), 400);
    });
  });
});
