import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { getIntrospectionQuery, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildExecutableSchema } from '../../src/graphql/build-executable-schema.js';
import { limitError } from '../../src/graphql/cost-plugin.js';
import { createCallerVerifier } from '../../src/graphql/create-caller-verifier.js';
import { loadTypeDefs } from '../../src/graphql/create-graphql.js';
import { RestError } from '../../src/graphql/errors.js';
import { measureOperation } from '../../src/graphql/operation-measure.js';
import type { RestClient } from '../../src/graphql/rest-client.js';
import { withUserErrors } from '../../src/graphql/user-errors.js';
import { createAccountWithKey } from '../../src/service/bootstrap.js';
import { connectGraphqlWs, refusedThenServed } from '../support/graphql-ws-client.js';
import { answersWithin } from '../support/answers-within.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** GET /health while something else is in flight: the event loop is free when it answers. */
const healthAnswers = async (s: TestServer) => {
  const res = await answersWithin(s.raw('GET', '/health'), 10_000, 'GET /health');
  expect(res.status).toBe(200);
};

const post = (s: TestServer, body: string, headers: Record<string, string> = {}) =>
  s.raw('POST', '/graphql', { body, headers: { 'content-type': 'application/json', ...headers } });

const CHECK_PAYLOAD = '{ check { id } userErrors { field code message } }';

