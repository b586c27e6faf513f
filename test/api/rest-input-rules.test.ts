import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answersWithin } from '../support/answers-within.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';


/** The largest error answer any bad input may produce (a few dozen issues of a few hundred bytes). */
const MAX_ERROR_BYTES = 16 * 1024;

interface Operation {
  method: string;
  path: string;
  query: { name: string; type: string | undefined }[];
  pathParams: string[];
  hasBody: boolean;
}

/** Every operation of the REST API, read from its own OpenAPI document. */
async function operations(s: TestServer): Promise<Operation[]> {
  const doc = (await s.raw('GET', '/openapi.json')).body as { paths: Record<string, Record<string, any>> };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters ?? []) as { name: string; in: string; schema?: { type?: string; items?: { type?: string } } }[];
      ops.push({
        method: method.toUpperCase(),
        path,
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, type: p.schema?.type === 'array' ? p.schema.items?.type : p.schema?.type })),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        hasBody: Boolean(op.requestBody),
      });
    }
  }
  return ops;
}

function expectBoundedValidation(res: TestResponse, source: string) {
  expect(res.status).toBe(400);
  expect(res.text.length).toBeLessThan(MAX_ERROR_BYTES);
  expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String), validation: { source } });
  const { keys, issues, omitted } = res.body.validation as { keys: string[]; issues: { key: string; message: string }[]; omitted: number };
  expect(keys.length).toBeLessThanOrEqual(20);
  expect(new Set(keys).size).toBe(keys.length);
  expect(issues.map((i) => i.key)).toEqual(keys);
  for (const issue of issues) expect(issue.message.length).toBeLessThan(400);
  expect(omitted).toBeGreaterThanOrEqual(0);
}

