import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildExecutableSchema } from '../../src/graphql/build-executable-schema.js';
import { limitError } from '../../src/graphql/cost-plugin.js';
import { loadTypeDefs } from '../../src/graphql/create-graphql.js';
import { measureOperation } from '../../src/graphql/operation-measure.js';

/** A small schema exercising every shape the cost rule distinguishes. */
const schema = buildSchema(`
  directive @restCost(calls: Int! = 1, perParent: Boolean! = false) on FIELD_DEFINITION
  type Query {
    viewer: Account @restCost
    items(first: Int = 10, after: String): ItemConnection! @restCost(calls: 2)
    all: [Item!]! @restCost
    recent(first: Int = 5): [Item!]! @restCost
    thing(id: ID!): Thing @restCost
    free: Item
  }
  type Mutation { touch(id: ID!): Item @restCost }
  type Account { name: String! }
  type ItemConnection { nodes: [Item!]! edges: [ItemEdge!]! pageInfo: PageInfo! totalCount: Int }
  type PageInfo { hasNextPage: Boolean! }
  type ItemEdge { node: Item! cursor: String! }
  interface Thing { id: ID! owner: Account @restCost }
  type Item implements Thing {
    id: ID!
    owner: Account @restCost
    tags: [String!]!
    badge: String @restCost(perParent: true)
    children(first: Int = 5): ItemConnection! @restCost(calls: 2, perParent: true)
    parts: [Part!]!
    grid: [[Part!]!]!
  }
  type Part { detail: String @restCost(perParent: true) }
`);

const measure = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  measureOperation(schema, parse(query), operationName, variables);

describe('measuring an operation before it runs', () => {
  it.each([
    ['a batched root field costs its calls', '{ viewer { name } }', 1],
    ['a connection costs its calls, whatever its size', '{ items(first: 50) { nodes { id } totalCount } }', 2],
    ['a batched field inside a connection costs once per occurrence', '{ items(first: 50) { nodes { owner { name } } } }', 3],
    ['a perParent field inside a connection is multiplied by `first`', '{ items(first: 3) { nodes { badge } } }', 5],
    ['a connection without `first` uses the argument default', '{ items { nodes { badge } } }', 12],
    ['a `first` above 100 counts as 100 (the most a page holds)', '{ items(first: 500) { nodes { badge } } }', 102],
    ['a negative `first` counts as 0', '{ items(first: -4) { nodes { badge } } }', 2],
    ['edges count like nodes', '{ items(first: 3) { edges { node { badge } } } }', 5],
    ['pageInfo is not a list', '{ items(first: 3) { pageInfo { hasNextPage } } }', 2],
    ['a plain list counts 100 items', '{ all { badge } }', 101],
    ['a list field with its own `first` counts `first` items', '{ recent(first: 7) { badge } }', 8],
    ['a list field with its own `first` defaults like a connection', '{ recent { badge } }', 6],
    ['nested lists multiply', '{ items(first: 2) { nodes { grid { detail } } } }', 2 + 2 * 100 * 100],
    ['a list that is not directly in the connection counts 100', '{ items(first: 2) { nodes { parts { detail } } } }', 2 + 2 * 100],
    ['nested connections multiply their own calls and their children', '{ items(first: 2) { nodes { children(first: 4) { nodes { badge } } } } }', 2 + 2 * (2 + 4)],
    ['a field without @restCost is free', '{ free { id tags } }', 0],
    ['a perParent field at the root costs its calls once', '{ free { badge } }', 1],
    ['a fragment on the connection keeps the connection size', '{ items(first: 3) { ...Page } } fragment Page on ItemConnection { nodes { badge } }', 5],
    ['an inline fragment counts like its fields', '{ items(first: 3) { nodes { ... on Item { badge } } } }', 5],
    ['a fragment spread twice counts twice', '{ items(first: 3) { nodes { ...B ...B } } } fragment B on Item { badge }', 2 + 3 * 2],
    ['an interface field counts from its definition', '{ thing(id: 1) { owner { name } ... on Item { badge } } }', 3],
    ['`__schema` costs the introspection cost (default 50), whatever it selects', '{ __schema { types { name fields { name type { ofType { ofType { ofType { name } } } } } } } }', 50],
    ['`__type` costs 1', '{ __type(name: "Item") { name fields { name } } }', 1],
    ['__typename is free', '{ __typename items { __typename } }', 2],
    ['`@skip(if: true)` leaves fields out', '{ viewer @skip(if: true) { name } items { nodes { id } } }', 2],
    ['`@include(if: false)` leaves fields out', '{ viewer @include(if: false) { name } }', 0],
    ['mutations count like queries', 'mutation { touch(id: 1) { owner { name } } }', 2],
  ])('%s', (_name, query, cost) => {
    expect(measure(query).cost).toBe(cost);
  });

  it.each([
    ['a variable given', { n: 7 }, 2 + 7],
    ['a variable left out (its default applies)', {}, 2 + 4],
    ['a variable given as null (the argument default applies)', { n: null }, 2 + 10],
  ])('reads `first` from variables: %s', (_name, variables, cost) => {
    expect(measure('query($n: Int = 4) { items(first: $n) { nodes { badge } } }', variables).cost).toBe(cost);
  });

  it('resolves @skip and @include from variables', () => {
    const query = 'query($s: Boolean!, $i: Boolean!) { a: viewer @skip(if: $s) { name } b: viewer @include(if: $i) { name } }';
    expect(measure(query, { s: true, i: false })).toEqual({ depth: 0, aliases: 0, cost: 0 });
    expect(measure(query, { s: false, i: true })).toEqual({ depth: 2, aliases: 2, cost: 2 });
  });

  it('measures variables that do not coerce as left out (the operation then fails before any REST call)', () => {
    expect(measure('query($n: Int) { items(first: $n) { nodes { badge } } }', { n: 'many' }).cost).toBe(2 + 10);
  });

  it.each([
    ['one root field', '{ viewer { name } }', 2],
    ['a connection', '{ items { nodes { id } } }', 3],
    ['nested connections', '{ items { nodes { children { nodes { children { edges { node { id } } } } } } } }', 8],
    ['a fragment adds its own depth', '{ items { ...P } } fragment P on ItemConnection { nodes { owner { name } } }', 4],
    ['introspection counts like any field', '{ viewer { name } __schema { types { fields { type { ofType { ofType { name } } } } } } }', 7],
    ['__typename counts as a field', '{ __typename }', 1],
  ])('measures depth: %s', (_name, query, depth) => {
    expect(measure(query).depth).toBe(depth);
  });

  it.each([
    ['none', '{ viewer { name } }', 0],
    ['on root and nested fields', '{ a: viewer { n: name } b: items { nodes { id } } }', 3],
    ['in a fragment, once per spread', '{ items { nodes { ...A } } more: items { nodes { ...A } } } fragment A on Item { o: owner { name } }', 3],
    ['in introspection too', '{ __schema { t: types { n: name } } }', 2],
    ['on introspection root fields', '{ a: __schema { queryType { name } } b: __type(name: "Item") { name } }', 2],
    ['on __typename', '{ t: __typename items { n: __typename } }', 2],
  ])('counts aliases: %s', (_name, query, aliases) => {
    expect(measure(query).aliases).toBe(aliases);
  });

  it('measures the operation named, and nothing when the name is unknown', () => {
    const doc = 'query A { viewer { name } } query B { items { nodes { badge } } }';
    expect(measure(doc, {}, 'A').cost).toBe(1);
    expect(measure(doc, {}, 'B').cost).toBe(12);
    expect(measure(doc, {}, 'C')).toEqual({ depth: 0, aliases: 0, cost: 0 });
  });

  it('measures a document spreading fragments exponentially in linear time', () => {
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) =>
      i === levels - 1 ? `fragment F${i} on Item { x: badge }` : `fragment F${i} on Item { ...F${i + 1} ...F${i + 1} }`);
    const started = performance.now();
    const m = measure(`{ free { ...F0 } } ${fragments.join(' ')}`);
    expect(performance.now() - started).toBeLessThan(200);
    expect(m.aliases).toBe(2 ** (levels - 1));
    expect(m.cost).toBe(2 ** (levels - 1));
  });
});

