import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createBoundedCache } from '../../src/graphql/bounded-cache.js';
import { countRestRequests, gql } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('GraphQL protection with the default settings', () => {
  let s: TestServer;
  const auth = () => ({ authorization: `Bearer ${s.a.apiKey}` });

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  describe('CSRF prevention', () => {
    it.each([
      ['a GET without any preflight-forcing header', 'GET', undefined, {}],
      ['a POST as text/plain', 'POST', '{"query":"{ __typename }"}', { 'content-type': 'text/plain' }],
      ['a POST as a form', 'POST', 'query=%7B__typename%7D', { 'content-type': 'application/x-www-form-urlencoded' }],
    ])('refuses %s, which a browser sends cross-origin without asking', async (_name, method, body, headers) => {
      const res = await s.raw(method, `/graphql${method === 'GET' ? '?query=%7B__typename%7D' : ''}`, { body, headers });
      // 400 from Apollo's CSRF prevention; 415 when Fastify has no parser for the body at all.
      expect([400, 415]).toContain(res.status);
      expect(res.text).not.toContain('"data"');
    });

    it.each([
      ['Authorization (which every operation needs)', auth],
      ['Apollo-Require-Preflight', () => ({ ...auth(), 'apollo-require-preflight': 'true' })],
    ])('serves a GET carrying %s, which no simple request may carry', async (_name, headers) => {
      const res = await s.raw('GET', '/graphql?query=%7B__typename%7D', { headers: headers() });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ data: { __typename: 'Query' } });
    });

    it('answers a preflighted request without credentials with UNAUTHENTICATED', async () => {
      const res = await s.raw('GET', '/graphql?query=%7B__typename%7D', { headers: { 'apollo-require-preflight': 'true' } });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    });

    it('refuses a mutation sent with GET', async () => {
      const res = await s.raw('GET', `/graphql?query=${encodeURIComponent('mutation { deleteCheck(id: "x") { userErrors { code } } }')}`, { headers: auth() });
      expect(res.status).toBe(405);
    });
  });

  describe('automatic persisted queries', () => {
    const query = '{ viewer { accountId } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };

    it('asks for an unknown hash, registers it with its query, then answers the hash alone (POST and GET)', async () => {
      const unknown = await s.a.request('POST', '/graphql', { extensions });
      expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

      const registered = await s.a.request('POST', '/graphql', { query, extensions });
      expect(registered.body.data).toEqual({ viewer: { accountId: s.a.accountId } });

      const byHash = await s.a.request('POST', '/graphql', { extensions });
      expect(byHash.status).toBe(200);
      expect(byHash.body.data).toEqual({ viewer: { accountId: s.a.accountId } });

      const byGet = await s.b.request('GET', `/graphql?extensions=${encodeURIComponent(JSON.stringify(extensions))}`);
      expect(byGet.status).toBe(200);
      expect(byGet.body.data).toEqual({ viewer: { accountId: s.b.accountId } });
    });

    it('refuses a query whose hash does not match it', async () => {
      const res = await s.a.request('POST', '/graphql', { query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ __typename }') } } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/sha/i), extensions: { code: 'BAD_REQUEST' } });
    });

    it('keeps the cache bounded: least recently used entries go first, oversized ones are never kept', async () => {
      const cache = createBoundedCache(25);
      await cache.set('a', '123456789');
      await cache.set('b', '123456789');
      await cache.get('a');
      await cache.set('c', '123456789');
      expect([await cache.get('a'), await cache.get('b'), await cache.get('c')]).toEqual(['123456789', undefined, '123456789']);
      expect(cache.chars).toBeLessThanOrEqual(25);
      await cache.set('d', 'x'.repeat(40));
      expect(await cache.get('d')).toBeUndefined();
      expect(cache.size).toBe(2);
    });
  });

  describe('limits checked before execution', () => {
    it('lets the dashboard query through and reports its estimate next to the REST calls made', async () => {
      const res = await gql(s.a, `{ checks(first: 100) { nodes { name group { name } status { hasFailures } latestResults(count: 5) { id } alertChannels { id } } } }`);
      expect(res.status).toBe(200);
      expect(res.errors).toBeUndefined();
      expect(res.extensions?.cost).toMatchObject({ restCalls: expect.any(Number), estimated: 6 });
    });

    it('answers introspection (on by default), counted like any field, within the default limits', async () => {
      const res = await gql(s.a, '{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name ofType { name ofType { name ofType { name ofType { name } } } } } } } } } } } }');
      expect(res.status).toBe(200);
      expect(res.data.__schema.types.length).toBeGreaterThan(50);
    });
  });

  describe('the landing page', () => {
    it('is off by default: a browser gets GraphiQL (test/web/console-serving.test.ts), not the minimal page', async () => {
      const res = await s.raw('GET', '/graphql', { headers: { accept: 'text/html' } });
      expect(res.text).not.toContain('Lookout GraphQL');
    });
  });

  describe('graphql-ws protocol violations (beyond those of the subscription suite)', () => {
    /** A raw socket, acknowledged first when `init` is set; resolves with the close code. */
    const closeCodeAfter = async (messages: unknown[], init: boolean) => {
      const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/graphql`, ['graphql-transport-ws']);
      const closed = once(ws, 'close').then(([code]) => code as number);
      await once(ws, 'open');
      if (init) {
        ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${s.a.apiKey}` } }));
        const [ack] = await once(ws, 'message');
        expect(JSON.parse(String(ack)).type).toBe('connection_ack');
      }
      for (const m of messages) ws.send(typeof m === 'string' ? m : JSON.stringify(m));
      return closed;
    };

    it.each([
      ['an unknown message type', [{ type: 'hello' }], false],
      ['a connection_init whose payload is not an object', [{ type: 'connection_init', payload: 'key' }], false],
      ['a message without a type', [{ id: '1', payload: {} }], false],
      ['a subscribe without a payload', [{ id: '1', type: 'subscribe' }], true],
      ['a subscribe whose query is not a string', [{ id: '1', type: 'subscribe', payload: { query: 1 } }], true],
      ['a subscribe without an id', [{ type: 'subscribe', payload: { query: '{ __typename }' } }], true],
      ['a complete without an id', [{ type: 'complete' }], true],
    ])('closes with 4400 on %s', async (_name, messages, init) => {
      expect(await closeCodeAfter(messages, init)).toBe(4400);
    });
  });

  describe('GraphQL over HTTP compliance (graphql-http audits)', () => {
    const fetchFn = (input: string, init: RequestInit = {}) =>
      fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${s.a.apiKey}` } });
    const audits = serverAudits({ url: () => `${s.url}/graphql`, fetchFn });

    it.each(audits.map((a) => [`${a.id} ${a.name}`, a] as const))('passes %s', async (_name, audit) => {
      const result = await audit.fn();
      expect(result.status === 'ok' ? 'ok' : `${result.status}: ${result.reason}`).toBe('ok');
    });
  });
});

describe('GraphQL protection with tight settings', () => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer({
      config: { graphqlMaxDepth: 6, graphqlMaxAliases: 2, graphqlMaxCost: 20, graphqlIntrospection: false, graphqlLandingPage: true },
    });
  });
  afterAll(async () => s?.close());

  it.each([
    ['too deep', '{ checkGroups { nodes { checks { nodes { group { checks { nodes { id } } } } } } } }', 'QUERY_TOO_DEEP', 6, 8],
    ['too deep through fragments', '{ checks { nodes { ...G } } } fragment G on Check { group { checks { nodes { group { name } } } } }', 'QUERY_TOO_DEEP', 6, 7],
    ['aliased too often', '{ a: viewer { name } b: viewer { name } c: viewer { name } }', 'TOO_MANY_ALIASES', 2, 3],
    ['aliased too often through a fragment spread twice', '{ checks { nodes { ...A } } more: checks { nodes { ...A } } } fragment A on Check { g: group { name } }', 'TOO_MANY_ALIASES', 2, 3],
    ['too costly', '{ checkGroups(first: 10) { nodes { checks(first: 10) { nodes { id } } } } }', 'QUERY_TOO_COSTLY', 20, 22],
  ])('refuses an operation %s with a coded 400 before any REST call', async (_name, query, code, limit, value) => {
    // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
    await gql(s.a, '{ __typename }');
    const counter = countRestRequests(s);
    try {
      const res = await gql(s.a, query);
      expect(res.status).toBe(400);
      expect(res.data).toBeUndefined();
      expect(res.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code, limit, value }) })]);
      expect(counter.count).toBe(0);
    } finally {
      counter.stop();
    }
  });

  it('reads `first` from variables when costing', async () => {
    const query = 'query($n: Int) { checkGroups(first: 2) { nodes { checks(first: $n) { nodes { badge { svg } } } } } }';
    expect((await gql(s.a, query, { n: 100 })).errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COSTLY');
    const cheap = await gql(s.a, query, { n: 1 });
    expect(cheap.errors).toBeUndefined();
    expect((cheap.extensions?.cost as { estimated?: number } | undefined)?.estimated).toBe(2 + 2 * (2 + 1));
  });

  it.each([
    ['application/graphql-response+json', 400],
    ['application/json', 200],
  ])('refuses introspection when it is turned off (accepting %s: status %i)', async (accept, status) => {
    const res = await gql(s.a, '{ __schema { queryType { name } } }', undefined, { accept });
    expect(res.status).toBe(status);
    expect(res.data).toBeUndefined();
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', validationErrorCode: 'INTROSPECTION_DISABLED' });
  });

  it('serves a local landing page that loads nothing from another origin', async () => {
    const res = await s.raw('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain('Lookout GraphQL');
    expect(res.text).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(res.text).not.toMatch(/@import|url\(/i);
    expect(res.text).toContain("default-src 'none'");
  });
});
