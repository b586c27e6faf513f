import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const PAYLOAD = '{ checkGroup { id groupId name activated muted tags locations concurrency retryStrategyFallback retryStrategy { type maxRetries } apiCheckDefaults { url headers { key value } } alertChannelSubscriptions { alertChannelId activated } } userErrors { field code message } }';
const CREATE = `mutation($input: CheckGroupInput!, $auto: Boolean) { r: createCheckGroup(input: $input, autoAssignAlerts: $auto) ${PAYLOAD} }`;
const UPDATE = `mutation($id: ID!, $input: CheckGroupInput!) { r: updateCheckGroup(id: $id, input: $input) ${PAYLOAD} }`;

/** Bad inputs: [the key the REST API (or the layer) names, input]. */
const BAD: [string, Record<string, unknown>][] = [
  ['name', { tags: ['x'] }],
  ['locations.0', { name: 'G', locations: ['mars-north-1'] }],
  ['concurrency', { name: 'G', concurrency: 0 }],
  ['privateLocations.0', { name: 'G', privateLocations: ['nowhere'] }],
  ['alertChannelSubscriptions.0.alertChannelId', { name: 'G', alertChannelSubscriptions: [{ alertChannelId: 999999 }] }],
  ['setupSnippetId', { name: 'G', setupSnippetId: 999999 }],
  ['runtimeId', { name: 'G', runtimeId: '1999.01' }],
  ['retryStrategyFallback', { name: 'G', retryStrategyFallback: true, retryStrategy: { type: 'FIXED' } }],
];

