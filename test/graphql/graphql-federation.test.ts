import { composeServices } from '@apollo/composition';
import { ApolloGateway, LocalGraphQLDataSource, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { buildSchema, isObjectType, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTypeDefs } from '../../src/graphql/create-graphql.js';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/**
 * A second subgraph, as another team would run it: favourites referencing Lookout entities by id only
 * (`resolvable: false`), so the gateway must fetch everything else through Lookout's `_entities`.
 */
const FAVOURITES_SDL = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Query { favourites: [Favourite!]! }
  type Favourite { note: String! check: ApiCheck group: CheckGroup }
  type ApiCheck @key(fields: "id", resolvable: false) { id: ID! }
  type CheckGroup @key(fields: "id", resolvable: false) { id: ID! }
`);

interface Favourite { note: string; checkId?: string; groupId?: string }

const apiCheck = (name: string, groupId?: number) => ({
  name, groupId, request: { url: 'https://example.test/', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
});

describe.each(BACKENDS)('the schema as an Apollo Federation v2 subgraph on $name', (backend) => {
  let s: TestServer;
  let sdl: string;
  let checkA: string;
  let groupA: number;
  let checkB: string;
  let gateway: ApolloServer<{ authorization: string }>;
  const favourites: Favourite[] = [];

  const asCaller = (c: TestClient) => ({ contextValue: { authorization: `Bearer ${c.apiKey}` } });
  const throughGateway = async (c: TestClient, query: string) => {
    const res = await gateway.executeOperation({ query }, asCaller(c));
    if (res.body.kind !== 'single') throw new Error('expected a single result');
    return res.body.singleResult;
  };

  beforeAll(async () => {
    s = await startTestServer({ backend });
    groupA = (await s.a.request('POST', '/v1/check-groups', { name: 'Payments' })).body.id;
    checkA = (await s.a.request('POST', '/v1/checks/api', apiCheck('Checkout', groupA))).body.id;
    checkB = (await s.b.request('POST', '/v1/checks/api', apiCheck('Other account'))).body.id;
    sdl = (await gql(s.a, '{ _service { sdl } }')).data._service.sdl;

    const composed = composeServices([
      { name: 'lookout', url: `${s.url}/graphql`, typeDefs: parse(sdl) },
      { name: 'favourites', url: 'http://favourites.invalid/graphql', typeDefs: FAVOURITES_SDL },
    ]);
    if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
    const favouritesSchema = buildSubgraphSchema([{
      typeDefs: FAVOURITES_SDL,
      resolvers: {
        Query: { favourites: () => favourites },
        Favourite: {
          check: (f: Favourite) => (f.checkId ? { __typename: 'ApiCheck', id: toGlobalId('Check', f.checkId) } : null),
          group: (f: Favourite) => (f.groupId ? { __typename: 'CheckGroup', id: f.groupId } : null),
        },
      },
    }]);
    gateway = new ApolloServer({
      gateway: new ApolloGateway({
        supergraphSdl: composed.supergraphSdl,
        buildService: ({ name, url }) => (name === 'favourites'
          ? new LocalGraphQLDataSource(favouritesSchema)
          : new RemoteGraphQLDataSource<{ authorization: string }>({
            url,
            // Exercises automatic persisted queries too: hash first, the query once it is unknown.
            apq: true,
            willSendRequest({ request, context }) {
              request.http?.headers.set('authorization', context.authorization);
            },
          })),
      }),
    });
    await gateway.start();
  });
  afterAll(async () => {
    await gateway?.stop();
    await s?.close();
  });

  it('publishes its SDL with the federation v2 link and a key on every object type implementing Node', () => {
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])');
    const schema = buildSchema(loadTypeDefs());
    const nodeTypes = Object.values(schema.getTypeMap())
      .filter((t) => isObjectType(t) && t.getInterfaces().some((i) => i.name === 'Node'))
      .map((t) => t.name);
    expect(nodeTypes).toEqual(expect.arrayContaining(['Account', 'CheckGroup', 'ApiCheck', 'UrlCheck', 'TcpCheck', 'DnsCheck', 'IcmpCheck', 'HeartbeatCheck', 'BrowserCheck', 'MultiStepCheck']));
    const keyed = [...sdl.matchAll(/^type (\w+)[^{]*@key\(fields: "id"\)/gm)].map((m) => m[1]);
    expect(keyed.sort()).toEqual(nodeTypes.sort());
  });

  it('composes alone into a supergraph with every entity keyed by id', () => {
    const composed = composeServices([{ name: 'lookout', url: `${s.url}/graphql`, typeDefs: parse(sdl) }]);
    expect(composed.errors).toBeUndefined();
    expect(composed.supergraphSdl).toContain('@join__type(graph: LOOKOUT, key: "id")');
  });

  it('resolves _entities of every kind through REST as the caller, in order', async () => {
    const representations = [
      { __typename: 'ApiCheck', id: toGlobalId('Check', checkA) },
      { __typename: 'CheckGroup', id: toGlobalId('CheckGroup', groupA) },
      { __typename: 'Account', id: toGlobalId('Account', s.a.accountId) },
    ];
    const res = await gql(s.a, `query($r: [_Any!]!) { _entities(representations: $r) {
      __typename ... on ApiCheck { name checkId group { name } } ... on CheckGroup { name } ... on Account { accountId }
    } }`, { r: representations });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual([
      { __typename: 'ApiCheck', name: 'Checkout', checkId: checkA, group: { name: 'Payments' } },
      { __typename: 'CheckGroup', name: 'Payments' },
      { __typename: 'Account', accountId: s.a.accountId },
    ]);
  });

  it.each([
    ['a check of another account', () => ({ __typename: 'ApiCheck', id: toGlobalId('Check', checkB) })],
    ['another account', () => ({ __typename: 'Account', id: toGlobalId('Account', s.b.accountId) })],
    ['an id of another type than __typename', () => ({ __typename: 'UrlCheck', id: toGlobalId('Check', checkA) })],
    ['a group id under a check type', () => ({ __typename: 'ApiCheck', id: toGlobalId('CheckGroup', groupA) })],
    ['an id this layer never issued', () => ({ __typename: 'ApiCheck', id: 'not-a-global-id' })],
    ['no id at all', () => ({ __typename: 'CheckGroup' })],
  ])('resolves the entity of %s to null', async (_name, representation) => {
    const res = await gql(s.a, 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [representation()] });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual([null]);
  });

  it('answers the gateway\'s queries of Lookout fields with the caller\'s account', async () => {
    const result = await throughGateway(s.a, '{ viewer { accountId } checks(first: 5) { totalCount nodes { name } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ viewer: { accountId: s.a.accountId }, checks: { totalCount: 1, nodes: [{ name: 'Checkout' }] } });
  });

  it('joins another subgraph\'s references to Lookout entities through _entities, and each account sees only its own', async () => {
    favourites.splice(0, favourites.length,
      { note: 'mine', checkId: checkA, groupId: toGlobalId('CheckGroup', groupA) },
      { note: 'theirs', checkId: checkB });
    const query = '{ favourites { note check { name checkType group { name } } group { name } } }';

    const a = await throughGateway(s.a, query);
    expect(a.errors).toBeUndefined();
    expect(a.data).toEqual({ favourites: [
      { note: 'mine', check: { name: 'Checkout', checkType: 'API', group: { name: 'Payments' } }, group: { name: 'Payments' } },
      { note: 'theirs', check: null, group: null },
    ] });

    const b = await throughGateway(s.b, query);
    expect(b.errors).toBeUndefined();
    expect(b.data).toEqual({ favourites: [
      { note: 'mine', check: null, group: null },
      { note: 'theirs', check: { name: 'Other account', checkType: 'API', group: null }, group: null },
    ] });
  });
});