describe('the limits', () => {
  const limits = { maxDepth: 5, maxAliases: 3, maxCost: 10 };

  it.each([
    ['depth', { depth: 6, aliases: 0, cost: 0 }, 'QUERY_TOO_DEEP', 5, 6],
    ['aliases', { depth: 1, aliases: 4, cost: 0 }, 'TOO_MANY_ALIASES', 3, 4],
    ['cost', { depth: 1, aliases: 0, cost: 11 }, 'QUERY_TOO_COSTLY', 10, 11],
  ])('refuse an operation past the %s limit with a coded error naming the limit and the value', (_name, m, code, limit, value) => {
    const error = limitError(m, limits);
    expect(error?.extensions).toMatchObject({ code, limit, value, http: { status: 400 } });
  });

  it('accept an operation exactly at every limit', () => {
    expect(limitError({ depth: 5, aliases: 3, cost: 10 }, limits)).toBeNull();
  });

  it('are off when set to 0', () => {
    expect(limitError({ depth: 1e6, aliases: 1e6, cost: 1e6 }, { maxDepth: 0, maxAliases: 0, maxCost: 0 })).toBeNull();
  });
});

describe('the cost of real operations against the layer\'s schema', () => {
  const real = buildExecutableSchema(loadTypeDefs(), {});

  it('lets the 100-check dashboard query pass the default limits (depth 15, 30 aliases, cost 1000)', () => {
    const dashboard = parse(`query Dashboard {
      checks(first: 100) {
        totalCount
        nodes {
          id name checkType activated muted
          group { id name }
          status { hasFailures hasErrors isDegraded longestRun shortestRun lastRunLocation lastCheckRunId sslDaysRemaining createdAt }
          latestResults(count: 5) { id hasFailures hasErrors isDegraded responseTime runLocation startedAt }
          alertChannels { __typename id ... on EmailAlertChannel { config { address } } }
        }
      }
    }`);
    const m = measureOperation(real, dashboard);
    expect(limitError(m, { maxDepth: 15, maxAliases: 30, maxCost: 1000 })).toBeNull();
    expect(m.cost).toBeLessThanOrEqual(10);
  });

  it('counts federation entities once per representation', () => {
    const doc = parse('query($r: [_Any!]!) { _entities(representations: $r) { ... on CheckGroup { checks(first: 10) { nodes { id } } } } }');
    const representations = [1, 2, 3].map((i) => ({ __typename: 'CheckGroup', id: String(i) }));
    expect(measureOperation(real, doc, null, { r: representations }).cost).toBe(3 + 3 * 2);
  });
});
