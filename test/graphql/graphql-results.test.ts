import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { clientVia } from '../support/client-via.js';
import { countRestRequests, gql } from '../support/graphql.js';
import { closedPort, startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startRestProxy, routeNotFound, unknownQueryParameter } from '../support/rest-proxy.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const MINUTE = 60_000;
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const CHECKS = 100;
const RESULTS_PER_CHECK = 6;

const globalId = (type: string, restId: string) => Buffer.from(`${type}:${restId}`, 'utf8').toString('base64url');

const RESULT_FIELDS = `
  id resultId checkId name checkType resultType hasFailures hasErrors isDegraded isCancelled overMaxResponseTime
  runLocation startedAt stoppedAt createdAt responseTime attempts sequenceId checkRunId errorGroupIds
  errors { code message }
  assertions { source property comparison target actual passed }
  apiCheckResult {
    request { method url data headers { name value } params { name value } }
    response { status statusText body bodyTruncated headers { name value } timingPhases { dns tcp tls firstByte download wait total } timings { lookup connect response end } }
    requestError jobLog { setup { message } request { time message } teardown { message } } jobAssets { name path }
  }
  browserCheckResult { type }
  check { checkId name }
`;

describe.each(BACKENDS)('GraphQL run data (results, statuses, error groups, test sessions, analytics) on $name', (backend) => {
  let s: TestServer;
  let a: TestClient;
  let b: TestClient;
  let target: HttpTarget;
  let rec: ReturnType<typeof testRecorder>;
  const checkIds: string[] = [];
  /** REST ids of each check's results, newest first. */
  const resultsOf = new Map<string, string[]>();

  const createApiCheck = async (client: TestClient, name: string, url: string) => {
    const res = await client.request('POST', '/v1/checks/api', {
      name, locations: ['eu-west-1'], request: { url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
    expect(res.status, res.text).toBe(201);
    return res.body as Record<string, any>;
  };

  // When the seeded runs start: filters are relative to it, not to the clock when a test runs (seeding
  // 600 runs may take more than the 30 s of slack a clock-relative filter would leave).
  let start = 0;
  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer({ backend, config: { rateLimitMax: 600_000 } }), startHttpTarget()]);
    ({ a, b } = s);
    rec = testRecorder(s.lookout.store);
    start = Date.now() - 2 * 60 * MINUTE;
    for (let i = 0; i < CHECKS; i++) {
      const check = await createApiCheck(a, `dash-${String(i).padStart(3, '0')}`, `https://shop.test/${i}`);
      checkIds.push(check.id);
      const ids: string[] = [];
      for (let r = 0; r < RESULTS_PER_CHECK; r++) {
        // Every tenth check's newest run failed with a network error (an error group of its own).
        const failing = i % 10 === 0 && r === RESULTS_PER_CHECK - 1;
        const result = await rec.record({
          check: runnable(a, check),
          probe: probe({
            at: new Date(start + r * MINUTE + i), responseTime: 100 + r,
            hasFailures: failing, hasErrors: failing, errors: failing ? [{ code: 'ECONNREFUSED', message: `connect ECONNREFUSED 10.0.0.${i}:443` }] : [],
          }),
        });
        ids.unshift(result.id);
      }
      resultsOf.set(check.id, ids);
    }
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await target?.close();
  });

  describe('batching that scales with the query, not with its lists', () => {
    it('answers 100 checks with their status, 5 latest results and open error groups with 4 REST calls', async () => {
      // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
      await gql(a, '{ __typename }');
      const counter = countRestRequests(s);
      const res = await gql(a, `{ checks(first: 100) { nodes {
        checkId
        status { checkId health hasFailures check { checkId } }
        latestResults(count: 5) { resultId checkId startedAt hasFailures }
        errorGroups(archived: false) { errorGroupId checkId cleanedErrorMessage }
      } } }`);
      counter.stop();
      expect(res.errors).toBeUndefined();
      const nodes = res.data.checks.nodes as any[];
      expect(nodes).toHaveLength(CHECKS);
      for (const node of nodes) {
        const i = checkIds.indexOf(node.checkId);
        expect(node.latestResults.map((r: any) => r.resultId)).toEqual(resultsOf.get(node.checkId)!.slice(0, 5));
        expect(node.status).toEqual({ checkId: node.checkId, health: i % 10 === 0 ? 'FAILING' : 'PASSING', hasFailures: i % 10 === 0, check: { checkId: node.checkId } });
        expect(node.errorGroups.map((g: any) => g.checkId)).toEqual(i % 10 === 0 ? [node.checkId] : []);
      }
      // The check list, then one call each for statuses, latest results and error groups.
      expect(counter.count).toBe(4);
      expect(res.extensions?.cost?.restCalls).toBe(4);
    });

    it('reads the typed parts of 100 × 5 results in the same single results call when they are asked for', async () => {
      // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
      await gql(a, '{ __typename }');
      const counter = countRestRequests(s);
      const res = await gql(a, `{ checks(first: 100) { nodes { latestResults { errors { code } apiCheckResult { response { status } } } } } }`);
      counter.stop();
      expect(res.errors).toBeUndefined();
      expect(counter.count).toBe(2);
      const failing = res.data.checks.nodes[0].latestResults[0];
      expect(failing.errors).toEqual([{ code: 'ECONNREFUSED' }]);
    });

    it('answers the analytics summary of 100 checks with one REST call', async () => {
      // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
      await gql(a, '{ __typename }');
      const counter = countRestRequests(s);
      const res = await gql(a, `{ checks(first: 100) { nodes { checkId analyticsSummary(metrics: ["availability", "responseTime_max"], quickRange: LAST_24_HOURS) {
        from to values { metric value } availability: value(metric: "availability") } } } }`);
      counter.stop();
      expect(res.errors).toBeUndefined();
      expect(counter.count).toBe(2);
      const first = res.data.checks.nodes.find((n: any) => n.checkId === checkIds[0]);
      expect(first.analyticsSummary.values).toEqual([{ metric: 'availability', value: expect.any(Number) }, { metric: 'responseTime_max', value: 105 }]);
      expect(first.analyticsSummary.availability).toBeCloseTo((5 / 6) * 100, 1);
    });

    it('loads the error groups of many results with one ids= call', async () => {
      const failingIds = checkIds.filter((_, i) => i % 10 === 0);
      const query = `{ ${failingIds.map((id, i) => `c${i}: check(id: "${id}") { latestResults(count: 1) { errorGroups { errorGroupId check { checkId } } } }`).join(' ')} }`;
      const res = await gql(a, query);
      expect(res.errors).toBeUndefined();
      Object.values(res.data).forEach((c: any, i) => expect(c.latestResults[0].errorGroups).toEqual([{ errorGroupId: expect.any(String), check: { checkId: failingIds[i] } }]));
      // Checks by id, latest results, error groups by id (their checks are already loaded).
      expect(res.extensions?.cost?.restCalls).toBe(3);
    });

    it('answers checkStatuses for named checks with one call, leaving out checks that never ran', async () => {
      const fresh = await createApiCheck(a, 'never ran', 'https://shop.test/fresh');
      const res = await gql(a, `query($ids: [ID!]) { checkStatuses(checkIds: $ids) { checkId name health } }`, {
        ids: [checkIds[0], globalId('Check', checkIds[1]!), fresh.id, 'not-a-check'],
      });
      expect(res.errors).toBeUndefined();
      expect(res.data.checkStatuses).toEqual([
        { checkId: checkIds[0], name: 'dash-000', health: 'FAILING' },
        { checkId: checkIds[1], name: 'dash-001', health: 'PASSING' },
      ]);
      expect(res.extensions?.cost?.restCalls).toBe(1);
      const all = await gql(a, '{ checkStatuses { checkId } }');
      expect(all.data.checkStatuses).toHaveLength(CHECKS);
      await a.request('DELETE', `/v1/checks/${fresh.id}`);
    });

    it('falls back to per-check calls against a backend without the batch filters, with the same answer', async () => {
      // A proxy in front of this server that behaves like a backend predating the batch filters.
      const proxy = await startRestProxy(s.url, (req, url) => {
        if (url.pathname === '/v2/check-results') return routeNotFound(req);
        return url.searchParams.has('checkIds') ? unknownQueryParameter('checkIds') : undefined;
      });
      const front = await startTestServer({ backend, config: { graphqlBackendUrl: proxy.url } });
      try {
        const asA = clientVia(front, a);
        const ids = checkIds.slice(0, 3);
        const query = `{ ${ids.map((id, i) => `c${i}: check(id: "${id}") { status { health } latestResults(count: 2) { resultId } errorGroups { checkId } }`).join(' ')} }`;
        const direct = await gql(a, query);
        const first = await gql(asA, query);
        expect(first.errors).toBeUndefined();
        expect(first.data).toEqual(direct.data);
        // checks; statuses refused, then the whole list; results refused, then 3; error groups refused, then 3.
        expect(first.extensions?.cost?.restCalls).toBe(1 + 2 + 4 + 4);
        const second = await gql(asA, query);
        expect(second.data).toEqual(direct.data);
        // The refusals are remembered for this backend.
        expect(second.extensions?.cost?.restCalls).toBe(1 + 1 + 3 + 3);
      } finally {
        await front.close();
        await proxy.close();
      }
    });
  });

  describe('results', () => {
    it('pages through a check results as a Relay connection over the REST cursor list', async () => {
      const checkId = checkIds[5]!;
      const expected = resultsOf.get(checkId)!;
      const page = (after?: string, first = 4) => gql(a, `query($id: ID!, $after: String, $first: Int) { check(id: $id) { results(first: $first, after: $after) {
        edges { cursor node { resultId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } } }`, { id: checkId, after, first });
      const one = (await page()).data.check.results;
      expect(one.edges.map((e: any) => e.node.resultId)).toEqual(expected.slice(0, 4));
      expect(one.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      expect(one.totalCount).toBeNull();
      const two = await page(one.pageInfo.endCursor);
      expect(two.data.check.results.edges.map((e: any) => e.node.resultId)).toEqual(expected.slice(4));
      expect(two.data.check.results.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      // Paging forward with the same size costs one REST call per page (plus the check).
      expect(two.extensions?.cost?.restCalls).toBe(2);
      // Any edge's cursor resumes right after that edge.
      const fromMiddle = await page(one.edges[1].cursor, 3);
      expect(fromMiddle.data.check.results.edges.map((e: any) => e.node.resultId)).toEqual(expected.slice(2, 5));
      expect(fromMiddle.data.check.results.pageInfo.hasNextPage).toBe(true);
    });

    it('filters a check results as /v2/check-results does', async () => {
      const res = await gql(a, `query($id: ID!) { check(id: $id) {
        failing: results(filter: { hasFailures: true }) { nodes { resultId hasFailures } }
        recent: results(filter: { from: "${new Date(start + 3.5 * MINUTE).toISOString()}" }) { nodes { resultId } }
        attempts: latestResults(filter: { resultType: ATTEMPT }) { resultId }
      } }`, { id: checkIds[0] });
      expect(res.errors).toBeUndefined();
      expect(res.data.check.failing.nodes).toEqual([{ resultId: resultsOf.get(checkIds[0]!)![0], hasFailures: true }]);
      expect(res.data.check.recent.nodes.map((n: any) => n.resultId)).toEqual(resultsOf.get(checkIds[0]!)!.slice(0, 2));
      expect(res.data.check.attempts).toEqual([]);
    });

    it('runs a real check with runCheck and reads its typed API result back by id, both ways between result and check', async () => {
      const check = await createApiCheck(a, 'Real target', `${target.http.url}/json`);
      const run = await gql(a, `mutation($id: ID!) { runCheck(id: $id) { check { checkId } sequenceId userErrors { field } results { ${RESULT_FIELDS} } } }`, { id: check.id });
      expect(run.errors).toBeUndefined();
      const { results, sequenceId, userErrors } = run.data.runCheck;
      expect(userErrors).toEqual([]);
      expect(run.data.runCheck.check).toEqual({ checkId: check.id });
      expect(results).toHaveLength(1);
      const result = results[0];
      expect(result).toMatchObject({
        checkId: check.id, name: 'Real target', checkType: 'API', resultType: 'FINAL', hasFailures: false, hasErrors: false,
        runLocation: 'eu-west-1', attempts: 1, sequenceId, errors: [], errorGroupIds: [], browserCheckResult: null,
        check: { checkId: check.id, name: 'Real target' },
      });
      expect(result.assertions).toEqual([{ source: 'STATUS_CODE', property: null, comparison: 'EQUALS', target: '200', actual: '200', passed: true }]);
      const api = result.apiCheckResult;
      expect(api.request).toMatchObject({ method: 'GET', url: `${target.http.url}/json`, data: '' });
      expect(api.request.headers).toContainEqual({ name: 'User-Agent', value: expect.stringContaining('Lookout') });
      expect(api.response).toMatchObject({ status: 200, statusText: 'OK', bodyTruncated: false });
      expect(JSON.parse(api.response.body)).toEqual({ data: { name: 'lookout', items: [1, 2, 3], nothing: null } });
      expect(api.response.headers).toContainEqual({ name: 'x-lookout-test', value: 'present' });
      const phases = api.response.timingPhases;
      for (const phase of ['dns', 'tcp', 'tls', 'firstByte', 'download', 'wait']) expect(phases[phase]).toBeGreaterThanOrEqual(0);
      expect(phases.total).toBeGreaterThanOrEqual(phases.firstByte);
      expect(result.responseTime).toBe(phases.total);
      expect(api.jobLog.request[0].message).toContain('/json');
      expect(api.requestError).toBeNull();

      // The same result by node(id) and checkResult(id), and from the check's side.
      const read = await gql(a, `query($id: ID!, $checkId: ID!) {
        node(id: $id) { id ... on CheckResult { ${RESULT_FIELDS} } }
        checkResult(id: $id) { resultId }
        check(id: $checkId) { latestResults(count: 1) { id } status { health lastRunLocation } results(first: 1) { nodes { id } } }
      }`, { id: result.id, checkId: check.id });
      expect(read.errors).toBeUndefined();
      expect(read.data.node).toEqual(result);
      expect(read.data.checkResult).toEqual({ resultId: result.resultId });
      expect(read.data.check.latestResults).toEqual([{ id: result.id }]);
      expect(read.data.check.results.nodes).toEqual([{ id: result.id }]);
      expect(read.data.check.status).toEqual({ health: 'PASSING', lastRunLocation: 'eu-west-1' });
      // runCheck left no trigger token behind.
      expect((await a.request('GET', `/v1/triggers/checks/${check.id}`)).status).toBe(404);
    });

    it('runs a check with one REST run call and leaves its trigger token alone', async () => {
      const check = await createApiCheck(a, 'Triggered', `${target.http.url}/json`);
      const token = (await a.request('POST', `/v1/triggers/checks/${check.id}`)).body.token;
      const run = await gql(a, 'mutation($id: ID!) { runCheck(id: $id) { results { hasFailures } } }', { id: globalId('Check', check.id) });
      expect(run.data.runCheck.results).toEqual([{ hasFailures: false }]);
      expect(run.extensions?.cost?.restCalls).toBe(2);
      expect((await a.request('GET', `/v1/triggers/checks/${check.id}`)).body.token).toBe(token);
    });
  });

  it('runs a check through a temporary trigger token against a backend without the run route, and removes the token', async () => {
    const proxy = await startRestProxy(s.url, (req, url) => (/^\/v1\/checks\/[^/]+\/run$/.test(url.pathname) ? routeNotFound(req) : undefined));
    const front = await startTestServer({ backend, config: { graphqlBackendUrl: proxy.url } });
    try {
      const check = await createApiCheck(a, 'Old backend', `${target.http.url}/json`);
      const asA = clientVia(front, a);
      const run = await gql(asA, 'mutation($id: ID!) { runCheck(id: $id) { results { hasFailures } } }', { id: check.id });
      expect(run.errors).toBeUndefined();
      expect(run.data.runCheck.results).toEqual([{ hasFailures: false }]);
      expect(proxy.seen.filter((line) => line.includes('/trigger'))).toEqual([
        `GET /v1/triggers/checks/${check.id}`, `POST /v1/triggers/checks/${check.id}`,
        expect.stringMatching(new RegExp(`^POST /checks/${check.id}/trigger/`)), `DELETE /v1/triggers/checks/${check.id}`,
      ]);
      expect((await a.request('GET', `/v1/triggers/checks/${check.id}`)).status).toBe(404);
    } finally {
      await front.close();
      await proxy.close();
    }
  });

  it('reads CheckStatus.idle from the REST status: the reason a check cannot run, null when it can or when the backend says nothing', async () => {
    const at = new Date().toISOString();
    const status = (checkId: string, extra: object) => ({ checkId, name: checkId, hasFailures: false, hasErrors: false, isDegraded: false, created_at: at, ...extra });
    const [idle, running, older] = [UNKNOWN_UUID, checkIds[0]!, checkIds[1]!];
    const proxy = await startRestProxy(s.url, (_req, url) => (url.pathname === '/v1/check-statuses' ? {
      status: 200,
      body: [
        status(idle, { idle: { code: 'NO_LOCATIONS', message: 'No locations, and none from its group: add one to the check or its group' } }),
        status(running, { idle: null }),
        status(older, {}),
      ],
    } : undefined));
    const front = await startTestServer({ backend, config: { graphqlBackendUrl: proxy.url } });
    try {
      const res = await gql(clientVia(front, a), '{ checkStatuses { checkId idle { code message } } }');
      expect(res.errors).toBeUndefined();
      expect(res.data.checkStatuses).toEqual([
        { checkId: idle, idle: { code: 'NO_LOCATIONS', message: 'No locations, and none from its group: add one to the check or its group' } },
        { checkId: running, idle: null },
        { checkId: older, idle: null },
      ]);
    } finally {
      await front.close();
      await proxy.close();
    }
  });

  it('shows why a check with nowhere to run is idle, and answers runCheck on it with a CONFLICT userError, against the real REST API', async () => {
    const group = await a.request('POST', '/v2/check-groups', { name: 'No locations' });
    const check = (await a.request('POST', '/v1/checks/api', { name: 'Idle', groupId: group.body.id, request: { url: `${target.http.url}/json` } })).body;
    const read = await gql(a, 'query($id: ID!) { check(id: $id) { status { idle { code message } } } checkStatuses(checkIds: [$id]) { idle { code } } }', { id: globalId('Check', check.id) });
    expect(read.errors).toBeUndefined();
    expect(read.data.check.status.idle).toEqual({ code: 'NO_LOCATIONS', message: expect.stringContaining('Nowhere to run') });
    expect(read.data.checkStatuses).toEqual([{ idle: { code: 'NO_LOCATIONS' } }]);
    const run = await gql(a, 'mutation($id: ID!) { runCheck(id: $id) { check { checkId } results { resultId } userErrors { field code message } } }', { id: check.id });
    expect(run.errors).toBeUndefined();
    expect(run.data.runCheck).toEqual({ check: null, results: [], userErrors: [{ field: null, code: 'CONFLICT', message: expect.stringContaining('Nowhere to run') }] });
  });

  it.each([
    ['409 CONFLICT', { status: 409, body: { statusCode: 409, error: 'Conflict', message: 'The check has nowhere to run: no locations, and none from its group' } },
      [{ field: null, code: 'CONFLICT', message: 'The check has nowhere to run: no locations, and none from its group' }]],
    ['400 naming locations', {
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: 'locations: nowhere to run', validation: { source: 'body', keys: ['locations'], issues: [{ key: 'locations', message: 'The check has nowhere to run' }] } },
    }, [{ field: 'locations', code: 'BAD_USER_INPUT', message: 'The check has nowhere to run' }]],
  ])('answers runCheck on a check with nowhere to run (REST %s) with a userError and no run', async (_name, answer, userErrors) => {
    const proxy = await startRestProxy(s.url, (_req, url) => (/^\/v1\/checks\/[^/]+\/run$/.test(url.pathname) ? answer : undefined));
    const front = await startTestServer({ backend, config: { graphqlBackendUrl: proxy.url } });
    try {
      const check = await createApiCheck(a, 'Nowhere', `${target.http.url}/json`);
      const run = await gql(clientVia(front, a), 'mutation($id: ID!) { runCheck(id: $id) { check { checkId } sequenceId results { resultId } userErrors { field code message } } }', { id: check.id });
      expect(run.errors).toBeUndefined();
      expect(run.data.runCheck).toEqual({ check: null, sequenceId: null, results: [], userErrors });
    } finally {
      await front.close();
      await proxy.close();
    }
  });

  describe('error groups', () => {
    it('creates an error group from a real failing run, reachable from the result, the check and the query root, and archives it', async () => {
      const check = await createApiCheck(a, 'Refused', `http://127.0.0.1:${await closedPort()}/`);
      const run = await gql(a, 'mutation($id: ID!) { runCheck(id: $id) { results { hasFailures hasErrors errors { code } errorGroups { id errorGroupId checkId archived check { checkId } } } } }', { id: check.id });
      expect(run.errors).toBeUndefined();
      const [result] = run.data.runCheck.results;
      expect(result).toMatchObject({ hasFailures: true, hasErrors: true, errors: [{ code: 'ECONNREFUSED' }] });
      expect(result.errorGroups).toEqual([{ id: expect.any(String), errorGroupId: expect.any(String), checkId: check.id, archived: false, check: { checkId: check.id } }]);
      const group = result.errorGroups[0];

      const read = await gql(a, `query($id: ID!, $checkId: ID!) {
        node(id: $id) { ... on ErrorGroup { errorGroupId cleanedErrorMessage rawErrorMessage firstSeen lastSeen } }
        errorGroup(id: $id) { errorGroupId }
        errorGroups(first: 100, checkIds: [$checkId]) { totalCount nodes { errorGroupId } }
        check(id: $checkId) { errorGroups { errorGroupId } }
      }`, { id: group.id, checkId: check.id });
      expect(read.errors).toBeUndefined();
      expect(read.data.node).toMatchObject({ errorGroupId: group.errorGroupId, cleanedErrorMessage: expect.stringContaining('ECONNREFUSED') });
      expect(read.data.errorGroup).toEqual({ errorGroupId: group.errorGroupId });
      expect(read.data.errorGroups).toEqual({ totalCount: 1, nodes: [{ errorGroupId: group.errorGroupId }] });
      expect(read.data.check.errorGroups).toEqual([{ errorGroupId: group.errorGroupId }]);

      const archive = await gql(a, 'mutation($id: ID!) { archiveErrorGroup(id: $id, forEver: true) { errorGroup { archived archivedForEver archivedUntilNextEvent } userErrors { field } } }', { id: group.id });
      expect(archive.data.archiveErrorGroup).toEqual({ errorGroup: { archived: true, archivedForEver: true, archivedUntilNextEvent: true }, userErrors: [] });
      const open = await gql(a, 'query($id: ID!) { check(id: $id) { open: errorGroups(archived: false) { errorGroupId } closed: errorGroups(archived: true) { errorGroupId } } }', { id: check.id });
      expect(open.data.check).toEqual({ open: [], closed: [{ errorGroupId: group.errorGroupId }] });
      const back = await gql(a, 'mutation($id: ID!) { unarchiveErrorGroup(id: $id) { errorGroup { archived archivedForEver } } }', { id: group.errorGroupId });
      expect(back.data.unarchiveErrorGroup.errorGroup).toEqual({ archived: false, archivedForEver: false });
      const once = await gql(a, 'mutation($id: ID!) { archiveErrorGroup(id: $id) { errorGroup { archived archivedForEver archivedUntilNextEvent } } }', { id: group.id });
      expect(once.data.archiveErrorGroup.errorGroup).toEqual({ archived: true, archivedForEver: false, archivedUntilNextEvent: true });
    });
  });

  describe('test sessions', () => {
    it('triggers a test session of a real check and reads it back with its runs and typed results once it finished', async () => {
      const check = await createApiCheck(a, 'CI target', `${target.http.url}/status/200`);
      const trigger = await gql(a, 'mutation($input: TriggerTestSessionInput!) { triggerTestSession(input: $input) { testSession { id testSessionId name status } userErrors { field } } }', {
        input: { checkIds: [globalId('Check', check.id)], name: 'deploy 42', environment: 'staging' },
      });
      expect(trigger.errors).toBeUndefined();
      const session = trigger.data.triggerTestSession.testSession;
      expect(session).toMatchObject({ name: 'deploy 42', status: 'RUNNING' });
      // The REST completion route waits on the session's own event: no sleeping here.
      expect((await a.request('GET', `/v1/test-sessions/${session.testSessionId}/completion`)).status).toBe(200);

      const read = await gql(a, `query($id: ID!) {
        testSession(id: $id) { id status environment errorGroupIds errorGroups { errorGroupId } createdAt stoppedAt
          checkRuns { checkId status check { checkId } results { resultType checkId apiCheckResult { response { status } } } } }
        node(id: $id) { ... on TestSession { testSessionId } }
        testSessions(first: 5) { nodes { testSessionId } }
      }`, { id: session.id });
      expect(read.errors).toBeUndefined();
      expect(read.data.testSession).toMatchObject({
        id: session.id, status: 'PASSED', environment: 'staging', errorGroupIds: [], errorGroups: [], stoppedAt: expect.any(String),
        checkRuns: [{ checkId: check.id, status: 'PASSED', check: { checkId: check.id }, results: [{ resultType: 'FINAL', checkId: check.id, apiCheckResult: { response: { status: 200 } } }] }],
      });
      expect(read.data.node).toEqual({ testSessionId: session.testSessionId });
      expect(read.data.testSessions.nodes[0]).toEqual({ testSessionId: session.testSessionId });
      // A test session's run stays out of the check's history.
      const history = await gql(a, 'query($id: ID!) { check(id: $id) { latestResults { resultId } status { health } } }', { id: check.id });
      expect(history.data.check).toEqual({ latestResults: [], status: null });

      const cancel = await gql(a, 'mutation($id: ID!) { cancelTestSession(id: $id) { testSession { status } userErrors { field } } }', { id: session.id });
      expect(cancel.data.cancelTestSession).toEqual({ testSession: { status: 'PASSED' }, userErrors: [] });
    });
  });

  describe('analytics and badges', () => {
    it('answers a check analytics report as typed series', async () => {
      const res = await gql(a, `query($id: ID!) { check(id: $id) { analytics(metrics: ["responseTime_avg", "availability"], quickRange: LAST_24_HOURS, aggregationInterval: 1440) {
        checkId checkType from to page limit
        metrics { name label unit aggregation }
        series { runLocation statusCode buckets { from to values { metric value } avg: value(metric: "responseTime_avg") missing: value(metric: "dns") } }
      } } }`, { id: checkIds[1] });
      expect(res.errors).toBeUndefined();
      const report = res.data.check.analytics;
      expect(report).toMatchObject({ checkId: checkIds[1], checkType: 'API', page: 1, limit: 10 });
      expect(report.metrics).toEqual([
        { name: 'responseTime_avg', label: 'Response time (average)', unit: 'ms', aggregation: 'avg' },
        { name: 'availability', label: 'Availability', unit: 'percentage', aggregation: 'percentage' },
      ]);
      expect(report.series).toHaveLength(1);
      const buckets = report.series[0].buckets as any[];
      expect(buckets.length).toBeGreaterThanOrEqual(1);
      const values = buckets.flatMap((bucket) => bucket.values);
      expect(values.filter((v) => v.metric === 'availability').every((v) => v.value === 100)).toBe(true);
      expect(buckets[0].missing).toBeNull();
      expect(buckets[0].avg).toBe(buckets[0].values[0].value);
    });

    it('splits a report by location', async () => {
      const res = await gql(a, `query($id: ID!) { check(id: $id) { analytics(metrics: ["availability"], groupBy: RUN_LOCATION) { series { runLocation buckets { values { value } } } } } }`, { id: checkIds[1] });
      expect(res.data.check.analytics.series).toEqual([{ runLocation: 'eu-west-1', buckets: [{ values: [{ value: 100 }] }] }]);
    });

    it("answers a check's badge as SVG with the REST path of the same badge", async () => {
      const res = await gql(a, `query($id: ID!) { check(id: $id) { badge(style: FOR_THE_BADGE, responseTime: true) { svg path } } }`, { id: checkIds[0] });
      expect(res.errors).toBeUndefined();
      expect(res.data.check.badge.svg.startsWith('<svg')).toBe(true);
      expect(res.data.check.badge.path).toBe(`/v1/badges/checks/${checkIds[0]}?style=for-the-badge&theme=default&responseTime=true`);
      const rest = await a.request('GET', res.data.check.badge.path);
      expect(rest.text).toBe(res.data.check.badge.svg);
    });
  });

  describe('account isolation', () => {
    it("answers null for another account's result, error group and test session ids, and no status or results of its checks", async () => {
      const theirsResult = (await gql(a, 'query($id: ID!) { check(id: $id) { latestResults(count: 1) { id errorGroups { id } } } }', { id: checkIds[0] })).data.check.latestResults[0];
      const session = (await a.request('POST', '/v1/test-sessions/trigger', { checkIds: [checkIds[1]] })).body;
      await a.request('GET', `/v1/test-sessions/${session.id}/completion`);
      const res = await gql(b, `query($result: ID!, $group: ID!, $session: ID!, $check: ID!) {
        node(id: $result) { id }
        nodes(ids: [$result, $group, $session]) { id }
        checkResult(id: $result) { id }
        errorGroup(id: $group) { id }
        testSession(id: $session) { id }
        checkStatuses(checkIds: [$check]) { checkId }
        check(id: $check) { checkId }
        errorGroups(first: 10) { totalCount }
      }`, { result: theirsResult.id, group: theirsResult.errorGroups[0].id, session: globalId('TestSession', session.id), check: checkIds[0] });
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({
        node: null, nodes: [null, null, null], checkResult: null, errorGroup: null, testSession: null, checkStatuses: [], check: null, errorGroups: { totalCount: 0 },
      });
      // A result id forged from another account's check id and result id is no better.
      const forged = globalId('CheckResult', `${checkIds[0]}:${theirsResult.id}`);
      expect((await gql(b, 'query($id: ID!) { node(id: $id) { id } }', { id: forged })).data).toEqual({ node: null });
    });

    it.each([
      ['archiveErrorGroup', 'mutation($id: ID!) { archiveErrorGroup(id: $id) { errorGroup { id } } }'],
      ['unarchiveErrorGroup', 'mutation($id: ID!) { unarchiveErrorGroup(id: $id) { errorGroup { id } } }'],
    ])("refuses %s on another account's error group with NOT_FOUND", async (_name, mutation) => {
      const group = (await a.request('GET', '/v1/error-groups?archived=false&limit=1')).body[0];
      const res = await gql(b, mutation, { id: group.id });
      expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
      expect((await a.request('GET', `/v1/error-groups/${group.id}`)).body.archivedUntilNextEvent).toBe(false);
    });

    it("refuses runCheck on another account's check with NOT_FOUND, running nothing", async () => {
      const res = await gql(b, 'mutation($id: ID!) { runCheck(id: $id) { results { id } } }', { id: checkIds[2] });
      expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
      expect((await a.request('GET', `/v2/check-results/${checkIds[2]}?limit=100`)).body.length).toBe(RESULTS_PER_CHECK);
    });
  });

  describe('bad input', () => {
    it.each([
      ['a malformed id', 'not-an-id'],
      ['an unknown error group', UNKNOWN_UUID],
      ['the global id of another type', globalId('Check', UNKNOWN_UUID)],
    ])('archiveErrorGroup with %s is NOT_FOUND', async (_name, id) => {
      const res = await gql(a, 'mutation($id: ID!) { archiveErrorGroup(id: $id) { errorGroup { id } userErrors { field } } }', { id });
      expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    });

    it.each([
      ['a malformed id', 'not-an-id'],
      ['an unknown check', UNKNOWN_UUID],
      ['the global id of a group', globalId('CheckGroup', '1')],
    ])('runCheck with %s is NOT_FOUND', async (_name, id) => {
      const res = await gql(a, 'mutation($id: ID!) { runCheck(id: $id) { results { id } } }', { id });
      expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    });

    it.each([
      ['a check id that is not one', { checkIds: ['nope'] }, 'checkIds.0', 'BAD_USER_INPUT'],
      ['an unknown check', { checkIds: [UNKNOWN_UUID] }, 'checkIds.0', 'BAD_USER_INPUT'],
      ['an unknown run location', { runLocation: 'mars-north-1' }, 'runLocation', 'BAD_USER_INPUT'],
      ['a name too long', { name: 'x'.repeat(256) }, 'name', 'BAD_USER_INPUT'],
      ['tags no check carries', { tags: ['no-such-tag'] }, null, 'NOT_FOUND'],
    ])('triggerTestSession with %s answers a userError and starts nothing', async (_name, input, field, code) => {
      const before = (await a.request('GET', '/v1/test-sessions?limit=100')).body.length;
      const res = await gql(a, 'mutation($input: TriggerTestSessionInput!) { triggerTestSession(input: $input) { testSession { id } userErrors { field code message } } }', { input });
      expect(res.errors).toBeUndefined();
      expect(res.data.triggerTestSession.testSession).toBeNull();
      expect(res.data.triggerTestSession.userErrors).toEqual([{ field, code, message: expect.any(String) }]);
      expect((await a.request('GET', '/v1/test-sessions?limit=100')).body.length).toBe(before);
    });

    it.each([
      ['a malformed id', 'not-an-id'],
      ['an unknown session', UNKNOWN_UUID],
    ])('cancelTestSession with %s is NOT_FOUND', async (_name, id) => {
      const res = await gql(a, 'mutation($id: ID!) { cancelTestSession(id: $id) { testSession { id } } }', { id });
      expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    });

    it.each([
      ['latestResults with count 11', '{ latestResults(count: 11) { id } }', 'count'],
      ['latestResults with count 0', '{ latestResults(count: 0) { id } }', 'count'],
      ['results with first 101', '{ results(first: 101) { nodes { id } } }', 'first'],
      ['results after a forged cursor', '{ results(after: "bm9wZQ") { nodes { id } } }', 'after'],
      ['results from a date that is not one', '{ results(filter: { from: "yesterday" }) { nodes { id } } }', 'filter.from'],
      ['errorGroups with first 0', '{ errorGroups(first: 0) { id } }', 'first'],
    ])('%s is BAD_USER_INPUT naming the argument', async (_name, selection, argumentName) => {
      const res = await gql(a, `query($id: ID!) { check(id: $id) ${selection} }`, { id: checkIds[0] });
      expect(res.errors?.map((e) => [e.extensions?.code, e.extensions?.argumentName])).toEqual([['BAD_USER_INPUT', argumentName]]);
    });

    it('an unknown analytics metric is BAD_USER_INPUT with the REST validation key', async () => {
      const res = await gql(a, 'query($id: ID!) { check(id: $id) { analytics(metrics: ["speed"]) { checkId } } }', { id: checkIds[0] });
      expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      expect(res.errors?.[0]?.extensions?.validationKeys).toEqual(['metrics.0']);
    });
  });
});
