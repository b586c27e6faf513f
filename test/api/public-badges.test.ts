import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { gql, gqlData } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

describe.each(BACKENDS)('public badge URLs on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend, config: { publicUrl: 'https://lookout.example.test/' } });
  });
  afterAll(async () => s?.close());

  const createCheck = async (client: TestClient, name = 'Storefront') => {
    const res = await client.request('POST', '/v1/checks/api', { name, request: { url: 'https://shop.test' } });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const createGroup = async (client: TestClient, name = 'Payments') => {
    const res = await client.request('POST', '/v1/check-groups', { name, locations: ['eu-west-1'] });
    expect(res.status).toBe(201);
    return res.body as { id: number };
  };
  const badgeRows = async () => (await s.lookout.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public_badges'))[0]!.n;

  it('serves nothing public until the badge is published, then the badge without an API key', async () => {
    const check = await createCheck(s.a, 'Checkout API');
    expect((await s.a.request('GET', `/v1/badges/checks/${check.id}/public`)).status).toBe(404);

    const published = await s.a.request('POST', `/v1/badges/checks/${check.id}/public`);
    expect(published.status).toBe(201);
    expect(published.body).toEqual({
      token: expect.stringMatching(/^pb_[A-Za-z0-9_-]{32}$/), url: `https://lookout.example.test/badges/${published.body.token}`,
      checkId: check.id, groupId: null, created_at: expect.any(String),
    });
    const image = await s.raw('GET', `/badges/${published.body.token}?style=for-the-badge`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toContain('image/svg+xml');
    expect(image.headers.get('cache-control')).toBe('public, max-age=60');
    expect(image.text).toContain('CHECKOUT API'); // the for-the-badge style writes capitals
    expect(image.text).toContain('UNKNOWN');
  });

  it('keeps the URL on a second publish and shows it again, so an embedded URL keeps working', async () => {
    const check = await createCheck(s.a);
    const first = await s.a.request('POST', `/v1/badges/checks/${check.id}/public`);
    const second = await s.a.request('POST', `/v1/badges/checks/${check.id}/public`);
    expect(second.body.token).toBe(first.body.token);
    expect((await s.a.request('GET', `/v1/badges/checks/${check.id}/public`)).body).toEqual(first.body);
  });

  it('revokes the URL on delete (404 from then on) and gives a new one when published again', async () => {
    const check = await createCheck(s.a);
    const first = await s.a.request('POST', `/v1/badges/checks/${check.id}/public`);
    expect((await s.a.request('DELETE', `/v1/badges/checks/${check.id}/public`)).status).toBe(204);
    const revoked = await s.raw('GET', `/badges/${first.body.token}`);
    expect(revoked.status).toBe(404);
    expect(revoked.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect((await s.a.request('DELETE', `/v1/badges/checks/${check.id}/public`)).status).toBe(404);
    const again = await s.a.request('POST', `/v1/badges/checks/${check.id}/public`);
    expect(again.body.token).not.toBe(first.body.token);
    expect((await s.raw('GET', `/badges/${again.body.token}`)).status).toBe(200);
  });

  it('publishes a group badge: the worst state of its checks, by its own URL', async () => {
    const group = await createGroup(s.a, 'Payments group');
    const published = await s.a.request('POST', `/v1/badges/groups/${group.id}/public`);
    expect(published.status).toBe(201);
    expect(published.body).toMatchObject({ groupId: group.id, checkId: null });
    const image = await s.raw('GET', `/badges/${published.body.token}?responseTime=true`);
    expect(image.status).toBe(200);
    expect(image.text).toContain('Payments group');
  });

  it('drops the URL with its check or group', async () => {
    const check = await createCheck(s.a);
    const group = await createGroup(s.a);
    const c = await s.a.request('POST', `/v1/badges/checks/${check.id}/public`);
    const g = await s.a.request('POST', `/v1/badges/groups/${group.id}/public`);
    expect((await s.a.request('DELETE', `/v1/checks/${check.id}`)).status).toBe(204);
    expect((await s.a.request('DELETE', `/v1/check-groups/${group.id}`)).status).toBe(204);
    expect((await s.raw('GET', `/badges/${c.body.token}`)).status).toBe(404);
    expect((await s.raw('GET', `/badges/${g.body.token}`)).status).toBe(404);
  });

  it('keeps accounts apart: another account can neither publish, read nor revoke the URL of a check or group it does not own', async () => {
    const check = await createCheck(s.a);
    const group = await createGroup(s.a);
    const before = await badgeRows();
    for (const path of [`/v1/badges/checks/${check.id}/public`, `/v1/badges/groups/${group.id}/public`]) {
      expect((await s.b.request('POST', path)).status).toBe(404);
      expect(await badgeRows()).toBe(before);
    }
    const published = await s.a.request('POST', `/v1/badges/checks/${check.id}/public`);
    expect((await s.b.request('GET', `/v1/badges/checks/${check.id}/public`)).status).toBe(404);
    expect((await s.b.request('DELETE', `/v1/badges/checks/${check.id}/public`)).status).toBe(404);
    expect((await s.raw('GET', `/badges/${published.body.token}`)).status).toBe(200);
  });

  it('needs an API key for every route but the public badge itself', async () => {
    const check = await createCheck(s.a);
    for (const method of ['POST', 'GET', 'DELETE']) {
      expect((await s.raw(method, `/v1/badges/checks/${check.id}/public`)).status).toBe(401);
    }
  });

  it.each([
    ['POST', '/v1/badges/checks/not-a-uuid/public', 'params', 'checkId'],
    ['GET', '/v1/badges/groups/0/public', 'params', 'groupId'],
    ['DELETE', '/v1/badges/groups/abc/public', 'params', 'groupId'],
    ['GET', '/badges/short', 'params', 'token'],
    ['GET', '/badges/pb_has.dots.in.it', 'params', 'token'],
    ['GET', '/badges/pb_0123456789abcdef?style=glossy', 'query', 'style'],
    ['GET', '/badges/pb_0123456789abcdef?responseTime=maybe', 'query', 'responseTime'],
  ])('refuses %s %s with 400 naming %s.%s', async (method, path, source, key) => {
    const before = await badgeRows();
    const res = method === 'GET' && path.startsWith('/badges/') ? await s.raw(method, path) : await s.a.request(method, path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, validation: { source, keys: [key] } });
    expect(await badgeRows()).toBe(before);
  });

  it('answers 404 for a token that was never issued', async () => {
    const res = await s.raw('GET', '/badges/pb_0123456789abcdefghijklmnopqrstuv');
    expect(res.status).toBe(404);
  });

  describe('through GraphQL', () => {
    const PUBLISH = 'mutation($id: ID!) { publishCheckBadge(checkId: $id) { publicBadge { url createdAt } userErrors { field code message } } }';
    const REVOKE = 'mutation($id: ID!) { revokeCheckBadge(checkId: $id) { publicBadge { url } userErrors { field code message } } }';
    const READ = 'query($id: ID!) { check(id: $id) { badge { publicBadge { url } } } }';

    it('publishes, shows and revokes a check badge URL, the same as REST', async () => {
      const check = await createCheck(s.a, 'Graph badge');
      expect((await gqlData(s.a, READ, { id: check.id })).check.badge.publicBadge).toBeNull();
      const published = (await gqlData(s.a, PUBLISH, { id: check.id })).publishCheckBadge;
      expect(published.userErrors).toEqual([]);
      const rest = await s.a.request('GET', `/v1/badges/checks/${check.id}/public`);
      expect(published.publicBadge).toEqual({ url: rest.body.url, createdAt: rest.body.created_at });
      expect((await gqlData(s.a, READ, { id: check.id })).check.badge.publicBadge).toEqual({ url: rest.body.url });
      expect((await gqlData(s.a, REVOKE, { id: check.id })).revokeCheckBadge).toEqual({ publicBadge: null, userErrors: [] });
      expect((await s.raw('GET', `/badges/${rest.body.token}`)).status).toBe(404);
    });

    it('publishes and revokes a group badge URL, shown on the group', async () => {
      const group = await createGroup(s.a, 'Graph group');
      const published = (await gqlData(s.a, 'mutation($id: ID!) { publishCheckGroupBadge(groupId: $id) { publicBadge { url } userErrors { field } } }', { id: String(group.id) })).publishCheckGroupBadge;
      expect(published.publicBadge.url).toMatch(/\/badges\/pb_/);
      const read = await gqlData(s.a, 'query($id: ID!) { checkGroup(id: $id) { publicBadge { url } } }', { id: String(group.id) });
      expect(read.checkGroup.publicBadge).toEqual(published.publicBadge);
      expect((await gqlData(s.a, 'mutation($id: ID!) { revokeCheckGroupBadge(groupId: $id) { publicBadge { url } userErrors { field } } }', { id: String(group.id) })).revokeCheckGroupBadge)
        .toEqual({ publicBadge: null, userErrors: [] });
    });

    it.each([
      ['an id that is no check id', 'not-a-check'],
      ["another account's check", 'OTHER'],
    ])('answers a coded error for %s and publishes nothing', async (_what, id) => {
      const other = await createCheck(s.b);
      const before = await badgeRows();
      const res = await gql(s.a, PUBLISH, { id: id === 'OTHER' ? other.id : id });
      expect(res.errors?.[0]?.extensions?.code).toEqual(expect.stringMatching(/^(BAD_USER_INPUT|NOT_FOUND)$/));
      expect(await badgeRows()).toBe(before);
    });
  });
});