describe.each(BACKENDS)('the shared input rules of the REST API ($name)', (backend) => {
  let s: TestServer;
  let ids: Record<string, string>;
  let ops: Operation[];

  beforeAll(async () => {
    s = await startTestServer({ backend, config: { rateLimitMax: 0 } });
    const check = await s.a.request('POST', '/v1/checks/api', { name: 'Fixture', request: { method: 'GET', url: 'https://example.test' } });
    const group = await s.a.request('POST', '/v2/check-groups', { name: 'Fixture group' });
    const channel = await s.a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'ops@example.test' } });
    const snippet = await s.a.request('POST', '/v1/snippets', { name: 'Fixture snippet', script: '1' });
    const location = await s.a.request('POST', '/v1/private-locations', { name: 'Fixture location', slugName: 'fixture-location' });
    await s.a.request('POST', '/v1/variables', { key: 'FIXTURE', value: 'v' });
    for (const r of [check, group, channel, snippet, location]) expect(r.status).toBe(201);
    ids = { check: check.body.id, group: String(group.body.id), channel: String(channel.body.id), snippet: String(snippet.body.id), location: location.body.id };
    ops = await operations(s);
  });
  afterAll(async () => s?.close());

  /** `path` with its parameters replaced by ids of this account's fixtures (or well-formed unknown ones). */
  const concrete = (path: string): string =>
    path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      if (path.startsWith('/v1/check-groups') || path.startsWith('/v2/check-groups') || name === 'groupId') return ids.group!;
      if (path.startsWith('/v1/alert-channels')) return ids.channel!;
      if (path.startsWith('/v1/snippets')) return ids.snippet!;
      if (path.startsWith('/v1/private-locations') && name === 'id') return ids.location!;
      if (path.startsWith('/v1/variables')) return 'FIXTURE';
      if (name === 'accountId') return s.a.accountId;
      if (name === 'file') return 'final.png';
      if (path.startsWith('/v1/maintenance-windows') && name === 'id') return '1';
      if (name === 'checkId' || path.startsWith('/v1/checks')) return ids.check!;
      return randomUUID();
    });

  const count = async (table: string) => (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  describe('a 400 names a bounded number of keys, each once, with a count of the rest', () => {
    const many = (n: number, item: (i: number) => unknown) => Array.from({ length: n }, (_, i) => item(i));
    it.each([
      ['100 tags that are not strings', { tags: many(100, (i) => i) }, 'tags.0'],
      ['100 invalid assertions', { request: { method: 'GET', url: 'https://example.test', assertions: many(100, () => ({ source: 'X', comparison: 'Y' })) } }, 'request.assertions.0.source'],
    ])('a check with %s', async (_name, extra, key) => {
      const before = await count('checks');
      const res = await s.a.request('POST', '/v1/checks/api', { name: 'Too much', request: { method: 'GET', url: 'https://example.test' }, ...extra });
      expectBoundedValidation(res, 'payload');
      expect(res.body.validation.keys).toHaveLength(20);
      expect(res.body.validation.keys[0]).toBe(key);
      expect(res.body.validation.omitted).toBeGreaterThan(0);
      expect(res.body.message).toMatch(/more invalid keys are not listed$/);
      expect(await count('checks')).toBe(before);
    });

    it.each([
      ['100,000 unknown locations', { locations: many(100_000, (i) => `nowhere-${i}`) }, 'locations', 'must NOT have more than 22 items'],
      ['100,000 tags that are not strings', { tags: many(100_000, (i) => i) }, 'tags', 'must NOT have more than 100 items'],
      ['a 400 kB list of invalid assertions', { request: { method: 'GET', url: 'https://example.test', assertions: many(20_000, () => ({ source: 'X', comparison: 'Y' })) } }, 'request.assertions', 'must NOT have more than 100 items'],
    ])('a check with %s is refused for the length of the list alone', async (_name, extra, key, message) => {
      const before = await count('checks');
      const res = await s.a.request('POST', '/v1/checks/api', { name: 'Too much', request: { method: 'GET', url: 'https://example.test' }, ...extra });
      expectBoundedValidation(res, 'payload');
      expect(res.body.validation.issues).toEqual([{ key, message, code: 'TOO_MANY_ITEMS' }]);
      expect(res.body.validation.omitted).toBe(0);
      expect(await count('checks')).toBe(before);
    });

    it('keeps answering /health while the largest invalid requests are refused', async () => {
      const locations = many(100_000, (i) => `nowhere-${i}`);
      const worst = Promise.all([1, 2, 3].map(() => s.a.request('POST', '/v1/checks/api', { name: 'Worst', locations, request: { method: 'GET', url: 'https://example.test' } })));
      const health = await answersWithin(s.raw('GET', '/health'), 10_000, '/health');
      expect(health.status).toBe(200);
      for (const res of await worst) expectBoundedValidation(res, 'payload');
    });
  });

  describe('strings and numbers the store cannot hold are refused at the edge', () => {
    it('refuses a lone surrogate and a NUL in any string of every route that takes a body, naming the keys', async () => {
      const withBodies = ops.filter((o) => o.hasBody);
      expect(withBodies.length).toBeGreaterThanOrEqual(17);
      const before = await Promise.all(['checks', 'check_groups', 'alert_channels', 'snippets', 'environment_variables', 'private_locations'].map(count));
      for (const op of withBodies) {
        const body = '{"name":"a\\ud800b","nested":{"list":["ok","\\udc00"],"text":"x\\u0000y"}}';
        const res = await s.a.request(op.method, concrete(op.path), body);
        expect(res.status, `${op.method} ${op.path}`).toBe(400);
        expectBoundedValidation(res, 'payload');
        expect(res.body.validation.keys, `${op.method} ${op.path}`).toEqual(['name', 'nested.list.1', 'nested.text']);
      }
      expect(await Promise.all(['checks', 'check_groups', 'alert_channels', 'snippets', 'environment_variables', 'private_locations'].map(count))).toEqual(before);
    });

    it.each([
      ['an alert channel config nested 2,000 levels deep', () => {
        let deep: unknown = 'bottom';
        for (let i = 0; i < 2000; i++) deep = { a: deep };
        return { type: 'WEBHOOK', config: { name: 'Deep', url: 'https://example.test/hook', method: 'POST', template: deep } };
      }, /^config\.template(\.a)+$/],
      // Sent as text: the test's own JSON.stringify could not write it.
      ['a list nested 100,000 levels deep', () => `{"type":"WEBHOOK","config":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, /^config(\.0)+$/],
    ])('refuses %s with a 400 naming where it goes too deep', async (_name, body, key) => {
      const before = await count('alert_channels');
      const res = await s.a.request('POST', '/v1/alert-channels', body());
      expectBoundedValidation(res, 'payload');
      expect(res.body.validation.keys).toHaveLength(1);
      expect(res.body.validation.keys[0]).toMatch(key);
      expect(res.body.message).toContain('nested deeper than 32 levels');
      expect(await count('alert_channels')).toBe(before);
    });

    it.each([
      ['1e999 (Infinity once parsed)', '{"name":"Big","frequency":1e999,"request":{"method":"GET","url":"https://example.test"}}', 'frequency'],
      ['-1e999 in a free-form position', '{"name":"Big","request":{"method":"GET","url":"https://example.test","assertions":[{"source":"STATUS_CODE","comparison":"EQUALS","target":-1e999}]}}', 'request.assertions.0.target'],
    ])('refuses a number that is not finite: %s', async (_name, body, key) => {
      const res = await s.a.request('POST', '/v1/checks/api', body);
      expectBoundedValidation(res, 'payload');
      expect(res.body.validation.keys).toEqual([key]);
    });

    it('refuses a NUL in every query parameter of every route, naming it', async () => {
      const withQuery = ops.filter((o) => o.method === 'GET' && o.query.length > 0);
      expect(withQuery.length).toBeGreaterThanOrEqual(12);
      for (const op of withQuery) {
        for (const param of op.query) {
          const res = await s.a.request('GET', `${concrete(op.path)}?${param.name}=a%00b`);
          expect(res.status, `${op.path}?${param.name}`).toBe(400);
          expectBoundedValidation(res, 'query');
          expect(res.body.validation.keys, `${op.path}?${param.name}`).toContain(param.name);
        }
      }
    });

    it.each(['99999999999999999999', '1e308', '2147483648', '-99999999999999999999'])(
      'refuses page=%s on every paginated list with a 400 naming "page"',
      async (page) => {
        const paginated = ops.filter((o) => o.method === 'GET' && o.query.some((q) => q.name === 'page'));
        expect(paginated.length).toBeGreaterThanOrEqual(12);
        for (const op of paginated) {
          const res = await s.a.request('GET', `${concrete(op.path)}?page=${page}`);
          expect(res.status, op.path).toBe(400);
          expectBoundedValidation(res, 'query');
          expect(res.body.validation.keys, op.path).toContain('page');
        }
      },
    );

    it('answers the last page that PostgreSQL can address with an empty page, not an error', async () => {
      const res = await s.a.request('GET', '/v1/checks?page=2147483647&limit=100');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it.each([
      ['a NUL', '/v1/variables/a%00b', 'key'],
      ['a NUL in a check id', '/v1/checks/a%00b', 'id'],
    ])('refuses %s in a path parameter with a 400 naming it', async (_name, path, key) => {
      const res = await s.a.request('GET', path);
      expectBoundedValidation(res, 'params');
      expect(res.body.validation.keys).toEqual([key]);
    });

    it('answers a path that is not valid UTF-8 (an encoded lone surrogate) with a 400 in the conventions shape', async () => {
      const res = await s.a.request('GET', '/v1/checks/%ED%A0%80');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String), validation: { source: 'params', keys: [], issues: [], omitted: 0 } });
    });
  });

  describe('under random input', () => {
    /** Text as hostile clients send it: any code unit (lone surrogates and NULs included), numbers in every notation. */
    const hostileText = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udc00', 'a', '%', '&', '=', '[', ']', '.', ',') }),
      fc.double().map(String),
      fc.bigInt().map(String),
      fc.constantFrom('1e308', '-0', 'NaN', 'Infinity', '99999999999999999999', ''),
    );

    it('every list route answers query strings with anything but a 5xx, in a bounded answer', async () => {
      const lists = ops.filter((o) => o.method === 'GET' && o.query.length > 0 && !o.path.includes('/stream'));
      const before = await count('checks');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...lists),
          fc.array(fc.tuple(fc.nat(), hostileText), { maxLength: 5 }),
          async (op, pairs) => {
            const query = new URLSearchParams();
            for (const [i, value] of pairs) query.append(op.query[i % op.query.length]!.name, value);
            const res = await s.a.request('GET', `${concrete(op.path)}?${query.toString().replace(/%EF%BF%BD/g, '%ED%A0%80')}`);
            expect(res.status, `${op.path}?${query}`).toBeLessThan(500);
            expect(res.text.length).toBeLessThan(256 * 1024);
            if (res.status === 400) expectBoundedValidation(res, res.body.validation.source);
          },
        ),
        fuzzParameters(300, 20261124),
      );
      expect(await count('checks')).toBe(before);
    });

    it('free-form objects (alert channel configs, webhook templates) never cause a 5xx and are written only when accepted', async () => {
      const freeForm = fc.jsonValue({ maxDepth: 40 }).chain((json) =>
        fc.oneof(
          fc.constant({ type: 'WEBHOOK', config: json }),
          fc.constant({ type: 'WEBHOOK', config: { name: 'Hook', url: 'https://example.test/hook', method: 'POST', template: json, headers: json } }),
          fc.constant({ type: 'EMAIL', config: json }),
        ));
      await fc.assert(
        fc.asyncProperty(freeForm, hostileText, async (body, name) => {
          const before = await count('alert_channels');
          const res = await s.a.request('POST', '/v1/alert-channels', { ...body, config: typeof body.config === 'object' && body.config ? { ...body.config, name } : body.config });
          expect(res.status).toBeLessThan(500);
          expect(res.text.length).toBeLessThan(256 * 1024);
          if (res.status === 400) expectBoundedValidation(res, 'payload');
          expect(await count('alert_channels')).toBe(res.status === 201 ? before + 1 : before);
        }),
        fuzzParameters(200, 20261124),
      );
    });
  });
});
