import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { countRestRequests, gql } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';

/**
 * Random operations over the graph's REST-backed fields, built from a small grammar: each is sent to
 * the real server, and the cost estimated before execution must never be below the REST requests the
 * service actually received for it.
 */
describe('the cost estimate of an operation', () => {
  let s: TestServer;
  const checkIds: string[] = [];
  const groupIds: number[] = [];
  let otherAccountCheck: string;

  beforeAll(async () => {
    // No limit, no budget cut and no rate limit: every field resolves, so every REST call is counted.
    s = await startTestServer({ config: { graphqlMaxCost: 0, graphqlMaxDepth: 0, graphqlMaxAliases: 0, graphqlRestBudget: 100_000, rateLimitMax: 0 } });
    for (const name of ['Payments', 'Search', 'Empty']) groupIds.push((await s.a.request('POST', '/v1/check-groups', { name })).body.id);
    for (const [i, groupId] of [groupIds[0], groupIds[0], groupIds[1], undefined, undefined].entries()) {
      const res = await s.a.request('POST', i % 2 ? '/v1/checks/url' : '/v1/checks/api', {
        name: `Check ${i}`, groupId, tags: [`t${i % 2}`], request: { url: `https://example.test/${i}` },
      });
      expect(res.status).toBe(201);
      checkIds.push(res.body.id);
    }
    otherAccountCheck = (await s.b.request('POST', '/v1/checks/api', { name: 'Other', request: { url: 'https://example.test/b' } })).body.id;
  });
  afterAll(async () => s?.close());

  const first = fc.integer({ min: 1, max: 12 });
  const checkRef = () => fc.constantFrom(...checkIds.map((id) => toGlobalId('Check', id)), toGlobalId('Check', otherAccountCheck), 'bm90LWFuLWlk');
  const groupRef = () => fc.constantFrom(...groupIds.map((id) => toGlobalId('CheckGroup', id)), toGlobalId('CheckGroup', 999_999));

  /** A selection on a check, `depth` levels of relations deep at most. */
  const checkSelection = (depth: number): fc.Arbitrary<string> => fc.tuple(
    fc.subarray([
      'id name checkType',
      'status { hasFailures isDegraded }',
      'latestResults(count: 3) { id hasFailures }',
      'alertChannels { id }',
      'errorGroups { id }',
      'results(first: 2) { totalCount nodes { id } }',
      'badge { svg }',
      ...(depth > 0 ? ['GROUP'] : []),
    ], { minLength: 1 }),
    depth > 0 ? groupSelection(depth - 1) : fc.constant(''),
  ).map(([fields, group]) => fields.map((f) => (f === 'GROUP' ? `group { ${group} }` : f)).join(' '));

  /** A selection on a group, `depth` levels of relations deep at most. */
  const groupSelection = (depth: number): fc.Arbitrary<string> => fc.tuple(
    fc.subarray(['id name', 'alertChannels { id }', ...(depth > 0 ? ['CHECKS'] : [])], { minLength: 1 }),
    depth > 0 ? fc.tuple(first, checkSelection(depth - 1)) : fc.constant(null),
  ).map(([fields, checks]) => fields.map((f) => (f === 'CHECKS' && checks ? `checks(first: ${checks[0]}) { nodes { ${checks[1]} } }` : f)).join(' '));

  const rootField = (): fc.Arbitrary<string> => fc.oneof(
    fc.constant('viewer { name }'),
    fc.constant('locations { region }'),
    fc.tuple(first, checkSelection(2)).map(([n, sel]) => `checks(first: ${n}) { totalCount nodes { ${sel} } }`),
    fc.tuple(first, groupSelection(2)).map(([n, sel]) => `checkGroups(first: ${n}) { nodes { ${sel} } }`),
    fc.tuple(checkRef(), checkSelection(1)).map(([id, sel]) => `check(id: "${id}") { ${sel} }`),
    fc.tuple(groupRef(), groupSelection(1)).map(([id, sel]) => `checkGroup(id: "${id}") { ${sel} }`),
    fc.tuple(fc.oneof(checkRef(), groupRef()), checkSelection(1), groupSelection(1))
      .map(([id, c, g]) => `node(id: "${id}") { id ... on Check { ${c} } ... on CheckGroup { ${g} } }`),
    fc.tuple(fc.array(fc.oneof(checkRef(), groupRef()), { minLength: 1, maxLength: 4 }), checkSelection(1))
      .map(([ids, c]) => `nodes(ids: ${JSON.stringify(ids)}) { id ... on Check { ${c} } }`),
  );

  const operation = () => fc.array(rootField(), { minLength: 1, maxLength: 3 })
    .map((fields) => `{ ${fields.map((f, i) => `f${i}: ${f}`).join(' ')} }`);

  it('is never below the REST calls the service receives for it', async () => {
    const counter = countRestRequests(s);
    try {
      await fc.assert(
        fc.asyncProperty(operation(), async (query) => {
          // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
          await gql(s.a, '{ __typename }');
          counter.reset();
          const res = await gql(s.a, query);
          expect(res.errors, query).toBeUndefined();
          const estimated = res.extensions?.cost && (res.extensions.cost as { estimated?: number }).estimated;
          expect(estimated, query).toBeTypeOf('number');
          expect(counter.count, query).toBeLessThanOrEqual(estimated!);
          expect(res.extensions!.cost!.restCalls).toBeLessThanOrEqual(estimated!);
        }),
        fuzzParameters(60, 20261122),
      );
    } finally {
      counter.stop();
    }
  });
});