describe('GraphQL hardening with the default settings', () => {
  let s: TestServer;
  let existing: { id: string; locations: string[] };
  const checkCount = async () => (await gql(s.a, '{ checks(first: 1) { totalCount } }')).data.checks.totalCount as number;

  beforeAll(async () => {
    s = await startTestServer({ config: { rateLimitMax: 0 } });
    const created = await s.a.request('POST', '/v1/checks/api', { name: 'kept', locations: ['eu-west-1'], request: { url: 'https://example.test/' } });
    existing = { id: created.body.id, locations: created.body.locations };
  });
  afterAll(async () => s?.close());

  describe('a mutation with a huge list of invalid entries', () => {
    const mutate = (verb: 'creates' | 'updates', locations: string[]) => (verb === 'creates'
      ? gql(s.a, `mutation($input: ApiCheckInput!) { r: createApiCheck(input: $input) ${CHECK_PAYLOAD} }`, { input: { name: 'huge', locations, request: { url: 'https://example.test/' } } })
      : gql(s.a, `mutation($id: ID!, $input: ApiCheckInput!) { r: updateApiCheck(id: $id, input: $input) ${CHECK_PAYLOAD} }`, { id: existing.id, input: { locations } }));

    const expectNothingWritten = async (before: number) => {
      expect(await checkCount()).toBe(before);
      const kept = await s.a.request('GET', `/v1/checks/${existing.id}`);
      expect(kept.body.locations).toEqual(existing.locations);
    };

    it.each([
      ['creates', 1_000],
      ['creates', 100_000],
      ['updates', 1_000],
      ['updates', 100_000],
    ] as const)('that %s an API check with %i invalid locations answers one userError for the length of the list, writes nothing and leaves /health answering', async (verb, n) => {
      const before = await checkCount();
      const mutation = mutate(verb, Array.from({ length: n }, () => 'x'));
      await healthAnswers(s);
      const res = await answersWithin(mutation, 25_000, 'the mutation');

      expect(res.status).toBe(200);
      expect(res.errors).toBeUndefined();
      expect(Buffer.byteLength(JSON.stringify(res))).toBeLessThan(64 * 1024);
      expect(res.data.r).toEqual({ check: null, userErrors: [{ field: 'locations', code: 'BAD_USER_INPUT', message: 'must NOT have more than 22 items' }] });
      await expectNothingWritten(before);
    });

    it.each(['creates', 'updates'] as const)('that %s an API check with 22 distinct invalid locations answers at most 20 userErrors, one per field, then TOO_MANY_ERRORS', async (verb) => {
      const before = await checkCount();
      const res = await mutate(verb, Array.from({ length: 22 }, (_, i) => `nowhere-${i}`));
      expect(res.errors).toBeUndefined();
      const { check, userErrors } = res.data.r as { check: unknown; userErrors: { field: string | null; code: string; message: string }[] };
      expect(check).toBeNull();
      const max = s.lookout.config.maxErrorIssues;
      expect(userErrors).toHaveLength(max + 1);
      const listed = userErrors.slice(0, max);
      expect(listed.map((e) => e.field)).toEqual(Array.from({ length: max }, (_, i) => `locations.${i}`));
      for (const e of listed) expect(e).toEqual({ field: expect.any(String), code: 'BAD_USER_INPUT', message: expect.stringMatching(/^must be one of the 22 allowed values/) });
      expect(userErrors.at(-1)).toEqual({ field: null, code: 'TOO_MANY_ERRORS', message: '2 more invalid fields were not listed' });
      await expectNothingWritten(before);
    });

    it('whose list variable holds 100,000 values of the wrong type is refused by input coercion with at most 51 errors, none internal', async () => {
      const before = await checkCount();
      const mutation = gql(s.a, `mutation($input: ApiCheckInput!) { r: createApiCheck(input: $input) ${CHECK_PAYLOAD} }`,
        { input: { name: 'typed', locations: Array.from({ length: 100_000 }, (_, i) => i), request: { url: 'https://example.test/' } } });
      await healthAnswers(s);
      const res = await answersWithin(mutation, 25_000, 'the mutation');
      expect(res.data).toBeUndefined();
      expect(res.errors!.length).toBeLessThanOrEqual(51);
      expect(new Set(res.errors!.map((e) => e.extensions?.code))).toEqual(new Set(['BAD_USER_INPUT']));
      expect(Buffer.byteLength(JSON.stringify(res))).toBeLessThan(64 * 1024);
      expect(await checkCount()).toBe(before);
    });
  });

  describe('the caller is checked before the request body is read', () => {
    const hugeDocument = JSON.stringify({ query: `{ ${'__typename '.repeat(240_000)}` }); // about 2.6 MB, not even valid

    it.each([
      ['a made-up API key', () => ({ authorization: 'Bearer lo_made_up_key' }), 401, 'UNAUTHENTICATED'],
      ['a malformed Authorization header', () => ({ authorization: 'Basic Zm9vOmJhcg==' }), 401, 'UNAUTHENTICATED'],
      ["a real key naming another account", () => ({ authorization: `Bearer ${s.a.apiKey}`, 'x-lookout-account': s.b.accountId }), 403, 'FORBIDDEN'],
    ])('refuses %s sending a 2.6 MB document, unparsed, with the REST answer, while /health keeps answering', async (_name, headers, status, code) => {
      const refused = post(s, hugeDocument, headers());
      await healthAnswers(s);
      const res = await answersWithin(refused, 10_000, 'the refused request');
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code } }] });
    });

    it('refuses a made-up key on a GET as well, in the media type the client accepts', async () => {
      const res = await s.raw('GET', '/graphql?query=%7B__typename%7D', { headers: { authorization: 'Bearer lo_made_up_key', accept: 'application/graphql-response+json' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    });

    it('no longer answers introspection to a made-up key', async () => {
      const res = await post(s, JSON.stringify({ query: '{ __schema { queryType { name } } }' }), { authorization: 'Bearer lo_made_up_key' });
      expect(res.status).toBe(401);
      expect(res.body.data).toBeUndefined();
    });

    it('refuses a real key with a document over every size limit with REQUEST_TOO_LARGE, without reading it', async () => {
      const res = await post(s, hugeDocument, { authorization: `Bearer ${s.a.apiKey}` });
      expect(res.status).toBe(413);
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'REQUEST_TOO_LARGE', limit: expect.any(Number) });
    });

    it('checks a busy new caller once, on a session of its own: not among the operations\' REST calls', async () => {
      const fresh = await createAccountWithKey(s.lookout.store, { name: 'Busy' });
      const client = { accountId: fresh.accountId, apiKey: fresh.apiKey,
        request: (method: string, path: string, body?: unknown) => s.raw(method, path, {
          body: body === undefined ? undefined : JSON.stringify(body),
          headers: { authorization: `Bearer ${fresh.apiKey}`, 'content-type': 'application/json' },
        }) } as TestClient;
      let checks = 0;
      const onRequest = (req: IncomingMessage) => {
        if (req.url === '/v1/accounts/me') checks++;
      };
      const stop = s.onRequest(onRequest);
      try {
        const answers = await Promise.all(Array.from({ length: 20 }, () => gql(client, '{ viewer { accountId } }')));
        for (const res of answers) {
          expect(res.data).toEqual({ viewer: { accountId: fresh.accountId } });
          expect(res.extensions?.cost?.restCalls).toBe(1);
        }
        // One check for the twenty operations, and each operation's own `viewer` call.
        expect(checks).toBe(1 + 20);
      } finally {
        stop();
      }
    });
  });

  describe('sizes decided before parsing', () => {
    const auth = () => ({ authorization: `Bearer ${s.a.apiKey}` });
    const padded = (bytes: number) => `{ __typename }${' '.repeat(bytes - '{ __typename }'.length)}`;

    it.each([
      ['a document one byte over 100 KiB', () => ({ query: padded(100 * 1024 + 1) }), 'DOCUMENT_TOO_LARGE', 100 * 1024, 100 * 1024 + 1],
      ['a document of 52,017 characters that is 104,017 bytes of UTF-8', () => ({ query: `{ __typename } # ${'é'.repeat(52_000)}` }), 'DOCUMENT_TOO_LARGE', 100 * 1024, 17 + 104_000],
      // `{"v":"…"}` is the value and 8 bytes.
      ['variables one byte over 1 MiB as JSON', () => ({ query: 'query($v: String) { __typename }', variables: { v: 'x'.repeat(1024 * 1024 - 8 + 1) } }), 'VARIABLES_TOO_LARGE', 1024 * 1024, 1024 * 1024 + 1],
    ])('refuses %s with a coded 413 naming the limit and the size', async (_name, body, code, limit, value) => {
      const res = await post(s, JSON.stringify(body()), auth());
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code, limit, value } }] });
    });

    it('answers a document of exactly 100 KiB', async () => {
      const res = await post(s, JSON.stringify({ query: padded(100 * 1024) }), auth());
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ __typename: 'Query' });
    });

    it('still answers a body that is not JSON with the app\'s 400, the guard handling only sizes', async () => {
      const res = await post(s, '{"query": ', auth());
      expect(res.status).toBe(400);
    });

    it('refuses an oversized document sent to be registered as a persisted query', async () => {
      const query = padded(100 * 1024 + 1);
      const res = await post(s, JSON.stringify({ query, extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } }), auth());
      expect(res.status).toBe(413);
      expect(res.body.errors[0].extensions.code).toBe('DOCUMENT_TOO_LARGE');
    });
  });

  describe('introspection counted like any field', () => {
    const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');

    it('refuses 1,000 aliases of __schema with TOO_MANY_ALIASES while /health keeps answering', async () => {
      const refused = gql(s.a, `{ ${aliases(1000, '__schema { types { name fields { name } } }')} }`);
      await healthAnswers(s);
      const res = await answersWithin(refused, 10_000, 'the refused operation');
      expect(res.status).toBe(400);
      expect(res.data).toBeUndefined();
      expect(res.errors).toEqual([expect.objectContaining({ extensions: { code: 'TOO_MANY_ALIASES', limit: 30, value: 1000 } })]);
    });

    it.each([
      ['31 aliased fields, introspection among them, past the limit of 30', 400, 'TOO_MANY_ALIASES', `{ ${aliases(10, '__schema { queryType { name } }')} t: __type(name: "Check") { name } ${Array.from({ length: 20 }, (_, i) => `n${i}: __typename`).join(' ')} }`],
      ['30 aliased fields, introspection among them, at the limit', 200, undefined, `{ ${aliases(10, '__schema { queryType { name } }')} ${Array.from({ length: 20 }, (_, i) => `n${i}: __typename`).join(' ')} }`],
      ['21 __schema fields costing 50 each, past the cost of 1000', 400, 'QUERY_TOO_COSTLY', `{ ${aliases(21, '__schema { queryType { name } }')} }`],
      ['20 __schema fields costing 50 each, at the cost of 1000', 200, undefined, `{ ${aliases(20, '__schema { queryType { name } }')} }`],
      ['introspection 16 levels deep, past the depth of 15', 400, 'QUERY_TOO_DEEP', `{ __schema { types { fields { type { ${'ofType { '.repeat(11)}name${' }'.repeat(15)} }`],
    ])('answers %s with status %i', async (_name, status, code, query) => {
      const res = await gql(s.a, query);
      expect(res.status).toBe(status);
      if (code) expect(res.errors?.[0]?.extensions?.code).toBe(code);
      else expect(res.errors).toBeUndefined();
    });

    it.each([
      ['the default introspection query', undefined],
      ['the introspection query with every option', { inputValueDeprecation: true, descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true }],
    ])('answers %s within the default limits (depth 15, 30 aliases, cost 1000)', async (_name, options) => {
      const query = getIntrospectionQuery(options);
      const schema = buildExecutableSchema(loadTypeDefs(), {});
      const measure = measureOperation(schema, parse(query));
      expect(measure).toEqual({ depth: 15, aliases: 0, cost: 50 });
      expect(limitError(measure, { maxDepth: 15, maxAliases: 30, maxCost: 1000 })).toBeNull();
      const res = await gql(s.a, query);
      expect(res.status).toBe(200);
      expect(res.errors).toBeUndefined();
      expect(res.data.__schema.types.length).toBeGreaterThan(50);
      expect((res.extensions?.cost as { estimated?: number }).estimated).toBe(50);
    });
  });
});