describe.each(BACKENDS)('GraphQL check group mutations on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const countGroups = async (client: TestClient = s.a) => Number((await client.request('GET', '/v1/check-groups?limit=1')).headers.get('content-range')?.split('/')[1]);
  const create = (input: Record<string, unknown>, client: TestClient = s.a, auto?: boolean) => gql(client, CREATE, { input, auto });

  it('creates a group with typed settings and reads it back through REST and the graph', async () => {
    const res = await create({
      name: 'Shop', tags: ['prod'], locations: ['eu-west-1'], concurrency: 3,
      apiCheckDefaults: { url: 'https://shop.test', headers: [{ key: 'X-Env', value: 'prod' }] },
      retryStrategy: { type: 'FIXED', maxRetries: 2, baseBackoffSeconds: 10 },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.r.userErrors).toEqual([]);
    expect(res.data.r.checkGroup).toMatchObject({
      name: 'Shop', activated: true, muted: false, tags: ['prod'], locations: ['eu-west-1'], concurrency: 3, retryStrategyFallback: false,
      retryStrategy: { type: 'FIXED', maxRetries: 2 }, apiCheckDefaults: { url: 'https://shop.test', headers: [{ key: 'X-Env', value: 'prod' }] },
    });
    const rest = await s.a.request('GET', `/v1/check-groups/${res.data.r.checkGroup.groupId}`);
    expect(rest.body).toMatchObject({ name: 'Shop', concurrency: 3 });
    const node = await gql(s.a, 'query($id: ID!) { node(id: $id) { ... on CheckGroup { name } } }', { id: res.data.r.checkGroup.id });
    expect(node.data.node).toEqual({ name: 'Shop' });
  });

  it('subscribes a new group to every channel unless autoAssignAlerts is false', async () => {
    const channel = (await s.a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'g@example.test' } })).body.id;
    const auto = await create({ name: 'Auto' });
    expect(auto.data.r.checkGroup.alertChannelSubscriptions).toContainEqual({ alertChannelId: channel, activated: true });
    const none = await create({ name: 'Manual' }, s.a, false);
    expect(none.data.r.checkGroup.alertChannelSubscriptions).toEqual([]);
  });

  it('writes retryStrategyFallback as the REST FALLBACK strategy', async () => {
    const res = await create({ name: 'Fallback', retryStrategyFallback: true });
    expect(res.data.r.checkGroup).toMatchObject({ retryStrategyFallback: true, retryStrategy: null });
    expect((await s.a.request('GET', `/v1/check-groups/${res.data.r.checkGroup.groupId}`)).body.retryStrategy).toBe('FALLBACK');
  });

  it('updates only the fields given, by global or REST id', async () => {
    const { data } = await create({ name: 'Before', tags: ['keep'], concurrency: 2 });
    const byGlobal = await gql(s.a, UPDATE, { id: data.r.checkGroup.id, input: { name: 'After', muted: true } });
    expect(byGlobal.data.r.userErrors).toEqual([]);
    expect(byGlobal.data.r.checkGroup).toMatchObject({ name: 'After', muted: true, tags: ['keep'], concurrency: 2 });
    const byRest = await gql(s.a, UPDATE, { id: String(data.r.checkGroup.groupId), input: { activated: false } });
    expect(byRest.data.r.checkGroup).toMatchObject({ name: 'After', activated: false });
  });

  it('returns userErrors for a bad update and leaves the group unchanged', async () => {
    const { data } = await create({ name: 'Stable', concurrency: 4 });
    const res = await gql(s.a, UPDATE, { id: data.r.checkGroup.id, input: { name: 'Changed', concurrency: 101 } });
    expect(res.data.r).toEqual({ checkGroup: null, userErrors: [{ field: 'concurrency', code: 'BAD_USER_INPUT', message: expect.any(String) }] });
    expect((await s.a.request('GET', `/v1/check-groups/${data.r.checkGroup.groupId}`)).body).toMatchObject({ name: 'Stable', concurrency: 4 });
  });

  it('deletes an empty group, and refuses a group with checks with CONFLICT', async () => {
    const { data } = await create({ name: 'Empty' });
    const res = await gql(s.a, 'mutation($id: ID!) { deleteCheckGroup(id: $id) { deletedId userErrors { field } } }', { id: data.r.checkGroup.id });
    expect(res.data.deleteCheckGroup).toEqual({ deletedId: data.r.checkGroup.id, userErrors: [] });
    expect((await gql(s.a, 'query($id: ID!) { checkGroup(id: $id) { id } }', { id: data.r.checkGroup.id })).data.checkGroup).toBeNull();

    const full = await create({ name: 'Full' });
    await s.a.request('POST', '/v1/checks/api', { name: 'member', groupId: full.data.r.checkGroup.groupId, request: { url: 'https://example.test' } });
    const refused = await gql(s.a, 'mutation($id: ID!) { deleteCheckGroup(id: $id) { deletedId } }', { id: full.data.r.checkGroup.id });
    expect(refused.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect((await s.a.request('GET', `/v1/check-groups/${full.data.r.checkGroup.groupId}`)).status).toBe(200);
  });

  it.each(BAD)('createCheckGroup with a bad %s returns a userError naming it and writes nothing', async (key, input) => {
    const before = await countGroups();
    const res = await create(input);
    expect(res.errors).toBeUndefined();
    expect(res.data.r.checkGroup).toBeNull();
    expect(res.data.r.userErrors).toContainEqual({ field: key, code: 'BAD_USER_INPUT', message: expect.any(String) });
    expect(await countGroups()).toBe(before);
  });

  it.each([
    ['a string for an integer', { name: 'G', concurrency: 'many' }],
    ['an unknown input field', { name: 'G', browserCheckDefaults: 'x' }],
    ['an assertion with an unknown source', { name: 'G', apiCheckDefaults: { assertions: [{ source: 'BODY', comparison: 'EQUALS' }] } }],
  ])('rejects %s before any REST call', async (_what, input) => {
    const before = await countGroups();
    const res = await create(input);
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await countGroups()).toBe(before);
  });

  it.each([
    ['updateCheckGroup', `mutation($id: ID!) { r: updateCheckGroup(id: $id, input: {name: "Taken"}) { checkGroup { id } } }`],
    ['deleteCheckGroup', 'mutation($id: ID!) { r: deleteCheckGroup(id: $id) { deletedId } }'],
  ])("%s on another account's group is NOT_FOUND and changes nothing", async (_name, mutation) => {
    const foreign = (await s.b.request('POST', '/v1/check-groups', { name: 'Theirs' })).body;
    const id = (await gql(s.b, `{ checkGroup(id: "${foreign.id}") { id } }`)).data.checkGroup.id;
    const res = await gql(s.a, mutation, { id });
    expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await s.b.request('GET', `/v1/check-groups/${foreign.id}`)).body).toEqual(foreign);
  });

  it('answers an id that cannot be a group as NOT_FOUND', async () => {
    const res = await gql(s.a, 'mutation { r: updateCheckGroup(id: "nope", input: {name: "x"}) { checkGroup { id } } }');
    expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
