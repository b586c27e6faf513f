import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { gql } from '../support/graphql.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const PUBLIC_URL = 'https://lookout.example.test/';
const CONSOLE = 'https://lookout.example.test';

/**
 * What the console's test session pages read: a session's console link (the one the CLI prints), the
 * sessions that ran one check, and one result of a session with its files, for deployed checks and
 * for the checks `checkly test` submits alike (those no check holds).
 */
describe('GraphQL: test session pages, a check\'s triggered runs, session results', () => {
  let s: TestServer;
  let target: HttpTarget;
  const checks: Record<string, string> = {};
  let cartSession: Record<string, any>;
  let blogSession: Record<string, any>;
  let submitted: Record<string, any>;

  async function finished(client: TestClient, id: string): Promise<Record<string, any>> {
    const done = await client.request('GET', `/v1/test-sessions/${id}/completion?maxWaitSeconds=30`);
    expect(done.status, done.text).toBe(200);
    return done.body;
  }

  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer({ config: { publicUrl: PUBLIC_URL } }), startHttpTarget()]);
    for (const [key, path] of [['cart', '/json'], ['blog', '/status/503']] as const) {
      const res = await s.a.request('POST', '/v1/checks/api', {
        name: `${key} API`, locations: ['eu-central-1'],
        request: { url: `${target.http.url}${path}`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
      });
      expect(res.status, res.text).toBe(201);
      checks[key] = res.body.id;
    }
    const cart = await s.a.request('POST', '/v1/test-sessions/trigger', { checkIds: [checks.cart], name: 'cart only' });
    const blog = await s.a.request('POST', '/v1/test-sessions/trigger', { checkIds: [checks.blog], name: 'blog only' });
    const run = await s.a.request('POST', '/v1/test-sessions/run', {
      name: 'checkly test',
      checkRunJobs: [{
        checkType: 'API', logicalId: 'submitted', name: 'Submitted API',
        request: { url: `${target.http.url}/status/500`, method: 'GET', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
      }],
    });
    expect(run.status, run.text).toBe(202);
    [cartSession, blogSession, submitted] = await Promise.all([finished(s.a, cart.body.id), finished(s.a, blog.body.id), finished(s.a, run.body.testSessionId)]);
    // A server's start alone can take a minute on a loaded 2-core CI machine.
  }, 240_000);
  afterAll(async () => Promise.all([s?.close(), target?.close()]));

  it('links every session to its console page under LOOKOUT_PUBLIC_URL, in REST, GraphQL and the CLI\'s short link', async () => {
    const page = `${CONSOLE}/accounts/${s.a.accountId}/test-sessions/${cartSession.id}`;
    expect(cartSession.testSessionLink).toBe(page);
    const read = await gql(s.a, 'query($id: ID!) { testSession(id: $id) { link } }', { id: cartSession.id });
    expect(read.errors).toBeUndefined();
    expect(read.data.testSession.link).toBe(page);
    const short = await s.a.request('GET', `/next/test-sessions/${cartSession.id}/link`);
    expect(short.status, short.text).toBe(200);
    expect(short.body).toEqual({ link: page });
    const resultId = cartSession.results[0].resultIds[0];
    const links = await s.a.request('GET', `/next/test-sessions/${cartSession.id}/results/${resultId}/links`);
    expect(links.body).toEqual({ testResultLink: `${page}/results/${resultId}`, testTraceLinks: [], videoLinks: [] });
    // Another account's session, or a result that is not of the session, gets no link.
    expect((await s.b.request('GET', `/next/test-sessions/${cartSession.id}/link`)).status).toBe(404);
    expect((await s.a.request('GET', `/next/test-sessions/${blogSession.id}/results/${resultId}/links`)).status).toBe(404);
  });

  it('lists only the sessions that ran a check, by global id or REST UUID, and refuses an id that names no check', async () => {
    const query = 'query($checkId: ID) { testSessions(first: 10, checkId: $checkId) { nodes { testSessionId name checkRuns { checkId status } } } }';
    const byGlobal = await gql(s.a, query, { checkId: toGlobalId('Check', checks.cart!) });
    expect(byGlobal.errors).toBeUndefined();
    expect(byGlobal.data.testSessions.nodes).toEqual([{ testSessionId: cartSession.id, name: 'cart only', checkRuns: [{ checkId: checks.cart, status: 'PASSED' }] }]);
    const byRest = await gql(s.a, query, { checkId: checks.blog });
    expect(byRest.data.testSessions.nodes.map((n: { name: string }) => n.name)).toEqual(['blog only']);
    expect((await gql(s.a, query, {})).data.testSessions.nodes).toHaveLength(3);
    // Account isolation: b sees none of a's sessions for the same check.
    expect((await gql(s.b, query, { checkId: checks.cart })).data.testSessions.nodes).toEqual([]);
    const bad = await gql(s.a, query, { checkId: 'not-a-check' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await s.a.request('GET', '/v1/test-sessions?checkId=nope')).status).toBe(400);
  });

  it('reads the results of a checkly test session through the session, with their files', async () => {
    const read = await gql(s.a, `query($id: ID!) {
      testSession(id: $id) { status checkRuns { name status results { resultId hasFailures runLocation errors { message } } } }
    }`, { id: submitted.id });
    expect(read.errors).toBeUndefined();
    const [run] = read.data.testSession.checkRuns;
    expect(run).toMatchObject({ name: 'Submitted API', status: 'FAILED', results: [{ resultId: submitted.results[0].resultIds[0], hasFailures: true }] });

    const one = await gql(s.a, `query($sid: ID!, $rid: ID!) {
      testSessionResult(testSessionId: $sid, resultId: $rid) { testSessionId result { resultId name hasFailures } assets { type name path } }
    }`, { sid: toGlobalId('TestSession', submitted.id), rid: run.results[0].resultId });
    expect(one.errors).toBeUndefined();
    expect(one.data.testSessionResult).toMatchObject({ testSessionId: submitted.id, result: { resultId: run.results[0].resultId, name: 'Submitted API', hasFailures: true } });
    const names = one.data.testSessionResult.assets.map((a: { name: string }) => a.name);
    expect(names).toEqual(expect.arrayContaining(['logs.json', 'check-run-data.json']));
    // Each path downloads with the key.
    const log = await s.a.request('GET', one.data.testSessionResult.assets.find((a: { name: string }) => a.name === 'logs.json').path);
    expect(log.status, log.text).toBe(200);
  });

  it('answers null for a result of another account\'s session, or of another session', async () => {
    const query = 'query($sid: ID!, $rid: ID!) { testSessionResult(testSessionId: $sid, resultId: $rid) { testSessionId } }';
    const resultId = cartSession.results[0].resultIds[0];
    expect((await gql(s.b, query, { sid: cartSession.id, rid: resultId })).data.testSessionResult).toBeNull();
    expect((await gql(s.a, query, { sid: blogSession.id, rid: resultId })).data.testSessionResult).toBeNull();
    expect((await gql(s.a, query, { sid: cartSession.id, rid: 'nope' })).data.testSessionResult).toBeNull();
  });
});