describe('GraphQL hardening with tight settings', () => {
  let s: TestServer;
  const limits = { graphqlMaxDocumentBytes: 1024, graphqlMaxVariablesBytes: 1024, graphqlIntrospectionCost: 600, graphqlMaxCost: 1000, graphqlMaxDepth: 6 };

  beforeAll(async () => {
    s = await startTestServer({ config: limits });
  });
  afterAll(async () => s?.close());

  it.each([
    ['a document', `/graphql?query=${encodeURIComponent(`{ __typename }${' '.repeat(1100)}`)}`, 'DOCUMENT_TOO_LARGE'],
    ['variables', `/graphql?query=${encodeURIComponent('query($v: String) { __typename }')}&variables=${encodeURIComponent(JSON.stringify({ v: 'x'.repeat(1100) }))}`, 'VARIABLES_TOO_LARGE'],
  ])('applies the limits to %s sent with GET', async (_name, path, code) => {
    const res = await s.raw('GET', path, { headers: { authorization: `Bearer ${s.a.apiKey}` } });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions.code).toBe(code);
  });

  it.each([
    ['two __schema fields cost what GRAPHQL_INTROSPECTION_COST says', '{ a: __schema { queryType { name } } b: __schema { queryType { name } } }', 'QUERY_TOO_COSTLY', undefined],
    ['introspection counts towards GRAPHQL_MAX_DEPTH', '{ __schema { types { fields { type { ofType { ofType { name } } } } } } }', 'QUERY_TOO_DEEP', undefined],
    ['one __schema field is within the limits', '{ __schema { queryType { name } } }', undefined, 600],
  ])('costs introspection by the settings: %s', async (_name, query, code, estimated) => {
    const res = await gql(s.a, query);
    if (code) expect(res.errors?.[0]?.extensions?.code).toBe(code);
    else expect((res.extensions?.cost as { estimated?: number }).estimated).toBe(estimated);
  });

  describe('over graphql-ws', () => {
    /** A raw graphql-transport-ws socket: its messages in order, and its close code. */
    const openSocket = async () => {
      const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/graphql`, ['graphql-transport-ws']);
      const messages: any[] = [];
      const waiters: Array<(m: any) => void> = [];
      ws.on('message', (data) => {
        const m = JSON.parse(String(data));
        const w = waiters.shift();
        if (w) w(m);
        else messages.push(m);
      });
      const closed = once(ws, 'close').then(([code]) => code as number);
      await once(ws, 'open');
      return {
        ws, closed, messages,
        send: (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
        next: () => (messages.length ? Promise.resolve(messages.shift()) : new Promise<any>((resolve) => waiters.push(resolve))),
      };
    };

    it.each([
      ['no connection_init', false],
      ['a connection_init with a made-up key still being checked', true],
    ])('closes a socket with %s on its first subscribe without parsing the document', async (_name, init) => {
      const socket = await openSocket();
      if (init) socket.send({ type: 'connection_init', payload: { authorization: 'Bearer lo_made_up_key' } });
      // Not GraphQL at all: parsed, it would be answered with a syntax error message instead.
      socket.send({ id: '1', type: 'subscribe', payload: { query: '{ this is not graphql' } });
      expect([4401, 4403]).toContain(await socket.closed);
      expect(socket.messages.filter((m) => m.type !== 'connection_ack')).toEqual([]);
    });

    it.each([
      ['a document over the limit', { query: `{ __typename }${' '.repeat(1100)}` }, 'DOCUMENT_TOO_LARGE'],
      ['variables over the limit', { query: 'query($v: String) { __typename }', variables: { v: 'x'.repeat(1100) } }, 'VARIABLES_TOO_LARGE'],
      ['31 aliases of introspection fields', { query: `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(' ')} }` }, 'TOO_MANY_ALIASES'],
      ['introspection nested past the depth limit', { query: '{ __schema { types { fields { type { ofType { ofType { name } } } } } } }' }, 'QUERY_TOO_DEEP'],
    ])('answers a subscribe with %s with an error message for it, and keeps the socket', async (_name, payload, code) => {
      const client = await connectGraphqlWs(s.url, { authorization: `Bearer ${s.a.apiKey}` });
      try {
        const { refused, after } = await refusedThenServed(client, payload);
        expect(refused).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code }) })]);
        expect(after).toEqual({ data: { __typename: 'Query' } });
      } finally {
        await client.dispose();
      }
    });

    it('closes a socket whose message is larger than any operation may be with 1009 (Message Too Big)', async () => {
      const socket = await openSocket();
      socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${s.a.apiKey}` } });
      expect((await socket.next()).type).toBe('connection_ack');
      socket.send({ id: '1', type: 'subscribe', payload: { query: `{ __typename }${' '.repeat(100 * 1024)}` } });
      expect(await socket.closed).toBe(1009);
    });
  });
});

