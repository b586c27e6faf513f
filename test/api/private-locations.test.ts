import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/domain/api-key.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

let slugCounter = 0;
const uniqueSlug = (base = 'loc') => `${base}-${++slugCounter}`;

describe.each(BACKENDS)('private locations API on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const create = (client: TestClient, body: Record<string, unknown> = {}) =>
    client.request('POST', '/v1/private-locations', { name: 'Office', slugName: uniqueSlug(), ...body });
  /** Locations and keys stored for every account: what a refused request must leave unchanged. */
  const counts = async () => {
    const [row] = await s.lookout.store.db.query<{ locations: number; keys: number }>(
      'SELECT (SELECT count(*)::int FROM private_locations) AS locations, (SELECT count(*)::int FROM private_location_keys) AS keys',
    );
    return row;
  };

  it('creates a location with its first key and shows that raw key in the creation response only', async () => {
    const res = await create(s.a, { name: 'Berlin office', slugName: 'berlin-office', icon: 'building', proxyUrl: 'https://proxy.internal:3128' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Berlin office', slugName: 'berlin-office', icon: 'building', proxyUrl: 'https://proxy.internal:3128',
      keys: [{ id: expect.any(String), rawKey: expect.stringMatching(/^pl_[0-9a-f]{64}$/), maskedKey: expect.any(String), created_at: expect.any(String), updated_at: null }],
      lastSeen: null, agentCount: 0,
      created_at: expect.any(String), updated_at: null,
    });
    const rawKey: string = res.body.keys[0].rawKey;
    expect(res.body.keys[0].maskedKey).toBe(`********${rawKey.slice(-4)}`);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);

    const read = await s.a.request('GET', `/v1/private-locations/${res.body.id}`);
    expect(read.status).toBe(200);
    const { rawKey: _raw, ...maskedOnly } = res.body.keys[0];
    expect(read.body).toEqual({ ...res.body, keys: [maskedOnly] });
    const list = await s.a.request('GET', '/v1/private-locations');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-range')).toBeNull();
    expect(list.body).toContainEqual(read.body);
    for (const text of [read.text, list.text]) expect(text).not.toContain(rawKey);
  });

  it('stores only the sha-256 hash of a key, never the raw key', async () => {
    const res = await create(s.a);
    const rawKey: string = res.body.keys[0].rawKey;
    const rows = await s.lookout.store.db.query('SELECT * FROM private_location_keys WHERE id = $1', [res.body.keys[0].id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(hashApiKey(rawKey));
    expect(JSON.stringify(rows)).not.toContain(rawKey.slice(3));
  });

  it('generates further keys with POST /{id}/keys and never shows their raw value again', async () => {
    const loc = await create(s.a);
    const key = await s.a.request('POST', `/v1/private-locations/${loc.body.id}/keys`);
    expect(key.status).toBe(201);
    expect(key.body).toEqual({
      id: expect.any(String), rawKey: expect.stringMatching(/^pl_[0-9a-f]{64}$/), maskedKey: expect.any(String),
      created_at: expect.any(String), updated_at: null,
    });
    expect(key.body.rawKey).not.toBe(loc.body.keys[0].rawKey);
    const read = await s.a.request('GET', `/v1/private-locations/${loc.body.id}`);
    expect(read.body.keys.map((k: { id: string }) => k.id)).toEqual([loc.body.keys[0].id, key.body.id]);
    expect(read.text).not.toContain('rawKey');
    expect(read.text).not.toContain(key.body.rawKey);
    const updated = await s.a.request('PUT', `/v1/private-locations/${loc.body.id}`, { name: 'Renamed' });
    expect(updated.text).not.toContain('rawKey');
  });

  it('revokes a key with DELETE /{id}/keys/{keyId}', async () => {
    const loc = await create(s.a);
    const keyId = loc.body.keys[0].id;
    const del = await s.a.request('DELETE', `/v1/private-locations/${loc.body.id}/keys/${keyId}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await s.a.request('GET', `/v1/private-locations/${loc.body.id}`)).body.keys).toEqual([]);
    expect((await s.a.request('DELETE', `/v1/private-locations/${loc.body.id}/keys/${keyId}`)).status).toBe(404);
  });

  it('updates the given fields with PUT and keeps the others (null keeps, "" removes)', async () => {
    const loc = await create(s.a, { icon: 'pin', proxyUrl: 'http://proxy:8080' });
    const slug = uniqueSlug('moved');
    const res = await s.a.request('PUT', `/v1/private-locations/${loc.body.id}`, { name: 'Moved', slugName: slug, icon: null, proxyUrl: '' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: loc.body.id, name: 'Moved', slugName: slug, icon: 'pin', proxyUrl: null });
    expect(res.body.updated_at).toEqual(expect.any(String));
    expect((await s.a.request('GET', `/v1/private-locations/${loc.body.id}`)).body).toEqual(res.body);
  });

  it('refuses a slugName already taken in the account with 409, but allows it in another account', async () => {
    const slug = uniqueSlug('taken');
    await create(s.a, { slugName: slug });
    const before = await counts();
    const dup = await create(s.a, { slugName: slug });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(await counts()).toEqual(before);

    const other = await create(s.a);
    const rename = await s.a.request('PUT', `/v1/private-locations/${other.body.id}`, { slugName: slug });
    expect(rename.status).toBe(409);
    expect((await s.a.request('GET', `/v1/private-locations/${other.body.id}`)).body.slugName).toBe(other.body.slugName);

    expect((await create(s.b, { slugName: slug })).status).toBe(201);
  });

  it('refuses to delete or rename a location that a check runs in, and deletes it once unused', async () => {
    const loc = await create(s.a);
    const check = await s.a.request('POST', '/v1/checks/api', { name: 'Intranet', privateLocations: [loc.body.slugName], request: { url: 'https://intranet.test' } });
    expect(check.status).toBe(201);
    const refused = await s.a.request('DELETE', `/v1/private-locations/${loc.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(refused.body.message).toContain('Intranet');
    expect((await s.a.request('PUT', `/v1/private-locations/${loc.body.id}`, { slugName: uniqueSlug() })).status).toBe(409);
    expect((await s.a.request('GET', `/v1/private-locations/${loc.body.id}`)).status).toBe(200);

    await s.a.request('DELETE', `/v1/checks/${check.body.id}`);
    const deleted = await s.a.request('DELETE', `/v1/private-locations/${loc.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await s.a.request('GET', `/v1/private-locations/${loc.body.id}`)).status).toBe(404);
    const keys = await s.lookout.store.db.query('SELECT id FROM private_location_keys WHERE private_location_id = $1', [loc.body.id]);
    expect(keys).toEqual([]);
  });

  it('refuses to delete a location that a check group runs in', async () => {
    const loc = await create(s.a);
    const group = await s.a.request('POST', '/v2/check-groups', { name: 'On premises', privateLocations: [loc.body.slugName] });
    expect(group.status).toBe(201);
    const refused = await s.a.request('DELETE', `/v1/private-locations/${loc.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('On premises');
    await s.a.request('PUT', `/v2/check-groups/${group.body.id}`, { privateLocations: [] });
    expect((await s.a.request('DELETE', `/v1/private-locations/${loc.body.id}`)).status).toBe(204);
  });

  it('is not held back by a check of another account that uses the same slug', async () => {
    const slug = uniqueSlug('shared');
    const mine = await create(s.a, { slugName: slug });
    await create(s.b, { slugName: slug });
    const theirs = await s.b.request('POST', '/v1/checks/api', { name: 'B check', privateLocations: [slug], request: { url: 'https://b.test' } });
    expect(theirs.status).toBe(201);
    expect((await s.a.request('DELETE', `/v1/private-locations/${mine.body.id}`)).status).toBe(204);
  });

  it('keeps locations and keys apart between accounts', async () => {
    const loc = await create(s.a);
    const id = loc.body.id;
    const keyId = loc.body.keys[0].id;
    const before = await counts();
    expect((await s.b.request('GET', `/v1/private-locations/${id}`)).status).toBe(404);
    expect((await s.b.request('PUT', `/v1/private-locations/${id}`, { name: 'Hijacked' })).status).toBe(404);
    expect((await s.b.request('DELETE', `/v1/private-locations/${id}`)).status).toBe(404);
    expect((await s.b.request('POST', `/v1/private-locations/${id}/keys`)).status).toBe(404);
    expect((await s.b.request('DELETE', `/v1/private-locations/${id}/keys/${keyId}`)).status).toBe(404);
    expect((await s.b.request('GET', '/v1/private-locations')).body.map((l: { id: string }) => l.id)).not.toContain(id);
    expect(await counts()).toEqual(before);
    expect((await s.a.request('GET', `/v1/private-locations/${id}`)).body).toMatchObject({ name: 'Office', keys: [{ id: keyId }] });
  });

  it('answers 404 for a key id that belongs to another location of the same account', async () => {
    const one = await create(s.a);
    const two = await create(s.a);
    const res = await s.a.request('DELETE', `/v1/private-locations/${one.body.id}/keys/${two.body.keys[0].id}`);
    expect(res.status).toBe(404);
    expect((await s.a.request('GET', `/v1/private-locations/${two.body.id}`)).body.keys).toHaveLength(1);
  });

  describe('bad input', () => {
    const long = 'x'.repeat(256);
    const bad: [string, string, string, unknown, string][] = [
      ['a missing name', 'POST', '/v1/private-locations', { slugName: 'ok-slug' }, 'name'],
      ['an empty name', 'POST', '/v1/private-locations', { name: '', slugName: 'ok-slug' }, 'name'],
      ['a blank name', 'POST', '/v1/private-locations', { name: '   ', slugName: 'ok-slug' }, 'name'],
      ['a name of 256 characters', 'POST', '/v1/private-locations', { name: long, slugName: 'ok-slug' }, 'name'],
      ['a numeric name', 'POST', '/v1/private-locations', { name: 42, slugName: 'ok-slug' }, 'name'],
      ['a missing slugName', 'POST', '/v1/private-locations', { name: 'n' }, 'slugName'],
      ['an upper-case slugName', 'POST', '/v1/private-locations', { name: 'n', slugName: 'Office' }, 'slugName'],
      ['a slugName starting with a dash', 'POST', '/v1/private-locations', { name: 'n', slugName: '-office' }, 'slugName'],
      ['a slugName with a space', 'POST', '/v1/private-locations', { name: 'n', slugName: 'my office' }, 'slugName'],
      ['a slugName of 64 characters', 'POST', '/v1/private-locations', { name: 'n', slugName: 'a'.repeat(64) }, 'slugName'],
      ['a numeric slugName', 'POST', '/v1/private-locations', { name: 'n', slugName: 7 }, 'slugName'],
      ['a numeric icon', 'POST', '/v1/private-locations', { name: 'n', slugName: 'ok-slug', icon: 3 }, 'icon'],
      ['an ftp proxyUrl', 'POST', '/v1/private-locations', { name: 'n', slugName: 'ok-slug', proxyUrl: 'ftp://proxy' }, 'proxyUrl'],
      ['a proxyUrl that is no URL', 'POST', '/v1/private-locations', { name: 'n', slugName: 'ok-slug', proxyUrl: 'proxy:8080' }, 'proxyUrl'],
      ['a proxyUrl without a host', 'POST', '/v1/private-locations', { name: 'n', slugName: 'ok-slug', proxyUrl: 'http://' }, 'proxyUrl'],
      ['a boolean proxyUrl', 'POST', '/v1/private-locations', { name: 'n', slugName: 'ok-slug', proxyUrl: true }, 'proxyUrl'],
      ['an update with an empty name', 'PUT', '/v1/private-locations/{id}', { name: '' }, 'name'],
      ['an update with a numeric name', 'PUT', '/v1/private-locations/{id}', { name: 42 }, 'name'],
      ['an update with an invalid slugName', 'PUT', '/v1/private-locations/{id}', { slugName: 'UPPER' }, 'slugName'],
      ['an update with an invalid proxyUrl', 'PUT', '/v1/private-locations/{id}', { proxyUrl: 'javascript:alert(1)' }, 'proxyUrl'],
      ['a non-UUID id on GET', 'GET', '/v1/private-locations/abc', undefined, 'id'],
      ['a non-UUID id on PUT', 'PUT', '/v1/private-locations/123', { name: 'n' }, 'id'],
      ['a non-UUID id on DELETE', 'DELETE', '/v1/private-locations/abc', undefined, 'id'],
      ['a non-UUID id on key creation', 'POST', '/v1/private-locations/abc/keys', undefined, 'id'],
      ['a non-UUID key id', 'DELETE', '/v1/private-locations/{id}/keys/xyz', undefined, 'keyId'],
    ];
    it.each(bad)('answers 400 naming the key for %s, and writes nothing', async (_n, method, path, body, key) => {
      const target = path.includes('{id}') ? path.replace('{id}', (await create(s.a)).body.id) : path;
      const before = await counts();
      const res = await s.a.request(method, target, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
      expect(res.body.validation.keys).toContain(key);
      expect(await counts()).toEqual(before);
    });

    it('leaves a location unchanged after a refused update', async () => {
      const loc = await create(s.a);
      const res = await s.a.request('PUT', `/v1/private-locations/${loc.body.id}`, { name: 'Changed', slugName: 'NOT VALID' });
      expect(res.status).toBe(400);
      expect((await s.a.request('GET', `/v1/private-locations/${loc.body.id}`)).body.name).toBe('Office');
    });

    it.each([
      ['GET', '/v1/private-locations/{unknown}', undefined],
      ['PUT', '/v1/private-locations/{unknown}', { name: 'n' }],
      ['DELETE', '/v1/private-locations/{unknown}', undefined],
      ['POST', '/v1/private-locations/{unknown}/keys', undefined],
      ['DELETE', '/v1/private-locations/{unknown}/keys/{unknown}', undefined],
      ['DELETE', '/v1/private-locations/{own}/keys/{unknown}', undefined],
      ['GET', '/v1/private-locations/{other}', undefined],
      ['PUT', '/v1/private-locations/{other}', { name: 'n' }],
      ['DELETE', '/v1/private-locations/{other}', undefined],
      ['POST', '/v1/private-locations/{other}/keys', undefined],
      ['DELETE', '/v1/private-locations/{other}/keys/{otherKey}', undefined],
    ])('answers 404 to %s %s, and writes nothing', async (method, path, body) => {
      const own = await create(s.a);
      const other = await create(s.b);
      const target = path
        .replace('{unknown}', randomUUID()).replace('{unknown}', randomUUID())
        .replace('{own}', own.body.id)
        .replace('{other}', other.body.id).replace('{otherKey}', other.body.keys[0].id);
      const before = await counts();
      const res = await s.a.request(method, target, body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
      expect(await counts()).toEqual(before);
      expect((await s.b.request('GET', `/v1/private-locations/${other.body.id}`)).body).toMatchObject({ name: 'Office', keys: [{ id: other.body.keys[0].id }] });
    });
  });
});
