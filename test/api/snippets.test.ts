import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

const UNKNOWN_ID = 2_147_483_000;

/** Asserts the error body of conventions.md and, for 400s, that `key` is named. */
function expectError(res: TestResponse, status: number, key?: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  if (key !== undefined) expect(res.body.validation.keys).toContain(key);
}

describe.each(BACKENDS)('snippets on $name', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ a, b } = server);
  });
  afterAll(async () => server?.close());

  const create = async (client: TestClient, body: Record<string, unknown> = { name: 'Login', script: 'await page.goto(url)' }) => {
    const res = await client.request('POST', '/v1/snippets', body);
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  /** Every stored snippet of every account. */
  const snapshot = () => server.lookout.store.db.query('SELECT * FROM snippets ORDER BY id');

  it('creates a snippet with an integer id and reads it back', async () => {
    const created = await create(a, { name: 'Setup', script: 'const token = await login()' });
    expect(created).toEqual({ id: expect.any(Number), name: 'Setup', script: 'const token = await login()', created_at: expect.any(String), updated_at: null });
    expect(Number.isInteger(created.id)).toBe(true);
    const read = await a.request('GET', `/v1/snippets/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
  });

  it('accepts an empty script and scripts up to 1,000,000 characters', async () => {
    expect((await create(a, { name: 'Empty', script: '' })).script).toBe('');
    expect((await create(a, { name: 'Big', script: 'x'.repeat(1_000_000) })).script).toHaveLength(1_000_000);
  });

  it('merges an update: fields left out keep their values', async () => {
    const created = await create(a);
    const renamed = await a.request('PUT', `/v1/snippets/${created.id}`, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: created.id, name: 'Renamed', script: created.script, created_at: created.created_at, updated_at: expect.any(String) });
    const rewritten = await a.request('PUT', `/v1/snippets/${created.id}`, { script: 'console.log(1)', id: 999 });
    expect(rewritten.body).toMatchObject({ id: created.id, name: 'Renamed', script: 'console.log(1)' });
    expect((await a.request('GET', `/v1/snippets/${created.id}`)).body).toEqual(rewritten.body);
  });

  it('deletes an unused snippet', async () => {
    const created = await create(a);
    const res = await a.request('DELETE', `/v1/snippets/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await a.request('GET', `/v1/snippets/${created.id}`), 404);
  });

  it('answers 409 naming the check that runs a snippet as setup, and deletes it once the check lets go', async () => {
    const snippet = await create(a);
    const check = await a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name: 'Uses setup', request: { url: 'https://example.com' }, setupSnippetId: snippet.id,
    });
    expect(check.status).toBe(201);
    const before = await snapshot();
    const res = await a.request('DELETE', `/v1/snippets/${snippet.id}`);
    expectError(res, 409);
    expect(res.body.message).toContain('Uses setup');
    expect(await snapshot()).toEqual(before);
    expect((await a.request('PUT', `/v1/checks/api/${check.body.id}`, { setupSnippetId: null })).status).toBe(200);
    expect((await a.request('DELETE', `/v1/snippets/${snippet.id}`)).status).toBe(204);
  });

  it('answers 409 naming the group that runs a snippet as teardown', async () => {
    const snippet = await create(a);
    const group = await a.request('POST', '/v1/check-groups?autoAssignAlerts=false', { name: 'Tears down', tearDownSnippetId: snippet.id });
    expect(group.status).toBe(201);
    const before = await snapshot();
    const res = await a.request('DELETE', `/v1/snippets/${snippet.id}`);
    expectError(res, 409);
    expect(res.body.message).toContain('Tears down');
    expect(await snapshot()).toEqual(before);
  });

  it('lists snippets a page at a time with the total in Content-Range', async () => {
    const total = Number((await a.request('GET', '/v1/snippets')).headers.get('content-range')!.split('/')[1]);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create(a, { name: `Paged ${i}`, script: '' })).id);
    const all = total + 3;
    const lastPage = Math.ceil(all / 2);
    const last = await a.request('GET', `/v1/snippets?limit=2&page=${lastPage}`);
    expect(last.status).toBe(200);
    const first = (lastPage - 1) * 2;
    expect(last.headers.get('content-range')).toBe(`${first}-${all - 1}/${all}`);
    expect(last.body.at(-1).id).toBe(ids[2]);
    const past = await a.request('GET', `/v1/snippets?limit=2&page=${lastPage + 1}`);
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')).toBe(`*/${all}`);
  });

  it('keeps each account\'s snippets to itself', async () => {
    const snippet = await create(a);
    const before = await snapshot();
    expectError(await b.request('GET', `/v1/snippets/${snippet.id}`), 404);
    expectError(await b.request('PUT', `/v1/snippets/${snippet.id}`, { name: 'Stolen' }), 404);
    expectError(await b.request('DELETE', `/v1/snippets/${snippet.id}`), 404);
    expect((await b.request('GET', '/v1/snippets?limit=100')).body.map((s: { id: number }) => s.id)).not.toContain(snippet.id);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a check in another account that names this account\'s snippet', async () => {
    const snippet = await create(a);
    const res = await b.request('POST', '/v1/checks/api', { name: 'Borrower', request: { url: 'https://example.com' }, setupSnippetId: snippet.id });
    expectError(res, 400, 'setupSnippetId');
  });

  describe('bad input', () => {
    it.each<[string, unknown, string]>([
      ['no name', { script: 'x' }, 'name'],
      ['no script', { name: 'N' }, 'script'],
      ['an empty name', { name: '', script: 'x' }, 'name'],
      ['a name of 2049 characters', { name: 'n'.repeat(2049), script: 'x' }, 'name'],
      ['a numeric name', { name: 5, script: 'x' }, 'name'],
      ['a null script', { name: 'N', script: null }, 'script'],
      ['a script that is a list', { name: 'N', script: ['a'] }, 'script'],
      ['a script of 1,000,001 characters', { name: 'N', script: 'x'.repeat(1_000_001) }, 'script'],
      ['a body that is a string', 'just text', '(root)'],
    ])('POST /v1/snippets with %s answers 400 naming the key and writes nothing', async (_label, body, key) => {
      const before = await snapshot();
      const res = await a.request('POST', '/v1/snippets', typeof body === 'string' ? JSON.stringify(body) : body);
      expectError(res, 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, unknown, string]>([
      ['an empty name', { name: '' }, 'name'],
      ['a numeric script', { script: 1 }, 'script'],
      ['a numeric name', { name: 5 }, 'name'],
      ['a script of 1,000,001 characters', { script: 'x'.repeat(1_000_001) }, 'script'],
    ])('PUT /v1/snippets/{id} with %s answers 400 naming the key and writes nothing', async (_label, body, key) => {
      const snippet = await create(a);
      const before = await snapshot();
      expectError(await a.request('PUT', `/v1/snippets/${snippet.id}`, body), 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, string]>([['a word', 'abc'], ['zero', '0'], ['a negative id', '-3'], ['an id above 2^31-1', '2147483648'], ['a fraction', '2.5']])(
      'GET, PUT and DELETE /v1/snippets/{id} with %s answer 400 naming id',
      async (_label, id) => {
        const before = await snapshot();
        for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
          const res = await a.request(method, `/v1/snippets/${id}`, body);
          expectError(res, 400, 'id');
          expect(res.body.validation.source).toBe('params');
        }
        expect(await snapshot()).toEqual(before);
      },
    );

    it.each<[string, 'unknown' | 'other account']>([['an unknown id', 'unknown'], ['another account\'s id', 'other account']])(
      'GET, PUT and DELETE /v1/snippets/{id} with %s answer 404 and write nothing',
      async (_label, which) => {
        const id = which === 'unknown' ? UNKNOWN_ID : (await create(b)).id;
        const before = await snapshot();
        expectError(await a.request('GET', `/v1/snippets/${id}`), 404);
        expectError(await a.request('PUT', `/v1/snippets/${id}`, { name: 'x' }), 404);
        expectError(await a.request('DELETE', `/v1/snippets/${id}`), 404);
        expect(await snapshot()).toEqual(before);
      },
    );

    it.each<[string, string, string]>([
      ['page 0', 'page=0', 'page'],
      ['limit 0', 'limit=0', 'limit'],
      ['limit 101', 'limit=101', 'limit'],
      ['a negative page', 'page=-1', 'page'],
    ])('GET /v1/snippets with %s answers 400 naming the key', async (_label, query, key) => {
      const res = await a.request('GET', `/v1/snippets?${query}`);
      expectError(res, 400, key);
      expect(res.body.validation.source).toBe('query');
    });
  });
});
