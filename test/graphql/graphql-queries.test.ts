import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** One REST create body per check type, and the selection that reads its typed parts back. */
const TYPES: [segment: string, checkType: string, typename: string, body: Record<string, unknown>, selection: string, expected: Record<string, unknown>][] = [
  ['api', 'API', 'ApiCheck', {
    name: 'API', request: {
      method: 'POST', url: 'https://example.test/api', body: '{"a":1}', bodyType: 'JSON',
      headers: [{ key: 'x-a', value: '1' }], queryParameters: [{ key: 'q', value: 'v' }],
      assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: 200 }, { source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true' }],
      basicAuth: { username: 'u', password: 'secret' },
    },
  }, '... on ApiCheck { request { method url body bodyType headers { key value locked } queryParameters { key value } assertions { source property comparison target } basicAuth { username } } degradedResponseTime maxResponseTime }', {
    request: {
      method: 'POST', url: 'https://example.test/api', body: '{"a":1}', bodyType: 'JSON',
      headers: [{ key: 'x-a', value: '1', locked: false }], queryParameters: [{ key: 'q', value: 'v' }],
      assertions: [{ source: 'STATUS_CODE', property: null, comparison: 'EQUALS', target: '200' }, { source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true' }],
      basicAuth: { username: 'u' },
    },
    degradedResponseTime: 5000, maxResponseTime: 20000,
  }],
  ['url', 'URL', 'UrlCheck', { name: 'URL', request: { url: 'https://example.test/' } },
    '... on UrlCheck { request { url followRedirects skipSSL assertions { source } } }',
    { request: { url: 'https://example.test/', followRedirects: true, skipSSL: false, assertions: [] } }],
  ['tcp', 'TCP', 'TcpCheck', { name: 'TCP', request: { hostname: 'db.test', port: 5432, data: 'PING' } },
    '... on TcpCheck { request { hostname port data ipFamily } }', { request: { hostname: 'db.test', port: 5432, data: 'PING', ipFamily: 'IPv4' } }],
  ['dns', 'DNS', 'DnsCheck', { name: 'DNS', request: { query: 'example.test', recordType: 'MX', protocol: 'TCP' } },
    '... on DnsCheck { request { query recordType protocol } }', { request: { query: 'example.test', recordType: 'MX', protocol: 'TCP' } }],
  ['icmp', 'ICMP', 'IcmpCheck', { name: 'ICMP', request: { hostname: 'example.test', pingCount: 3 } },
    '... on IcmpCheck { request { hostname pingCount } }', { request: { hostname: 'example.test', pingCount: 3 } }],
  ['heartbeat', 'HEARTBEAT', 'HeartbeatCheck', { name: 'Heartbeat', heartbeat: { period: 1, periodUnit: 'hours', grace: 10, graceUnit: 'minutes' } },
    '... on HeartbeatCheck { heartbeat { period periodUnit grace graceUnit pingToken } }',
    { heartbeat: { period: 1, periodUnit: 'hours', grace: 10, graceUnit: 'minutes', pingToken: expect.any(String) } }],
  ['browser', 'BROWSER', 'BrowserCheck', { name: 'Browser', script: "await page.goto('https://example.test')" },
    '... on BrowserCheck { script dependencies { path } }', { script: "await page.goto('https://example.test')", dependencies: [] }],
  ['multistep', 'MULTI_STEP', 'MultiStepCheck', { name: 'Multistep', script: "await request.get('https://example.test')" },
    '... on MultiStepCheck { script }', { script: "await request.get('https://example.test')" }],
];

describe.each(BACKENDS)('GraphQL queries on $name', (backend) => {
  let s: TestServer;
  const ids: Record<string, string> = {};
  let groupId: number;

  beforeAll(async () => {
    s = await startTestServer({ backend });
    groupId = (await s.a.request('POST', '/v1/check-groups', { name: 'Payments', tags: ['team-pay'] })).body.id;
    for (const [segment, , , body] of TYPES) {
      const res = await s.a.request('POST', `/v1/checks/${segment}`, { ...body, tags: [segment], groupId: segment === 'api' ? groupId : undefined });
      expect(res.status).toBe(201);
      ids[segment] = res.body.id;
    }
  });
  afterAll(async () => s?.close());

  it.each(TYPES)('reads a %s check as its own type with typed request parts', async (segment, checkType, typename, _body, selection, expected) => {
    const res = await gql(s.a, `query($id: ID!) { check(id: $id) { __typename id checkId checkType name tags activated createdAt ${selection} } }`, { id: ids[segment] });
    expect(res.errors).toBeUndefined();
    expect(res.data.check).toMatchObject({ __typename: typename, checkId: ids[segment], checkType, tags: [segment], activated: true, ...expected });
    expect(res.data.check.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const again = await gql(s.a, 'query($id: ID!) { node(id: $id) { __typename id } }', { id: res.data.check.id });
    expect(again.data.node).toEqual({ __typename: typename, id: res.data.check.id });
  });

  it('issues opaque global ids that do not show the REST id', async () => {
    const res = await gql(s.a, 'query($id: ID!) { check(id: $id) { id } }', { id: ids.api });
    expect(res.data.check.id).not.toContain(ids.api);
    expect(res.data.check.id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('relates a check to its group and the group to its checks with group settings applied', async () => {
    const res = await gql(s.a, 'query($id: ID!) { check(id: $id) { groupId group { __typename groupId name tags checks(first: 5) { totalCount nodes { checkId tags } } } } }', { id: ids.api });
    expect(res.errors).toBeUndefined();
    const group = res.data.check.group;
    expect(group).toMatchObject({ __typename: 'CheckGroup', groupId, name: 'Payments', tags: ['team-pay'] });
    expect(group.checks.totalCount).toBe(1);
    expect(group.checks.nodes[0].checkId).toBe(ids.api);
    // The group's tags are merged into its checks' tags by the REST group-checks route.
    expect(group.checks.nodes[0].tags).toEqual(expect.arrayContaining(['api', 'team-pay']));
  });

  it('filters checks by type, tag and activation, as REST does', async () => {
    const byType = await gql(s.a, '{ checks(first: 20, filter: {checkType: TCP}) { totalCount nodes { checkId } } }');
    expect(byType.data.checks).toEqual({ totalCount: 1, nodes: [{ checkId: ids.tcp }] });
    const byTag = await gql(s.a, '{ checks(first: 20, filter: {tags: ["dns"]}) { nodes { checkId } } }');
    expect(byTag.data.checks.nodes).toEqual([{ checkId: ids.dns }]);
    const inactive = await gql(s.a, '{ checks(first: 20, filter: {activated: false}) { totalCount } }');
    expect(inactive.data.checks.totalCount).toBe(0);
  });

  it('pages through every check with first/after and reports totalCount', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const res: any = await gql(s.a, 'query($after: String) { checks(first: 3, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { checkId } } } }', { after });
      expect(res.errors).toBeUndefined();
      expect(res.data.checks.totalCount).toBe(TYPES.length);
      expect(res.data.checks.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...res.data.checks.edges.map((e: any) => e.node.checkId));
      if (!res.data.checks.pageInfo.hasNextPage) break;
      after = res.data.checks.pageInfo.endCursor;
    }
    expect(seen.sort()).toEqual(Object.values(ids).sort());
  });

  it('answers a page that does not start on a page boundary', async () => {
    const all = await gql(s.a, '{ checks(first: 8) { edges { cursor node { checkId } } } }');
    const edges = all.data.checks.edges;
    const res = await gql(s.a, 'query($after: String) { checks(first: 3, after: $after) { edges { node { checkId } } } }', { after: edges[1].cursor });
    expect(res.data.checks.edges.map((e: any) => e.node.checkId)).toEqual(edges.slice(2, 5).map((e: any) => e.node.checkId));
  });

  it.each([
    ['first above 100', '{ checks(first: 101) { totalCount } }'],
    ['first of zero', '{ checks(first: 0) { totalCount } }'],
    ['a malformed cursor', '{ checks(first: 1, after: "nope") { totalCount } }'],
  ])('rejects %s with BAD_USER_INPUT', async (_name, query) => {
    const res = await gql(s.a, query);
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('reads the viewer, its node, locations and runtimes', async () => {
    const res = await gql(s.a, '{ viewer { id accountId name plan } locations { region name } runtimes { name stage dependencies } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.viewer.accountId).toBe(s.a.accountId);
    expect(res.data.locations).toContainEqual({ region: 'eu-west-1', name: expect.any(String) });
    expect(res.data.runtimes.map((r: any) => r.name)).toContain('2025.04');
    const node = await gql(s.a, 'query($id: ID!) { node(id: $id) { ... on Account { accountId } } }', { id: res.data.viewer.id });
    expect(node.data.node).toEqual({ accountId: s.a.accountId });
  });

  it('resolves nodes in order with null for unknown, malformed and other-account ids', async () => {
    const mine = await gql(s.a, 'query($id: ID!) { check(id: $id) { id } checkGroups(first: 5) { nodes { id } } }', { id: ids.tcp });
    const groupNodeId = mine.data.checkGroups.nodes[0].id;
    const unknown = Buffer.from('Check:00000000-0000-4000-8000-000000000000').toString('base64url');
    const res = await gql(s.a, 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: [mine.data.check.id, unknown, 'garbage!', groupNodeId] });
    expect(res.errors).toBeUndefined();
    expect(res.data.nodes).toEqual([{ __typename: 'TcpCheck', id: mine.data.check.id }, null, null, { __typename: 'CheckGroup', id: groupNodeId }]);
  });

  it("gives another account's checks, groups and account as null, exactly like unknown ids", async () => {
    const a = await gql(s.a, 'query($id: ID!) { check(id: $id) { id } viewer { id } checkGroups(first: 1) { nodes { id } } }', { id: ids.api });
    const { id: checkNodeId } = a.data.check;
    const groupNodeId = a.data.checkGroups.nodes[0].id;
    const res = await gql(s.b, 'query($c: ID!, $g: ID!, $acc: ID!, $raw: ID!) { node(id: $c) { id } check(id: $raw) { id } group: node(id: $g) { id } checkGroup(id: $g) { id } account: node(id: $acc) { id } checks(first: 50) { totalCount } checkGroups(first: 50) { totalCount } }',
      { c: checkNodeId, g: groupNodeId, acc: a.data.viewer.id, raw: ids.api });
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ node: null, check: null, group: null, checkGroup: null, account: null, checks: { totalCount: 0 }, checkGroups: { totalCount: 0 } });
  });
});
