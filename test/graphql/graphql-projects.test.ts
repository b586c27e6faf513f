import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { BACKENDS } from '../support/backends.js';
import { gql, gqlCounted, gqlData } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** Resources as `checkly deploy` synthesizes them (the shapes of test/api/projects-deploy.test.ts). */
const channel = { logicalId: 'mail', type: 'alert-channel', member: true, payload: { type: 'EMAIL', config: { address: 'oncall@example.test' } } };
const group = {
  logicalId: 'shop', type: 'check-group', member: true,
  payload: { name: 'Shop', locations: ['eu-west-1'], apiCheckDefaults: { headers: [], queryParameters: [], url: '', basicAuth: { username: '', password: '' } }, environmentVariables: [], v: 2 },
};
const apiCheck = (logicalId: string, name: string, groupRef: string | null = 'shop') => ({
  logicalId, type: 'check', member: true,
  payload: {
    name, locations: ['us-east-1'], frequency: 10, groupId: groupRef ? { ref: groupRef } : null, useGlobalAlertSettings: true, runParallel: false,
    environmentVariables: [], checkType: 'API', request: { url: `https://shop.example.test/${logicalId}`, method: 'GET' },
  },
});
const subscription = {
  logicalId: 'check-alert-channel-subscription#home#mail', type: 'alert-channel-subscription', member: true,
  payload: { alertChannelId: { ref: 'mail' }, checkId: { ref: 'home' }, activated: true },
};
const window = {
  logicalId: 'release', type: 'maintenance-window', member: true,
  payload: { name: 'Release', tags: ['shop'], startsAt: '2099-01-01T10:00:00.000Z', endsAt: '2099-01-01T11:00:00.000Z' },
};
/** 49 more checks beside `home`: 50 checks managed by the project. */
const MORE_CHECKS = Array.from({ length: 49 }, (_, i) => apiCheck(`check-${String(i + 1).padStart(2, '0')}`, `Check ${i + 1}`));
const bundle = (logicalId: string, name: string, resources: unknown[]) => ({ project: { logicalId, name, repoUrl: `https://git.example.test/${logicalId}` }, sharedFiles: [], resources });

type Diff = { type: string; logicalId: string; physicalId: string | null }[];

async function deploy(client: TestClient, body: unknown): Promise<Diff> {
  const res = await client.request('POST', '/v1/projects/deploy?dryRun=false', body);
  expect(res.status, res.text).toBe(202);
  return res.body.result.diff;
}

const physicalIdOf = (diff: Diff, logicalId: string) => diff.find((d) => d.logicalId === logicalId)!.physicalId!;

/** Counts the reverse lookups (`GET /v1/project-resources`) the service receives while `work` runs. */
async function lookupsDuring<T>(s: TestServer, work: () => Promise<T>): Promise<{ result: T; lookups: number }> {
  let lookups = 0;
  const onRequest = (req: { url?: string }) => {
    if (req.url?.startsWith('/v1/project-resources')) lookups++;
  };
  const stop = s.onRequest(onRequest);
  try {
    return { result: await work(), lookups };
  } finally {
    stop();
  }
}

const MEMBERSHIP = 'project { type logicalId project { logicalId name } }';

