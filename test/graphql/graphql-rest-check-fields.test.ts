import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCheckFields } from '../../src/graphql/rest-check-fields.js';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The resolve info of the operation's first field, as far as restCheckFields reads it. */
function infoOf(query: string): GraphQLResolveInfo {
  const doc = parse(query);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const field = op.selectionSet.selections[0] as FieldNode;
  const fragments = Object.fromEntries(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  return { fieldNodes: [field], fragments } as unknown as GraphQLResolveInfo;
}

describe('restCheckFields', () => {
  it.each([
    ['scalars of the check', '{ check(id: "x") { checkId name muted tags } }', false, 'checkType,id,muted,name,tags'],
    ['renamed fields and relations', '{ check(id: "x") { id createdAt updatedAt group { name } status { health } latestResults { resultId } alertChannels { type } } }', false, 'alertChannelSubscriptions,checkType,created_at,groupId,id,updated_at'],
    ['type-specific fields in fragments and inline fragments', '{ check(id: "x") { ...F ... on HeartbeatCheck { heartbeat { period } } } } fragment F on ApiCheck { request { url } __typename }', false, 'checkType,heartbeat,id,request'],
    ['a connection read through nodes and edges', '{ checks { totalCount pageInfo { hasNextPage } nodes { name } edges { cursor node { activated } } } }', true, 'activated,checkType,id,name'],
    ['only the global id', '{ check(id: "x") { id } }', false, 'checkType,id'],
  ])('asks REST only for the fields of %s', (_label, query, connection, expected) => {
    expect(restCheckFields(infoOf(query), connection)).toBe(expected);
  });

  it.each([
    ['a relation whose resolver may read more of the check', '{ check(id: "x") { name privateLocationNodes { slugName } } }', false],
    ['the project of a check in a connection', '{ checks { nodes { project { logicalId } } } }', true],
  ])('asks REST for whole checks when the selection reads %s', (_label, query, connection) => {
    expect(restCheckFields(infoOf(query), connection)).toBeUndefined();
  });
});

const DASHBOARD = `{
  checks(first: 100) {
    totalCount
    nodes {
      checkId name checkType activated muted tags
      group { groupId name }
      status { health hasFailures isDegraded updatedAt }
      latestResults(count: 5) { resultId hasFailures isDegraded responseTime runLocation startedAt }
      alertChannels { alertChannelId type }
      WHOLE
    }
  }
}`;

describe.each(BACKENDS)('the GraphQL layer asks for sparse checks on $name', (backend) => {
  let s: TestServer;
  const urls: string[] = [];

  beforeAll(async () => {
    s = await startTestServer({ backend });
    const channel = await s.a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'ops@example.com' } });
    const group = await s.a.request('POST', '/v1/check-groups', { name: 'Group' });
    for (let i = 0; i < 6; i++) {
      const res = await s.a.request('POST', '/v1/checks/api', {
        name: `c${i}`, tags: [`t${i % 2}`], muted: i === 3, groupId: i % 2 ? group.body.id : null,
        request: { url: `https://example.test/${i}`, headers: [{ key: 'X', value: 'y'.repeat(2000) }] },
        alertChannelSubscriptions: i % 3 ? [{ alertChannelId: channel.body.id, activated: true }] : [],
      });
      expect(res.status, res.text).toBe(201);
    }
    s.onRequest((req: { url?: string }) => {
      if (req.url?.startsWith('/v1/checks')) urls.push(req.url);
    });
  });
  afterAll(async () => s?.close());

  it('sends fields= on the checks call of a dashboard query and answers what the whole checks answer, in 5 REST calls', async () => {
    urls.length = 0;
    const sparse = await gql(s.a, DASHBOARD.replace('WHOLE', ''));
    expect(sparse.errors).toBeUndefined();
    expect(sparse.extensions?.cost?.restCalls).toBe(5);
    expect(urls).toHaveLength(1);
    const asked = new URL(urls[0]!, 'http://x').searchParams.get('fields');
    expect(asked?.split(',').sort()).toEqual(['activated', 'alertChannelSubscriptions', 'checkType', 'groupId', 'id', 'muted', 'name', 'tags']);

    urls.length = 0;
    // A field the sparse mapping does not know makes the layer read whole checks.
    const whole = await gql(s.a, DASHBOARD.replace('WHOLE', 'privateLocationNodes { slugName }'));
    expect(whole.errors).toBeUndefined();
    expect(urls).toHaveLength(1);
    expect(new URL(urls[0]!, 'http://x').searchParams.has('fields')).toBe(false);

    const withoutExtra = whole.data.checks.nodes.map(({ privateLocationNodes: _p, ...rest }: Record<string, unknown>) => rest);
    expect(sparse.data.checks).toEqual({ ...whole.data.checks, nodes: withoutExtra });
    expect(sparse.data.checks.nodes).toHaveLength(6);
  });

  it('keeps the checks of two selections of one operation apart, with one REST call for both', async () => {
    const listed = await gql(s.a, '{ checks(first: 2) { nodes { checkId } } }');
    const [x, y] = listed.data.checks.nodes.map((n: { checkId: string }) => n.checkId);
    urls.length = 0;
    const res = await gql(s.a, `{ a: check(id: "${x}") { name } b: check(id: "${y}") { tags muted } c: check(id: "${x}") { tags } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.a).toEqual({ name: expect.any(String) });
    expect(res.data.b).toEqual({ tags: expect.any(Array), muted: expect.any(Boolean) });
    expect(res.data.c).toEqual({ tags: expect.any(Array) });
    expect(res.extensions?.cost?.restCalls).toBe(1);
    expect(urls).toHaveLength(1);
    expect(new URL(urls[0]!, 'http://x').searchParams.get('fields')?.split(',').sort()).toEqual(['checkType', 'id', 'muted', 'name', 'tags']);
  });
});