describe('the caller check before parsing', () => {
  /** A REST client whose `GET /v1/accounts/me` answers `status` for a key, counting the calls. */
  const fakeClient = (statusOf: (authorization: string) => number) => {
    const calls: string[] = [];
    const client = {
      session: (headers: Record<string, string>) => ({
        async get() {
          calls.push(headers.authorization!);
          const status = statusOf(headers.authorization!);
          if (status !== 200) throw new RestError(status, { statusCode: status, error: 'x', message: `REST says ${status}` });
          return { status, body: { id: 'acc' }, headers: {} };
        },
      }),
    } as unknown as RestClient;
    return { client, calls };
  };

  it('remembers an accepted caller for the TTL, then asks again', async () => {
    let now = 0;
    const { client, calls } = fakeClient(() => 200);
    const verify = createCallerVerifier({ client, ttlMs: 30_000, now: () => now });
    await verify({ authorization: 'Bearer k' });
    now = 29_999;
    await verify({ authorization: 'Bearer k' });
    expect(calls).toHaveLength(1);
    now = 30_000;
    await verify({ authorization: 'Bearer k' });
    expect(calls).toHaveLength(2);
  });

  it('asks again for every caller once told to forget (a key was revoked)', async () => {
    const { client, calls } = fakeClient(() => 200);
    const verify = createCallerVerifier({ client });
    await verify({ authorization: 'Bearer k' });
    await verify({ authorization: 'Bearer k' });
    verify.forgetAll();
    expect(verify.size).toBe(0);
    await verify({ authorization: 'Bearer k' });
    expect(calls).toHaveLength(2);
  });

  it('tells callers apart by their key and account headers together', async () => {
    const { client, calls } = fakeClient(() => 200);
    const verify = createCallerVerifier({ client });
    await verify({ authorization: 'Bearer k' });
    await verify({ authorization: 'Bearer k', 'x-lookout-account': 'a' });
    await verify({ authorization: 'Bearer k', 'x-checkly-account': 'a' });
    await verify({ authorization: 'Bearer k', 'x-lookout-account': 'a' });
    expect(calls).toHaveLength(3);
  });

  it('remembers a bounded number of callers, the least recently accepted going first', async () => {
    const { client, calls } = fakeClient(() => 200);
    const verify = createCallerVerifier({ client, maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await verify({ authorization: key });
    expect(verify.size).toBe(3);
    await verify({ authorization: 'd' });
    await verify({ authorization: 'a' });
    expect(calls).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it.each([
    [401, 'rejects with UNAUTHENTICATED and asks again next time', 'UNAUTHENTICATED', 2],
    [403, 'rejects with FORBIDDEN and asks again next time', 'FORBIDDEN', 2],
    [503, 'rejects with BACKEND_UNAVAILABLE and asks again next time', 'BACKEND_UNAVAILABLE', 2],
    [429, 'accepts the caller (REST rate-limits known keys only) and remembers it', null, 1],
  ])('when the REST API answers %i, the check %s', async (status, _name, code, calls) => {
    const fake = fakeClient(() => status);
    const verify = createCallerVerifier({ client: fake.client });
    for (let i = 0; i < 2; i++) {
      const outcome = await verify({ authorization: 'Bearer k' }).then(() => null, (err: RestError) => err.extensions.code);
      expect(outcome).toBe(code);
    }
    expect(fake.calls).toHaveLength(calls);
  });

  it('asks once for concurrent requests of one caller', async () => {
    const { client, calls } = fakeClient(() => 200);
    const verify = createCallerVerifier({ client });
    await Promise.all(Array.from({ length: 50 }, () => verify({ authorization: 'Bearer k' })));
    expect(calls).toHaveLength(1);
  });
});

describe('userErrors of a REST 400', () => {
  const refusedWith = (body: unknown, maxIssues = 20) => withUserErrors(async () => {
    throw new RestError(400, body as never, undefined, { maxIssues });
  });
  const many = (n: number, key: (i: number) => string) => Array.from({ length: n }, (_, i) => key(i));

  it('gives each listed issue its own userError and says how many more were not listed', async () => {
    const { value, userErrors } = await refusedWith({
      statusCode: 400, error: 'Bad Request', message: 'summary',
      validation: { source: 'payload', keys: ['name', 'request.url'], issues: [{ key: 'name', message: 'is required', code: 'REQUIRED' }, { key: 'request.url', message: 'must be a URL' }], omitted: 998 },
    });
    expect(value).toBeNull();
    // An issue's stable code travels as the userError's reason; an older backend's issue has none.
    expect(userErrors).toEqual([
      { field: 'name', code: 'BAD_USER_INPUT', message: 'is required', reason: 'REQUIRED' },
      { field: 'request.url', code: 'BAD_USER_INPUT', message: 'must be a URL', reason: null },
      { field: null, code: 'TOO_MANY_ERRORS', message: '998 more invalid fields were not listed' },
    ]);
  });

  it.each([
    ['100,000 keys', 100_000],
    ['21 keys', 21],
  ])('bounds an older backend\'s body with %s and one message naming them all, never repeating that message', async (_name, n) => {
    const keys = many(n, (i) => `locations.${i}`);
    const message = keys.map((k) => `"${k}" must be one of the allowed values`).join('. ');
    const { userErrors } = await refusedWith({ statusCode: 400, error: 'Bad Request', message, validation: { source: 'payload', keys } }, 20);
    expect(userErrors).toHaveLength(21);
    expect(userErrors.slice(0, 20)).toEqual(keys.slice(0, 20).map((field) => ({ field, code: 'BAD_USER_INPUT', message: 'must be one of the allowed values', reason: null })));
    expect(userErrors[20]).toEqual({ field: null, code: 'TOO_MANY_ERRORS', message: `${n - 20} more invalid ${n - 20 === 1 ? 'field was' : 'fields were'} not listed` });
  });

  it.each([
    ['keys the message does not name get a short message of their own', { message: 'Invalid input', validation: { source: 'payload', keys: ['a', 'b'] } }, [{ field: 'a', message: 'is invalid', reason: null }, { field: 'b', message: 'is invalid', reason: null }]],
    ['a key listed twice is one userError', { message: '"a" is bad. "a" is worse', validation: { source: 'payload', keys: ['a', 'a'] } }, [{ field: 'a', message: 'is bad', reason: null }]],
    ['a 400 naming no key is one userError with the message', { message: 'Body is not valid JSON', validation: { source: 'payload', keys: [] } }, [{ field: null, message: 'Body is not valid JSON' }]],
    ['a message of a megabyte is cut', { message: 'x'.repeat(1024 * 1024) }, [{ field: null, message: expect.stringMatching(/^x{999}…$/) }]],
  ])('%s', async (_name, body, expected) => {
    const { userErrors } = await refusedWith({ statusCode: 400, error: 'Bad Request', ...body });
    expect(userErrors).toEqual(expected.map((e) => ({ code: 'BAD_USER_INPUT', ...e })));
  });

  it('bounds extensions.validationKeys of the GraphQL error and counts the keys left out', () => {
    const err = new RestError(400, { statusCode: 400, error: 'Bad Request', message: 'm', validation: { source: 'payload', keys: many(5000, (i) => `tags.${i}`) } }, undefined, { maxIssues: 20 });
    expect(err.extensions.validationKeys).toEqual(many(20, (i) => `tags.${i}`));
    expect(err.extensions.omittedValidationKeys).toBe(4980);
  });
});
