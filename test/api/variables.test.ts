import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

/** Asserts the error body of conventions.md and, for 400s, that `key` is named. */
function expectError(res: TestResponse, status: number, key?: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  if (key !== undefined) expect(res.body.validation.keys).toContain(key);
}

describe.each(BACKENDS)('environment variables on $name', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;
  let n = 0;
  /** A key no other test uses. */
  const freshKey = () => `VAR_${++n}`;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ a, b } = server);
  });
  afterAll(async () => server?.close());

  const create = async (client: TestClient, body: Record<string, unknown>) => {
    const res = await client.request('POST', '/v1/variables', body);
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  /** Every stored variable of every account, values included. */
  const snapshot = () => server.lookout.store.db.query('SELECT * FROM environment_variables ORDER BY account_id, key');

  it('creates a variable with locked and secret off by default and reads it back', async () => {
    const key = freshKey();
    const created = await create(a, { key, value: 'https://staging.example.com' });
    expect(created).toEqual({ key, value: 'https://staging.example.com', locked: false, secret: false, created_at: expect.any(String), updated_at: null });
    const read = await a.request('GET', `/v1/variables/${key}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
  });

  it('reads a secret variable\'s value back as null everywhere while keeping it stored', async () => {
    const key = freshKey();
    const value = 'sup3r-secret-token-value';
    const responses: TestResponse[] = [];
    const created = await a.request('POST', '/v1/variables', { key, value, secret: true, locked: true });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key, value: null, secret: true, locked: true });
    responses.push(created);
    responses.push(await a.request('GET', `/v1/variables/${key}`));
    responses.push(await a.request('GET', '/v1/variables?limit=100'));
    const updated = await a.request('PUT', `/v1/variables/${key}`, { locked: false });
    expect(updated.body).toMatchObject({ key, value: null, secret: true, locked: false });
    responses.push(updated);
    responses.push(await a.request('PUT', `/v1/variables/${key}`, { value: 'another-secret-value', secret: true }));
    for (const res of responses) {
      expect(res.status).toBeLessThan(300);
      expect(res.text).not.toContain(value);
      expect(res.text).not.toContain('another-secret-value');
    }
    expect((await server.lookout.store.variables.get(a.accountId, key))?.value).toBe('another-secret-value');
  });

  it('merges an update: a value left out is kept, and a variable may become secret', async () => {
    const key = freshKey();
    await create(a, { key, value: 'v1' });
    const locked = await a.request('PUT', `/v1/variables/${key}`, { key, locked: true });
    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({ key, value: 'v1', locked: true, secret: false, updated_at: expect.any(String) });
    const changed = await a.request('PUT', `/v1/variables/${key}`, { value: 'v2', locked: false, secret: false });
    expect(changed.body).toMatchObject({ value: 'v2', locked: false, secret: false });
    const secret = await a.request('PUT', `/v1/variables/${key}`, { value: 'v3', secret: true });
    expect(secret.body).toMatchObject({ value: null, secret: true });
    expect((await server.lookout.store.variables.get(a.accountId, key))?.value).toBe('v3');
  });

  it('accepts an empty value and values up to 65536 characters', async () => {
    expect((await create(a, { key: freshKey(), value: '' })).value).toBe('');
    expect((await create(a, { key: freshKey(), value: 'x'.repeat(65_536) })).value).toHaveLength(65_536);
  });

  it('answers 409 for a key that already exists and keeps the first value', async () => {
    const key = freshKey();
    await create(a, { key, value: 'first' });
    const before = await snapshot();
    expectError(await a.request('POST', '/v1/variables', { key, value: 'second' }), 409);
    expect(await snapshot()).toEqual(before);
  });

  it('treats keys that differ in case as different variables', async () => {
    const key = freshKey();
    await create(a, { key: key.toLowerCase(), value: 'lower' });
    await create(a, { key, value: 'upper' });
    expect((await a.request('GET', `/v1/variables/${key.toLowerCase()}`)).body.value).toBe('lower');
  });

  it('deletes a variable', async () => {
    const key = freshKey();
    await create(a, { key, value: 'gone soon' });
    const res = await a.request('DELETE', `/v1/variables/${key}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await a.request('GET', `/v1/variables/${key}`), 404);
  });

  it('lists variables a page at a time with the total in Content-Range', async () => {
    const all = await a.request('GET', '/v1/variables?limit=100');
    expect(all.status).toBe(200);
    const total = all.body.length;
    for (let i = 0; i < 4; i++) await create(a, { key: freshKey(), value: String(i) });
    const page = await a.request('GET', '/v1/variables?limit=2&page=2');
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('content-range')).toBe(`2-3/${total + 4}`);
    const past = await a.request('GET', '/v1/variables?limit=100&page=5');
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')).toBe(`*/${total + 4}`);
    const first = await a.request('GET', '/v1/variables');
    expect(first.body).toHaveLength(Math.min(10, total + 4));
  });

  it('keeps each account\'s variables to itself, even under the same key', async () => {
    const key = freshKey();
    await create(a, { key, value: 'from a' });
    const before = await snapshot();
    expectError(await b.request('GET', `/v1/variables/${key}`), 404);
    expectError(await b.request('PUT', `/v1/variables/${key}`, { value: 'from b' }), 404);
    expectError(await b.request('DELETE', `/v1/variables/${key}`), 404);
    expect((await b.request('GET', '/v1/variables?limit=100')).body.map((v: { key: string }) => v.key)).not.toContain(key);
    expect(await snapshot()).toEqual(before);
    await create(b, { key, value: 'from b' });
    expect((await a.request('GET', `/v1/variables/${key}`)).body.value).toBe('from a');
  });

  describe('bad input', () => {
    it.each<[string, unknown, string]>([
      ['no key', { value: 'v' }, 'key'],
      ['no value', { key: 'NO_VALUE' }, 'value'],
      ['a key starting with a digit', { key: '1ABC', value: 'v' }, 'key'],
      ['a key with a dash', { key: 'MY-KEY', value: 'v' }, 'key'],
      ['an empty key', { key: '', value: 'v' }, 'key'],
      ['a key of 257 characters', { key: 'K'.repeat(257), value: 'v' }, 'key'],
      ['a numeric key', { key: 12, value: 'v' }, 'key'],
      ['a numeric value', { key: 'NUM', value: 12 }, 'value'],
      ['a null value', { key: 'NUL', value: null }, 'value'],
      ['a value of 65537 characters', { key: 'LONG', value: 'x'.repeat(65_537) }, 'value'],
      ['a string for locked', { key: 'L', value: 'v', locked: 'yes' }, 'locked'],
      ['a number for secret', { key: 'S', value: 'v', secret: 1 }, 'secret'],
      ['a body that is a list', [{ key: 'L', value: 'v' }], '(root)'],
    ])('POST /v1/variables with %s answers 400 naming the key and writes nothing', async (_label, body, key) => {
      const before = await snapshot();
      expectError(await a.request('POST', '/v1/variables', body), 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, (key: string) => unknown, string]>([
      ['a different key', () => ({ key: 'RENAMED', value: 'v' }), 'key'],
      ['a malformed key', () => ({ key: 'bad key' }), 'key'],
      ['a numeric value', () => ({ value: 1 }), 'value'],
      ['a value of 65537 characters', () => ({ value: 'x'.repeat(65_537) }), 'value'],
      ['a string for locked', () => ({ locked: 'no' }), 'locked'],
      ['secret false on a secret variable', () => ({ value: 'v', secret: false }), 'secret'],
    ])('PUT /v1/variables/{key} with %s answers 400 naming the key and writes nothing', async (_label, makeBody, key) => {
      const varKey = freshKey();
      await create(a, { key: varKey, value: 'kept', secret: true });
      const before = await snapshot();
      expectError(await a.request('PUT', `/v1/variables/${varKey}`, makeBody(varKey)), 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, string]>([['a key with a dash', 'MY-KEY'], ['a key starting with a digit', '9LIVES'], ['a key of 257 characters', 'K'.repeat(257)]])(
      'GET, PUT and DELETE /v1/variables/{key} with %s answer 400 naming key',
      async (_label, key) => {
        const before = await snapshot();
        for (const [method, body] of [['GET'], ['PUT', { value: 'v' }], ['DELETE']] as const) {
          const res = await a.request(method, `/v1/variables/${key}`, body);
          expectError(res, 400, 'key');
          expect(res.body.validation.source).toBe('params');
        }
        expect(await snapshot()).toEqual(before);
      },
    );

    it.each<[string, 'unknown' | 'other account']>([['an unknown key', 'unknown'], ['another account\'s key', 'other account']])(
      'GET, PUT and DELETE /v1/variables/{key} with %s answer 404 and write nothing',
      async (_label, which) => {
        const key = freshKey();
        if (which === 'other account') await create(b, { key, value: 'b only' });
        const before = await snapshot();
        expectError(await a.request('GET', `/v1/variables/${key}`), 404);
        expectError(await a.request('PUT', `/v1/variables/${key}`, { value: 'x' }), 404);
        expectError(await a.request('DELETE', `/v1/variables/${key}`), 404);
        expect(await snapshot()).toEqual(before);
      },
    );

    it.each<[string, string, string]>([
      ['page 0', 'page=0', 'page'],
      ['limit 0', 'limit=0', 'limit'],
      ['limit 101', 'limit=101', 'limit'],
      ['a word for limit', 'limit=ten', 'limit'],
    ])('GET /v1/variables with %s answers 400 naming the key', async (_label, query, key) => {
      const res = await a.request('GET', `/v1/variables?${query}`);
      expectError(res, 400, key);
      expect(res.body.validation.source).toBe('query');
    });
  });
});
