import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { countRestRequests, gql } from '../support/graphql.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(BACKENDS)('GraphQL combined views on $name', (backend) => {
  let s: TestServer;
  const names: Record<string, string> = {};

  beforeAll(async () => {
    s = await startTestServer({ backend });
    const rec = testRecorder(s.lookout.store);
    // Two failing, one degraded, two passing, one never run, and one deactivated passing check.
    const plan: [name: string, outcome: 'fail' | 'degraded' | 'pass' | 'none', activated: boolean][] = [
      ['fail-1', 'fail', true], ['fail-2', 'fail', true], ['slow', 'degraded', true], ['ok-1', 'pass', true],
      ['ok-2', 'pass', true], ['new', 'none', true], ['off', 'pass', false],
    ];
    for (const [name, outcome, activated] of plan) {
      const check = (await s.a.request('POST', '/v1/checks/api', { name, activated, request: { url: `https://${name}.test/` } })).body;
      names[name] = check.id;
      if (outcome === 'none') continue;
      await rec.record({
        check: runnable(s.a, check),
        probe: probe({ hasFailures: outcome === 'fail', isDegraded: outcome === 'degraded', responseTime: outcome === 'degraded' ? 6000 : 100 }),
      });
    }
    // The other account's failing check must never show up.
    const other = (await s.b.request('POST', '/v1/checks/api', { name: 'b-fail', request: { url: 'https://b.test/' } })).body;
    await rec.record({ check: runnable(s.b, other), probe: probe({ hasFailures: true }) });
  });
  afterAll(async () => s?.close());

  it('counts the account\'s checks by state in five REST calls', async () => {
    // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
    await gql(s.a, '{ __typename }');
    const counter = countRestRequests(s);
    const res = await gql(s.a, '{ accountOverview { totalChecks activatedChecks passingChecks failingChecks degradedChecks checksWithoutStatus } }');
    counter.stop();
    expect(res.errors).toBeUndefined();
    expect(res.data.accountOverview).toEqual({
      totalChecks: 7, activatedChecks: 6, passingChecks: 3, failingChecks: 2, degradedChecks: 1, checksWithoutStatus: 1,
    });
    expect(res.extensions?.cost?.restCalls).toBe(5);
    expect(counter.count).toBe(5);
  });

  it('lists the failing and degraded checks of the overview', async () => {
    const res = await gql(s.a, '{ accountOverview { failing(first: 10) { totalCount nodes { name } } degraded { nodes { name } } } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.accountOverview.failing.totalCount).toBe(2);
    expect(res.data.accountOverview.failing.nodes.map((c: { name: string }) => c.name).sort()).toEqual(['fail-1', 'fail-2']);
    expect(res.data.accountOverview.degraded.nodes).toEqual([{ name: 'slow' }]);
  });

  it('pages through the failing checks with Relay cursors', async () => {
    const first = await gql(s.a, '{ failingChecks(first: 1) { pageInfo { hasNextPage endCursor } nodes { name } } }');
    expect(first.data.failingChecks.pageInfo.hasNextPage).toBe(true);
    const second = await gql(s.a, 'query($after: String) { failingChecks(first: 1, after: $after) { pageInfo { hasNextPage } nodes { name } } }', {
      after: first.data.failingChecks.pageInfo.endCursor,
    });
    expect(second.data.failingChecks.pageInfo.hasNextPage).toBe(false);
    expect([first.data.failingChecks.nodes[0].name, second.data.failingChecks.nodes[0].name].sort()).toEqual(['fail-1', 'fail-2']);
  });

  it('fetches the failing checks with their groups in a number of REST calls that does not grow with the list', async () => {
    const res = await gql(s.a, '{ failingChecks(first: 100) { nodes { name group { name } } } }');
    expect(res.errors).toBeUndefined();
    // One page of checks; no group call since no failing check is in a group.
    expect(res.extensions?.cost?.restCalls).toBe(1);
  });

  it.each([
    ['state filter', '{ checks(filter: { state: DEGRADED }) { nodes { name } } }', [{ name: 'slow' }]],
    ['search filter', '{ checks(filter: { search: "OK-" }) { nodes { name } } }', [{ name: 'ok-1' }, { name: 'ok-2' }]],
  ])('filters the check list by its %s', async (_label, query, expected) => {
    const res = await gql(s.a, query);
    expect(res.errors).toBeUndefined();
    expect(res.data.checks.nodes.sort((x: { name: string }, y: { name: string }) => x.name.localeCompare(y.name))).toEqual(expected);
  });

  it('shows another account only its own failing checks', async () => {
    const res = await gql(s.b, '{ accountOverview { totalChecks failingChecks failing { nodes { name } } } }');
    expect(res.data.accountOverview).toEqual({ totalChecks: 1, failingChecks: 1, failing: { nodes: [{ name: 'b-fail' }] } });
  });

  it.each([0, 101, -1])('refuses a page size of %s with BAD_USER_INPUT', async (first) => {
    const res = await gql(s.a, 'query($first: Int) { failingChecks(first: $first) { nodes { name } } }', { first });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
