import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** `GET /v1/checks?privateLocation=<slugName>`: the checks a private location runs (GraphQL's PrivateLocation.checks). */
describe.each(BACKENDS)('the privateLocation filter of GET /v1/checks on $name', (backend) => {
  let s: TestServer;

  const ok = async (client: TestClient, method: string, path: string, body: unknown) => {
    const res = await client.request(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const names = async (client: TestClient, query: string) =>
    ((await client.request('GET', `/v1/checks?limit=100&${query}`)).body as { name: string }[]).map((c) => c.name).sort();

  beforeAll(async () => {
    s = await startTestServer({ backend });
    for (const slugName of ['lab', 'edge']) await ok(s.a, 'POST', '/v1/private-locations', { name: slugName, slugName });
    await ok(s.b, 'POST', '/v1/private-locations', { name: 'Their lab', slugName: 'lab' });
    const request = { url: 'https://example.test/' };
    await ok(s.a, 'POST', '/v1/checks/api', { name: 'Lab only', request, privateLocations: ['lab'] });
    await ok(s.a, 'POST', '/v1/checks/url', { name: 'Lab and edge', request, privateLocations: ['edge', 'lab'] });
    await ok(s.a, 'POST', '/v1/checks/api', { name: 'Edge only', request, privateLocations: ['edge'], locations: ['eu-west-1'] });
    await ok(s.a, 'POST', '/v1/checks/api', { name: 'Public only', request, locations: ['eu-west-1'] });
    const group = await ok(s.a, 'POST', '/v1/check-groups', { name: 'Lab group', privateLocations: ['lab'] });
    await ok(s.a, 'POST', '/v1/checks/api', { name: 'Lab through its group', request, groupId: group.id });
    await ok(s.b, 'POST', '/v1/checks/api', { name: 'Their lab check', request, privateLocations: ['lab'] });
  });
  afterAll(async () => s?.close());

  it('lists the checks that name the slug among their own private locations', async () => {
    expect(await names(s.a, 'privateLocation=lab')).toEqual(['Lab and edge', 'Lab only']);
    expect(await names(s.a, 'privateLocation=edge')).toEqual(['Edge only', 'Lab and edge']);
  });

  it('leaves out checks that run in the location only through their group', async () => {
    expect(await names(s.a, 'privateLocation=lab')).not.toContain('Lab through its group');
  });

  it('combines with the other filters and pages with the total in Content-Range', async () => {
    expect(await names(s.a, 'privateLocation=lab&checkType=URL')).toEqual(['Lab and edge']);
    const page = await s.a.request('GET', '/v1/checks?privateLocation=edge&limit=1&page=2');
    expect(page.body).toHaveLength(1);
    expect(page.headers.get('content-range')).toBe('1-1/2');
  });

  it('matches nothing for a slug no check names', async () => {
    const res = await s.a.request('GET', '/v1/checks?privateLocation=nowhere');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('content-range')).toBe('*/0');
  });

  it('keeps each account to its own checks when two accounts use the same slug', async () => {
    expect(await names(s.b, 'privateLocation=lab')).toEqual(['Their lab check']);
    expect(await names(s.a, 'privateLocation=lab')).not.toContain('Their lab check');
  });

  it('is documented in /openapi.json', async () => {
    const spec = (await s.raw('GET', '/openapi.json')).body;
    const param = spec.paths['/v1/checks'].get.parameters.find((p: { name: string }) => p.name === 'privateLocation');
    expect(param).toMatchObject({ in: 'query', schema: { type: 'string', pattern: expect.any(String) } });
  });

  it.each<[string, string]>([
    ['upper-case letters', 'Lab'],
    ['a space', 'my%20lab'],
    ['a leading dash', '-lab'],
    ['an empty slug', ''],
    ['more than 63 characters', 'a'.repeat(64)],
  ])('answers 400 naming privateLocation for a slug with %s', async (_label, slug) => {
    const res = await s.a.request('GET', `/v1/checks?privateLocation=${slug}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: expect.any(String), message: expect.any(String) });
    expect(res.body.validation.keys).toContain('privateLocation');
    expect(res.body.validation.source).toBe('query');
  });
});
