import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { clientVia } from '../support/client-via.js';
import { countRestRequests, gql } from '../support/graphql.js';
import { startRestProxy, unknownQueryParameter } from '../support/rest-proxy.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const request = { url: 'https://example.test/' };

describe.each(BACKENDS)('GraphQL relations of snippets and private locations on $name', (backend) => {
  let s: TestServer;
  /** Snippet REST ids of account a by name. */
  const snippet: Record<string, number> = {};
  let groupId: number;
  let theirSnippet: number;

  const created = async (client: TestClient, path: string, body: unknown) => {
    const res = await client.request('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    s = await startTestServer({ backend });
    for (const name of ['login', 'seed', 'cleanup', 'group-setup']) snippet[name] = (await created(s.a, '/v1/snippets', { name, script: `// ${name}` })).id;
    theirSnippet = (await created(s.b, '/v1/snippets', { name: 'theirs', script: '' })).id;
    for (const slugName of ['lab', 'edge']) await created(s.a, '/v1/private-locations', { name: `The ${slugName}`, slugName });
    await created(s.b, '/v1/private-locations', { name: 'Their lab', slugName: 'lab' });
    // 30 API checks sharing three snippets, and a URL check (which has no snippets).
    for (let i = 0; i < 30; i++) {
      await created(s.a, '/v1/checks/api', {
        name: `api-${String(i).padStart(2, '0')}`, request,
        setupSnippetId: i % 2 === 0 ? snippet.login : snippet.seed,
        tearDownSnippetId: i % 3 === 0 ? snippet.cleanup : null,
        privateLocations: i % 2 === 0 ? ['lab'] : ['lab', 'edge'],
      });
    }
    await created(s.a, '/v1/checks/url', { name: 'url', request, locations: ['eu-west-1'] });
    groupId = (await created(s.a, '/v1/check-groups', { name: 'Grouped', setupSnippetId: snippet['group-setup'], privateLocations: ['edge'] })).id;
    await created(s.a, '/v1/checks/api', { name: 'member', request, groupId, setupSnippetId: snippet.login });
    await created(s.b, '/v1/checks/api', { name: 'their-lab-check', request, privateLocations: ['lab'] });
  });
  afterAll(async () => s?.close());

  describe('setup and teardown snippets', () => {
    it('resolves the snippets of 30 checks with one REST call for all of them', async () => {
      // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
      await gql(s.a, '{ __typename }');
      const counter = countRestRequests(s);
      const res = await gql(s.a, `{ checks(first: 50, filter: {checkType: API, search: "api-"}) { nodes {
        name ... on ApiCheck { setupSnippetId setupSnippet { snippetId name script } tearDownSnippet { name } } } } }`);
      counter.stop();
      expect(res.errors).toBeUndefined();
      const nodes = res.data.checks.nodes;
      expect(nodes).toHaveLength(30);
      expect(nodes[0]).toEqual({ name: 'api-00', setupSnippetId: snippet.login, setupSnippet: { snippetId: snippet.login, name: 'login', script: '// login' }, tearDownSnippet: { name: 'cleanup' } });
      expect(nodes[1]).toMatchObject({ name: 'api-01', setupSnippet: { name: 'seed' }, tearDownSnippet: null });
      // The check list, then one `GET /v1/snippets?ids=` for the three distinct snippets.
      expect(counter.count).toBe(2);
      expect(res.extensions?.cost?.restCalls).toBe(2);
    });

    it("gives a group's snippets, and its checks read with the group's setup snippet applied", async () => {
      const res = await gql(s.a, `{ checkGroup(id: "${groupId}") { setupSnippet { name } tearDownSnippet { name }
        checks { nodes { name ... on ApiCheck { setupSnippet { name } } } } } }`);
      expect(res.errors).toBeUndefined();
      expect(res.data.checkGroup).toEqual({ setupSnippet: { name: 'group-setup' }, tearDownSnippet: null, checks: { nodes: [{ name: 'member', setupSnippet: { name: 'group-setup' } }] } });
    });

    it('refetches snippets by global id through the loader: several in one REST call, another account\'s as null', async () => {
      const list = await gql(s.a, '{ snippets(first: 100) { nodes { id snippetId } } }');
      const ids = list.data.snippets.nodes.map((n: { id: string }) => n.id);
      expect(ids.length).toBeGreaterThanOrEqual(4);
      // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
      await gql(s.a, '{ __typename }');
      const counter = countRestRequests(s);
      const res = await gql(s.a, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Snippet { snippetId } } }`, { ids });
      counter.stop();
      expect(res.errors).toBeUndefined();
      expect(res.data.nodes).toEqual(list.data.snippets.nodes.map((n: { snippetId: number }) => ({ snippetId: n.snippetId })));
      expect(counter.count).toBe(1);

      const theirs = await gql(s.b, '{ snippets(first: 1) { nodes { id } } }');
      const other = await gql(s.a, `{ node(id: "${theirs.data.snippets.nodes[0].id}") { id } snippet(id: "${theirSnippet}") { id } }`);
      expect(other.errors).toBeUndefined();
      expect(other.data).toEqual({ node: null, snippet: null });
    });

    it('falls back to single GETs against a backend that rejects ids= on /v1/snippets', async () => {
      const proxy = await startRestProxy(s.url, (_req, url) =>
        (url.pathname === '/v1/snippets' && url.searchParams.has('ids') ? unknownQueryParameter('ids') : undefined));
      const front = await startTestServer({ backend, config: { graphqlBackendUrl: proxy.url } });
      try {
        const res = await gql(clientVia(front, s.a), `{ checks(first: 4, filter: {search: "api-0"}) { nodes { ... on ApiCheck { setupSnippet { name } } } } }`);
        expect(res.errors).toBeUndefined();
        expect(res.data.checks.nodes).toEqual([{ setupSnippet: { name: 'login' } }, { setupSnippet: { name: 'seed' } }, { setupSnippet: { name: 'login' } }, { setupSnippet: { name: 'seed' } }]);
        // The list, the refused batch, then one GET per distinct snippet.
        expect(proxy.seen.filter((u) => u.startsWith(`GET /v1/snippets/`)).sort()).toEqual([`GET /v1/snippets/${snippet.login}`, `GET /v1/snippets/${snippet.seed}`].sort());
        expect(res.extensions?.cost?.restCalls).toBe(4);
      } finally {
        await front.close();
        await proxy.close();
      }
    });
  });

  describe('private locations and checks', () => {
    it('lists the checks naming a location as a connection with its total', async () => {
      const res = await gql(s.a, '{ privateLocations { slugName checks(first: 2) { totalCount pageInfo { hasNextPage } nodes { name privateLocations } } } }');
      expect(res.errors).toBeUndefined();
      const bySlug = Object.fromEntries(res.data.privateLocations.map((l: any) => [l.slugName, l.checks]));
      expect(bySlug.lab).toEqual({ totalCount: 30, pageInfo: { hasNextPage: true }, nodes: [{ name: 'api-00', privateLocations: ['lab'] }, { name: 'api-01', privateLocations: ['lab', 'edge'] }] });
      // The member runs in "edge" only through its group: REST lists checks by their own locations.
      expect(bySlug.edge.totalCount).toBe(15);
    });

    it('pages through the checks of a location with after', async () => {
      const first = await gql(s.a, '{ privateLocations { slugName checks(first: 10) { pageInfo { endCursor } } } }');
      const lab = first.data.privateLocations.find((l: any) => l.slugName === 'lab');
      const res = await gql(s.a, `{ privateLocations { slugName checks(first: 25, after: "${lab.checks.pageInfo.endCursor}") { nodes { name } pageInfo { hasNextPage } } } }`);
      const next = res.data.privateLocations.find((l: any) => l.slugName === 'lab').checks;
      expect(next.nodes.map((n: any) => n.name)).toEqual(Array.from({ length: 20 }, (_, i) => `api-${String(i + 10).padStart(2, '0')}`));
      expect(next.pageInfo.hasNextPage).toBe(false);
    });

    it('keeps each account to its own checks when both name a location by the same slug', async () => {
      const res = await gql(s.b, '{ privateLocations { slugName checks { totalCount nodes { name } } } }');
      expect(res.data.privateLocations).toEqual([{ slugName: 'lab', checks: { totalCount: 1, nodes: [{ name: 'their-lab-check' }] } }]);
      const mine = await gql(s.a, '{ privateLocations { id } }');
      const other = await gql(s.b, `{ privateLocation(id: "${mine.data.privateLocations[0].id}") { checks { totalCount } } }`);
      expect(other.data).toEqual({ privateLocation: null });
    });

    it('filters checks by private location in Query.checks too, and answers a malformed slug with BAD_USER_INPUT', async () => {
      const res = await gql(s.a, '{ checks(first: 1, filter: {privateLocation: "edge"}) { totalCount } }');
      expect(res.data.checks.totalCount).toBe(15);
      const bad = await gql(s.a, '{ checks(filter: {privateLocation: "Not A Slug"}) { totalCount } }');
      expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('gives the private locations of 30 checks and a group as objects with one REST call for all of them', async () => {
      // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
      await gql(s.a, '{ __typename }');
      const counter = countRestRequests(s);
      const res = await gql(s.a, `{ checks(first: 50, filter: {checkType: API}) { nodes { name privateLocationNodes { slugName name keys { maskedKey } } } }
        checkGroup(id: "${groupId}") { privateLocationNodes { slugName } } }`);
      counter.stop();
      expect(res.errors).toBeUndefined();
      const byName = Object.fromEntries(res.data.checks.nodes.map((n: any) => [n.name, n.privateLocationNodes.map((l: any) => l.slugName)]));
      expect(byName['api-00']).toEqual(['lab']);
      expect(byName['api-01']).toEqual(['lab', 'edge']);
      expect(byName.member).toEqual([]);
      expect(res.data.checks.nodes[0].privateLocationNodes[0]).toMatchObject({ name: 'The lab', keys: [{ maskedKey: expect.stringMatching(/^\*+/) }] });
      expect(res.data.checkGroup.privateLocationNodes).toEqual([{ slugName: 'edge' }]);
      // The check list, the group, and the account's private location list once.
      expect(counter.count).toBe(3);
      expect(res.extensions?.cost?.restCalls).toBe(3);
    });
  });
});
