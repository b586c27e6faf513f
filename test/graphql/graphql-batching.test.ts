import { GraphQLError } from 'graphql';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErrorFormatter, RestError } from '../../src/graphql/errors.js';
import { BACKENDS } from '../support/backends.js';
import { clientVia } from '../support/client-via.js';
import { countRestRequests, gql } from '../support/graphql.js';
import { startRestProxy, unknownQueryParameter } from '../support/rest-proxy.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(BACKENDS)('GraphQL batching, budget and auth forwarding on $name', (backend) => {
  let s: TestServer;
  let tight: TestServer;
  const checkIds: string[] = [];

  beforeAll(async () => {
    [s, tight] = await Promise.all([startTestServer({ backend }), startTestServer({ backend, config: { graphqlRestBudget: 2 } })]);
    const groups: number[] = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) groups.push((await s.a.request('POST', '/v1/check-groups', { name })).body.id);
    for (let i = 0; i < 50; i++) {
      const res = await s.a.request('POST', '/v1/checks/api', { name: `c${i}`, groupId: groups[i % 3], request: { url: `https://example.test/${i}` } });
      checkIds.push(res.body.id);
    }
    await tight.a.request('POST', '/v1/check-groups', { name: 'Solo' }).then((g) =>
      Promise.all([0, 1, 2].map((i) => tight.a.request('POST', '/v1/checks/tcp', { name: `t${i}`, groupId: g.body.id, request: { hostname: 'db.test', port: 5432 } }))));
  });
  afterAll(async () => {
    await s?.close();
    await tight?.close();
  });

  it('answers the group of 50 checks with at most 2 REST calls, as counted by the service too', async () => {
    // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
    await gql(s.a, '{ __typename }');
    const counter = countRestRequests(s);
    const res = await gql(s.a, '{ checks(first: 50) { totalCount nodes { name group { name } } } }');
    counter.stop();
    expect(res.errors).toBeUndefined();
    expect(res.data.checks.nodes).toHaveLength(50);
    expect(new Set(res.data.checks.nodes.map((n: any) => n.group.name))).toEqual(new Set(['Alpha', 'Beta', 'Gamma']));
    expect(res.extensions?.cost).toMatchObject({ restCalls: 2, budget: 50 });
    expect(counter.count).toBe(2);
  });

  it('loads 25 checks named by id (aliases), each with its group, with 2 REST calls', async () => {
    // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
    await gql(s.a, '{ __typename }');
    const counter = countRestRequests(s);
    const wanted = checkIds.slice(0, 25);
    const query = `{ ${wanted.map((id, i) => `c${i}: check(id: "${id}") { checkId group { groupId } }`).join(' ')} }`;
    const res = await gql(s.a, query);
    counter.stop();
    expect(res.errors).toBeUndefined();
    expect(Object.values(res.data).map((c: any) => c.checkId)).toEqual(wanted);
    expect(res.extensions?.cost?.restCalls).toBe(2);
    expect(counter.count).toBe(2);
  });

  it('fetches a repeated id once per operation', async () => {
    const res = await gql(s.a, `{ a: check(id: "${checkIds[0]}") { name } b: check(id: "${checkIds[0]}") { name } }`);
    expect(res.data).toEqual({ a: { name: 'c0' }, b: { name: 'c0' } });
    expect(res.extensions?.cost?.restCalls).toBe(1);
  });

  it('reports the REST calls used even when none were needed', async () => {
    const res = await gql(s.a, '{ check(id: "not-a-check-id") { id } }');
    expect(res.data).toEqual({ check: null });
    expect(res.extensions?.cost).toMatchObject({ restCalls: 0, budget: 50 });
  });

  it('resolves fields past the REST budget to REST_BUDGET_EXCEEDED and still returns the rest', async () => {
    const res = await gql(tight.a, '{ checks(first: 3) { nodes { name group { name checks(first: 1) { totalCount } } } } }');
    // Budget 2: the check list and the group batch fit; the group's own check list does not.
    expect(res.extensions?.cost).toMatchObject({ restCalls: 2, budget: 2 });
    expect(res.data?.checks.nodes.map((n: any) => n.name).sort()).toEqual(['t0', 't1', 't2']);
    expect(res.data?.checks.nodes.every((n: any) => n.group === null)).toBe(true);
    const codes = new Set(res.errors?.map((e) => e.extensions?.code));
    expect(codes).toEqual(new Set(['REST_BUDGET_EXCEEDED']));
    expect(res.errors?.some((e) => e.path?.join('.') === 'checks.nodes.0.group.checks')).toBe(true);
  });

  it('falls back to concurrent single GETs against a backend that rejects ids= filters', async () => {
    // A second Lookout whose GraphQL layer talks to the first one through a proxy that answers 400 to
    // any `ids` filter, like an older backend would: the data and the REST API are the first server's.
    const proxy = await startRestProxy(s.url, (_req, url) => (url.searchParams.has('ids') ? unknownQueryParameter('ids') : undefined));
    const front = await startTestServer({ backend, config: { graphqlBackendUrl: proxy.url } });
    try {
      const query = `{ ${checkIds.slice(0, 3).map((id, i) => `c${i}: check(id: "${id}") { name group { name } }`).join(' ')} }`;
      const asA = clientVia(front, s.a);
      const first = await gql(asA, query);
      expect(first.errors).toBeUndefined();
      expect(first.data).toEqual({ c0: { name: 'c0', group: { name: 'Alpha' } }, c1: { name: 'c1', group: { name: 'Beta' } }, c2: { name: 'c2', group: { name: 'Gamma' } } });
      // One refused batch and three single GETs per kind.
      expect(first.extensions?.cost?.restCalls).toBe(8);
      proxy.seen.length = 0;
      const second = await gql(asA, query);
      expect(second.data).toEqual(first.data);
      // The refusal is remembered for this backend: no more `ids=` attempts.
      expect(second.extensions?.cost?.restCalls).toBe(6);
      expect(proxy.seen.filter((u) => u.includes('ids='))).toEqual([]);
    } finally {
      await front.close();
      await proxy.close();
    }
  });

  it('maps a REST 429 to RATE_LIMITED with retryAfter, and an unreachable backend to BACKEND_UNAVAILABLE (503, before the operation runs)', async () => {
    const [limited, unreachable] = await Promise.all([
      startTestServer({ backend, config: { rateLimitMax: 1 } }),
      startTestServer({ backend, config: { graphqlBackendUrl: 'http://127.0.0.1:9' } }),
    ]);
    try {
      // Not `viewer`: the key check before the first operation spends GET /v1/accounts/me's budget of 1.
      expect((await gql(limited.a, '{ checks(first: 1) { totalCount } }')).data).toEqual({ checks: { totalCount: 0 } });
      const over = await gql(limited.a, '{ checks(first: 1) { totalCount } }');
      expect(over.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
      const down = await gql(unreachable.a, '{ check(id: "00000000-0000-4000-8000-000000000000") { id } }');
      expect(down.status).toBe(503);
      expect(down.errors?.map((e) => e.extensions?.code)).toEqual(['BACKEND_UNAVAILABLE']);
      expect(down.data).toBeUndefined();
    } finally {
      await limited.close();
      await unreachable.close();
    }
  });

  it('refuses an operation without an API key with UNAUTHENTICATED', async () => {
    const res = await s.raw('POST', '/graphql', { body: JSON.stringify({ query: '{ viewer { name } }' }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(res.body.data).toBeUndefined();
  });

  it('checks an API key with the REST API first, and answers one it refuses with UNAUTHENTICATED (401) and no data', async () => {
    const res = await s.raw('POST', '/graphql', {
      body: JSON.stringify({ query: '{ viewer { name } }' }),
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-key' },
    });
    expect(res.status).toBe(401);
    expect(res.body.errors.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
    expect(res.body.data).toBeUndefined();
  });

  it("forwards the account header: a key sent with another account's id is FORBIDDEN", async () => {
    const res = await gql(s.a, '{ viewer { name } }', undefined, { 'x-lookout-account': s.b.accountId });
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    const checkly = await gql(s.a, '{ check(id: "00000000-0000-4000-8000-000000000000") { id } }', undefined, { 'x-lookout-account': '', 'x-checkly-account': s.b.accountId });
    expect(checkly.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
  });

  it("answers each account with its own data only", async () => {
    const a = await gql(s.a, '{ viewer { accountId } checks(first: 1) { totalCount } checkGroups(first: 10) { totalCount } }');
    const b = await gql(s.b, '{ viewer { accountId } checks(first: 1) { totalCount } checkGroups(first: 10) { totalCount } }');
    expect(a.data).toEqual({ viewer: { accountId: s.a.accountId }, checks: { totalCount: 50 }, checkGroups: { totalCount: 3 } });
    expect(b.data).toEqual({ viewer: { accountId: s.b.accountId }, checks: { totalCount: 0 }, checkGroups: { totalCount: 0 } });
  });
});

describe('the GraphQL error formatter', () => {
  const format = createErrorFormatter(pino({ level: 'silent' }));
  const located = (original: Error) => new GraphQLError(original.message, { path: ['check'], originalError: original });

  it('masks an unexpected error as "Internal server error" without its message', () => {
    const out = format({ message: 'db password is hunter2', path: ['check'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }, located(new Error('db password is hunter2')));
    expect(out).toEqual({ message: 'Internal server error', path: ['check'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  });

  it.each([
    [401, 'UNAUTHENTICATED'], [403, 'FORBIDDEN'], [404, 'NOT_FOUND'], [400, 'BAD_USER_INPUT'], [409, 'CONFLICT'],
    [429, 'RATE_LIMITED'], [500, 'BACKEND_UNAVAILABLE'], [503, 'BACKEND_UNAVAILABLE'], [0, 'BACKEND_UNAVAILABLE'],
  ])('maps REST status %i to %s and lets it through', (status, code) => {
    const err = new RestError(status, { statusCode: status, error: 'x', message: 'REST says no' }, 7);
    expect(err.extensions.code).toBe(code);
    if (code === 'RATE_LIMITED') expect(err.extensions.retryAfter).toBe(7);
    if (code === 'BACKEND_UNAVAILABLE') expect(err.message).not.toContain('REST says no');
    const formatted = { message: err.message, extensions: err.extensions };
    expect(format(formatted, located(err))).toBe(formatted);
  });

  it.each([
    [409, 'LAST_OWNER', 'LAST_OWNER'], [403, 'ROLE_FORBIDS', 'ROLE_FORBIDS'], [404, 'NOT_A_MEMBER', 'NOT_A_MEMBER'],
    // Only refusals a caller acts on, and only codes shaped like REST's declared ones.
    [400, 'SOMETHING', undefined], [500, 'INTERNAL', undefined], [409, 'not a code', undefined], [409, 42, undefined],
  ])("keeps REST %i's attributes.code %j as extensions.reason: %j", (status, attributeCode, reason) => {
    const err = new RestError(status, { statusCode: status, error: 'x', message: 'REST says no', attributes: { code: attributeCode } });
    expect(err.extensions.reason).toBe(reason);
  });
});
