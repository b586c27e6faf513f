import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** `GET /v1/snippets?ids=`: the batch lookup the GraphQL layer's snippet loader makes. */
describe.each(BACKENDS)('the ids filter of GET /v1/snippets on $name', (backend) => {
  let s: TestServer;
  const mine: number[] = [];
  let theirs: number;

  const create = async (client: TestClient, name: string) => {
    const res = await client.request('POST', '/v1/snippets', { name, script: `// ${name}` });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const idsOf = (body: { id: number }[]) => body.map((snippet) => snippet.id);

  beforeAll(async () => {
    s = await startTestServer({ backend });
    for (const name of ['one', 'two', 'three', 'four', 'five']) mine.push(await create(s.a, name));
    theirs = await create(s.b, 'theirs');
  });
  afterAll(async () => s?.close());

  it('lists only the snippets with the ids given, comma-separated, in the order given', async () => {
    const res = await s.a.request('GET', `/v1/snippets?ids=${mine[3]},${mine[0]},${mine[2]}`);
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([mine[3], mine[0], mine[2]]);
    expect(res.body[1]).toEqual({ id: mine[0], name: 'one', script: '// one', created_at: expect.any(String), updated_at: null });
    expect(res.headers.get('content-range')).toBe('0-2/3');
  });

  it('accepts repeated and bracketed ids as well', async () => {
    expect(idsOf((await s.a.request('GET', `/v1/snippets?ids=${mine[1]}&ids=${mine[4]}`)).body)).toEqual([mine[1], mine[4]]);
    expect(idsOf((await s.a.request('GET', `/v1/snippets?ids%5B%5D=${mine[1]}&ids%5B%5D=${mine[4]}`)).body)).toEqual([mine[1], mine[4]]);
  });

  it('pages through the matching snippets with their total in Content-Range', async () => {
    const page2 = await s.a.request('GET', `/v1/snippets?ids=${mine.join(',')}&limit=2&page=2`);
    expect(idsOf(page2.body)).toEqual([mine[2], mine[3]]);
    expect(page2.headers.get('content-range')).toBe('2-3/5');
    const past = await s.a.request('GET', `/v1/snippets?ids=${mine.join(',')}&limit=2&page=4`);
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')).toBe('*/5');
  });

  it('matches nothing for unknown ids and for ids of another account', async () => {
    const res = await s.a.request('GET', `/v1/snippets?ids=${theirs},2147483000,${mine[0]}`);
    expect(idsOf(res.body)).toEqual([mine[0]]);
    const other = await s.b.request('GET', `/v1/snippets?ids=${mine.join(',')}`);
    expect(other.body).toEqual([]);
    expect(other.headers.get('content-range')).toBe('*/0');
  });

  it('is documented in /openapi.json', async () => {
    const spec = (await s.raw('GET', '/openapi.json')).body;
    const ids = spec.paths['/v1/snippets'].get.parameters.find((p: { name: string }) => p.name === 'ids');
    expect(ids).toMatchObject({ in: 'query', schema: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 100 } });
  });

  it.each<[string, string, string]>([
    ['an id that is a word', 'ids=abc', 'ids.0'],
    ['an id of zero', `ids=1,0`, 'ids.1'],
    ['a negative id', 'ids=-3', 'ids.0'],
    ['an id above 2^31-1', 'ids=2147483648', 'ids.0'],
    ['a fractional id', 'ids=2.5', 'ids.0'],
    ['more than 100 ids', `ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, 'ids'],
  ])('answers 400 naming the key for %s', async (_label, query, key) => {
    const res = await s.a.request('GET', `/v1/snippets?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: expect.any(String), message: expect.any(String) });
    expect(res.body.validation.keys).toContain(key);
    expect(res.body.validation.source).toBe('query');
  });
});