describe.each(BACKENDS)('GraphQL: projects and the resources they manage ($name)', (backend) => {
  let s: TestServer;
  let shop: Diff;
  let loose: string;

  beforeAll(async () => {
    s = await startTestServer({ backend });
    shop = await deploy(s.a, bundle('shop-project', 'Shop', [channel, group, apiCheck('home', 'Homepage'), ...MORE_CHECKS, subscription, window]));
    loose = (await s.a.request('POST', '/v1/checks/api', { name: 'By hand', request: { method: 'GET', url: 'https://hand.example.test' } })).body.id;
  });
  afterAll(async () => s?.close());

  it('lists the projects of the account as a connection, with their fields', async () => {
    const data = await gqlData(s.a, '{ projects(first: 5) { totalCount nodes { id logicalId name repoUrl createdAt updatedAt } } }');
    expect(data.projects).toEqual({
      totalCount: 1,
      nodes: [{
        id: toGlobalId('Project', 'shop-project'), logicalId: 'shop-project', name: 'Shop', repoUrl: 'https://git.example.test/shop-project',
        createdAt: expect.any(String), updatedAt: null,
      }],
    });
  });

  it('walks from a project to its resources and on to each resource node, typed', async () => {
    const data = await gqlData(s.a, `{
      project(logicalId: "shop-project") {
        name
        resources {
          type logicalId physicalId nodeId
          node {
            __typename id
            ... on Check { name }
            ... on CheckGroup { name }
            ... on AlertChannel { alertChannelId }
            ... on MaintenanceWindow { name }
          }
        }
      }
    }`);
    const resources = data.project.resources as { type: string; logicalId: string; physicalId: string | null; nodeId: string | null; node: any }[];
    expect(resources).toHaveLength(54);
    const byLogicalId = new Map(resources.map((r) => [r.logicalId, r]));
    expect(byLogicalId.get('home')).toEqual({
      type: 'check', logicalId: 'home', physicalId: physicalIdOf(shop, 'home'), nodeId: toGlobalId('Check', physicalIdOf(shop, 'home')),
      node: { __typename: 'ApiCheck', id: toGlobalId('Check', physicalIdOf(shop, 'home')), name: 'Homepage' },
    });
    expect(byLogicalId.get('shop')!.node).toEqual({ __typename: 'CheckGroup', id: toGlobalId('CheckGroup', physicalIdOf(shop, 'shop')), name: 'Shop' });
    expect(byLogicalId.get('mail')!.node).toEqual({ __typename: 'EmailAlertChannel', id: toGlobalId('AlertChannel', physicalIdOf(shop, 'mail')), alertChannelId: Number(physicalIdOf(shop, 'mail')) });
    expect(byLogicalId.get('release')!.node).toEqual({ __typename: 'MaintenanceWindow', id: toGlobalId('MaintenanceWindow', physicalIdOf(shop, 'release')), name: 'Release' });
    expect(byLogicalId.get(subscription.logicalId)).toMatchObject({ type: 'alert-channel-subscription', physicalId: null, nodeId: null, node: null });
  });

  it('keeps one type of resources when asked, each knowing its project', async () => {
    const data = await gqlData(s.a, '{ project(logicalId: "shop-project") { resources(type: "check-group") { logicalId project { logicalId } } } }');
    expect(data.project.resources).toEqual([{ logicalId: 'shop', project: { logicalId: 'shop-project' } }]);
  });

  it('tells each resource which project manages it under which logical id, and null for one made by hand', async () => {
    const data = await gqlData(s.a, `query($home: ID!, $loose: ID!, $group: ID!, $channel: ID!, $window: ID!) {
      home: check(id: $home) { ${MEMBERSHIP} }
      loose: check(id: $loose) { ${MEMBERSHIP} }
      group: checkGroup(id: $group) { ${MEMBERSHIP} }
      channel: node(id: $channel) { ... on AlertChannel { ${MEMBERSHIP} } }
      window: maintenanceWindow(id: $window) { ${MEMBERSHIP} }
    }`, {
      home: physicalIdOf(shop, 'home'), loose, group: physicalIdOf(shop, 'shop'),
      channel: toGlobalId('AlertChannel', physicalIdOf(shop, 'mail')), window: physicalIdOf(shop, 'release'),
    });
    const shopProject = { logicalId: 'shop-project', name: 'Shop' };
    expect(data).toEqual({
      home: { project: { type: 'check', logicalId: 'home', project: shopProject } },
      loose: { project: null },
      group: { project: { type: 'check-group', logicalId: 'shop', project: shopProject } },
      channel: { project: { type: 'alert-channel', logicalId: 'mail', project: shopProject } },
      window: { project: { type: 'maintenance-window', logicalId: 'release', project: shopProject } },
    });
  });

  it('refetches a project and its resources by global id through node(id)', async () => {
    const { projects } = await gqlData(s.a, '{ projects { nodes { id } } }');
    const id = projects.nodes[0].id;
    const data = await gqlData(s.a, `query($id: ID!, $check: ID!) {
      node(id: $id) { __typename id ... on Project { logicalId name } }
      nodes(ids: [$id, $check]) { id }
    }`, { id, check: toGlobalId('Check', physicalIdOf(shop, 'home')) });
    expect(data.node).toEqual({ __typename: 'Project', id, logicalId: 'shop-project', name: 'Shop' });
    expect(data.nodes).toEqual([{ id }, { id: toGlobalId('Check', physicalIdOf(shop, 'home')) }]);
  });

  it('answers Check.project for 50 checks with one REST lookup', async () => {
    const { result, lookups } = await lookupsDuring(s, () => gqlCounted(s, s.a, `{ checks(first: 51) { nodes { checkId ${MEMBERSHIP} } } }`));
    expect(result.res.errors).toBeUndefined();
    const nodes = result.res.data.checks.nodes as { checkId: string; project: { logicalId: string } | null }[];
    expect(nodes).toHaveLength(51);
    expect(nodes.filter((n) => n.project !== null)).toHaveLength(50);
    expect(nodes.find((n) => n.checkId === loose)!.project).toBeNull();
    expect(lookups).toBe(1);
    expect(result.count).toBe(2);
  });

  it('reads the whole project a membership names without another REST call', async () => {
    const { res, count } = await gqlCounted(s, s.a, `{ check(id: "${physicalIdOf(shop, 'home')}") { project { project { id name repoUrl createdAt } } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.check.project.project).toEqual({ id: toGlobalId('Project', 'shop-project'), name: 'Shop', repoUrl: 'https://git.example.test/shop-project', createdAt: expect.any(String) });
    // The check and the lookup: the lookup answers the project whole.
    expect(count).toBe(2);
  });

  describe('a second account sees none of it', () => {
    it('lists no projects and reads the first account\'s project as null, by logical id and by global id', async () => {
      const data = await gqlData(s.b, `{
        projects { totalCount nodes { logicalId } }
        project(logicalId: "shop-project") { name }
        node(id: "${toGlobalId('Project', 'shop-project')}") { id }
      }`);
      expect(data).toEqual({ projects: { totalCount: 0, nodes: [] }, project: null, node: null });
    });

    it('finds no project for a resource of its own made by hand', async () => {
      const own = (await s.b.request('POST', '/v1/checks/api', { name: 'Mine', request: { method: 'GET', url: 'https://mine.example.test' } })).body.id;
      const res = await gql(s.b, `{ check(id: "${own}") { name project { logicalId } } }`);
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({ check: { name: 'Mine', project: null } });
    });

    it('sees only its own project under a logical id both accounts use', async () => {
      await deploy(s.b, bundle('shop-project', 'Their shop', [apiCheck('home', 'Theirs', null)]));
      const data = await gqlData(s.b, '{ project(logicalId: "shop-project") { name resources { logicalId node { ... on Check { name } } } } }');
      expect(data.project).toEqual({ name: 'Their shop', resources: [{ logicalId: 'home', node: { name: 'Theirs' } }] });
    });
  });
});
