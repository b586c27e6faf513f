import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGraphqlWs, subscribe } from '../support/graphql-ws-client.js';
import { BACKENDS } from '../support/backends.js';
import { gql, type GraphqlResult } from '../support/graphql.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const globalId = (type: string, restId: string | number) => Buffer.from(`${type}:${restId}`, 'utf8').toString('base64url');

/** The REST ids of one account's resources, by the type of their global id. */
type Ids = Record<'Check' | 'CheckGroup' | 'AlertChannel' | 'Snippet' | 'PrivateLocation' | 'ErrorGroup' | 'TestSession' | 'CheckResult', string>;

/**
 * One argument (or input field) naming a resource: the operation, given the id as `$id` and the
 * account's ids (`$check`, `$group`: what the operation acts on besides), and what of its answer is
 * compared. `empty`: what "nothing" looks like for another account's id.
 */
interface Row {
  type: keyof Ids;
  operation: string;
  pick: (data: any) => unknown;
}

const ROWS: [string, Row][] = [
  ['check(id)', { type: 'Check', operation: 'query($id: ID!) { check(id: $id) { name } }', pick: (d) => d.check }],
  ['checkGroup(id)', { type: 'CheckGroup', operation: 'query($id: ID!) { checkGroup(id: $id) { name } }', pick: (d) => d.checkGroup }],
  ['alertChannel(id)', { type: 'AlertChannel', operation: 'query($id: ID!) { alertChannel(id: $id) { alertChannelId } }', pick: (d) => d.alertChannel }],
  ['snippet(id)', { type: 'Snippet', operation: 'query($id: ID!) { snippet(id: $id) { name } }', pick: (d) => d.snippet }],
  ['privateLocation(id)', { type: 'PrivateLocation', operation: 'query($id: ID!) { privateLocation(id: $id) { slugName } }', pick: (d) => d.privateLocation }],
  ['errorGroup(id)', { type: 'ErrorGroup', operation: 'query($id: ID!) { errorGroup(id: $id) { errorGroupId } }', pick: (d) => d.errorGroup }],
  ['testSession(id)', { type: 'TestSession', operation: 'query($id: ID!) { testSession(id: $id) { testSessionId } }', pick: (d) => d.testSession }],
  ['checkResult(id), REST ids as checkId:resultId', { type: 'CheckResult', operation: 'query($id: ID!) { checkResult(id: $id) { resultId } }', pick: (d) => d.checkResult }],
  ['checkStatuses(checkIds)', { type: 'Check', operation: 'query($id: ID!) { checkStatuses(checkIds: [$id]) { checkId } }', pick: (d) => d.checkStatuses }],
  ['errorGroups(checkIds)', { type: 'Check', operation: 'query($id: ID!) { errorGroups(checkIds: [$id]) { nodes { errorGroupId } } }', pick: (d) => d.errorGroups.nodes }],
  ['alertNotifications(checkId)', { type: 'Check', operation: 'query($id: ID!) { alertNotifications(checkId: $id) { totalCount } }', pick: (d) => d.alertNotifications }],
  ['alertNotifications(alertChannelId)', { type: 'AlertChannel', operation: 'query($id: ID!) { alertNotifications(alertChannelId: $id) { totalCount } }', pick: (d) => d.alertNotifications }],
  ['muteCheck(id)', { type: 'Check', operation: 'mutation($id: ID!) { muteCheck(id: $id) { check { name muted } } }', pick: (d) => d.muteCheck.check }],
  ['updateCheckGroup(id)', { type: 'CheckGroup', operation: 'mutation($id: ID!) { updateCheckGroup(id: $id, input: {}) { checkGroup { name } } }', pick: (d) => d.updateCheckGroup.checkGroup }],
  ['updateSnippet(id)', { type: 'Snippet', operation: 'mutation($id: ID!) { updateSnippet(id: $id, input: {name: "shared setup"}) { snippet { name } } }', pick: (d) => d.updateSnippet.snippet }],
  ['archiveErrorGroup(id)', { type: 'ErrorGroup', operation: 'mutation($id: ID!) { archiveErrorGroup(id: $id) { errorGroup { errorGroupId } } }', pick: (d) => d.archiveErrorGroup.errorGroup }],
  ['createPrivateLocationKey(privateLocationId)', {
    type: 'PrivateLocation', operation: 'mutation($id: ID!) { createPrivateLocationKey(privateLocationId: $id) { privateLocation { slugName } } }',
    pick: (d) => d.createPrivateLocationKey.privateLocation,
  }],
  ['checks(filter: {group})', { type: 'CheckGroup', operation: 'query($id: ID!) { checks(filter: {group: $id}) { nodes { name } } }', pick: (d) => d.checks.nodes }],
  ['ApiCheckInput.group', {
    type: 'CheckGroup', operation: 'mutation($id: ID!, $check: ID!) { updateApiCheck(id: $check, input: {group: $id}) { check { groupId } userErrors { field } } }',
    pick: (d) => d.updateApiCheck.check,
  }],
  ['ApiCheckInput.setupSnippet', {
    type: 'Snippet', operation: 'mutation($id: ID!, $check: ID!) { updateApiCheck(id: $check, input: {setupSnippet: $id}) { check { ... on ApiCheck { setupSnippetId } } userErrors { field } } }',
    pick: (d) => d.updateApiCheck.check,
  }],
  ['ApiCheckInput.tearDownSnippet', {
    type: 'Snippet', operation: 'mutation($id: ID!, $check: ID!) { updateApiCheck(id: $check, input: {tearDownSnippet: $id}) { check { ... on ApiCheck { tearDownSnippetId } } userErrors { field } } }',
    pick: (d) => d.updateApiCheck.check,
  }],
  ['AlertChannelSubscriptionInput.alertChannel', {
    type: 'AlertChannel',
    operation: `mutation($id: ID!, $check: ID!) { updateApiCheck(id: $check, input: {alertChannelSubscriptions: [{alertChannel: $id, activated: true}]}) {
      check { alertChannelSubscriptions { alertChannelId activated } } userErrors { field } } }`,
    pick: (d) => d.updateApiCheck.check,
  }],
  ['CheckGroupInput.setupSnippet', {
    type: 'Snippet', operation: 'mutation($id: ID!, $group: ID!) { updateCheckGroup(id: $group, input: {setupSnippet: $id}) { checkGroup { setupSnippetId } userErrors { field } } }',
    pick: (d) => d.updateCheckGroup.checkGroup,
  }],
  ['CheckGroupInput.tearDownSnippet', {
    type: 'Snippet', operation: 'mutation($id: ID!, $group: ID!) { updateCheckGroup(id: $group, input: {tearDownSnippet: $id}) { checkGroup { tearDownSnippetId } userErrors { field } } }',
    pick: (d) => d.updateCheckGroup.checkGroup,
  }],
  ['AlertChannelSubscriberInput.checkId', {
    type: 'Check',
    operation: `mutation($id: ID!, $channel: ID!) { updateAlertChannelSubscriptions(id: $channel, subscriptions: [{checkId: $id, activated: true}]) {
      subscriptions { checkId activated } userErrors { field } } }`,
    pick: (d) => d.updateAlertChannelSubscriptions.subscriptions,
  }],
];

/**
 * The deprecated `Int` fields the `ID` fields above replaced, by the row of their replacement: `$id`
 * is the REST id as an Int, which they still take as they did before issue 9.
 */
const DEPRECATED_ROWS: [string, Row & { replacement: string }][] = [
  ['checks(filter: {groupId})', {
    type: 'CheckGroup', replacement: 'checks(filter: {group})',
    operation: 'query($id: Int!) { checks(filter: {groupId: $id}) { nodes { name } } }', pick: (d) => d.checks.nodes,
  }],
  ['ApiCheckInput.groupId', {
    type: 'CheckGroup', replacement: 'ApiCheckInput.group',
    operation: 'mutation($id: Int!, $check: ID!) { updateApiCheck(id: $check, input: {groupId: $id}) { check { groupId } userErrors { field } } }',
    pick: (d) => d.updateApiCheck.check,
  }],
  ['ApiCheckInput.setupSnippetId', {
    type: 'Snippet', replacement: 'ApiCheckInput.setupSnippet',
    operation: 'mutation($id: Int!, $check: ID!) { updateApiCheck(id: $check, input: {setupSnippetId: $id}) { check { ... on ApiCheck { setupSnippetId } } userErrors { field } } }',
    pick: (d) => d.updateApiCheck.check,
  }],
  ['ApiCheckInput.tearDownSnippetId', {
    type: 'Snippet', replacement: 'ApiCheckInput.tearDownSnippet',
    operation: 'mutation($id: Int!, $check: ID!) { updateApiCheck(id: $check, input: {tearDownSnippetId: $id}) { check { ... on ApiCheck { tearDownSnippetId } } userErrors { field } } }',
    pick: (d) => d.updateApiCheck.check,
  }],
  ['AlertChannelSubscriptionInput.alertChannelId', {
    type: 'AlertChannel', replacement: 'AlertChannelSubscriptionInput.alertChannel',
    operation: `mutation($id: Int!, $check: ID!) { updateApiCheck(id: $check, input: {alertChannelSubscriptions: [{alertChannelId: $id, activated: true}]}) {
      check { alertChannelSubscriptions { alertChannelId activated } } userErrors { field } } }`,
    pick: (d) => d.updateApiCheck.check,
  }],
  ['CheckGroupInput.setupSnippetId', {
    type: 'Snippet', replacement: 'CheckGroupInput.setupSnippet',
    operation: 'mutation($id: Int!, $group: ID!) { updateCheckGroup(id: $group, input: {setupSnippetId: $id}) { checkGroup { setupSnippetId } userErrors { field } } }',
    pick: (d) => d.updateCheckGroup.checkGroup,
  }],
  ['CheckGroupInput.tearDownSnippetId', {
    type: 'Snippet', replacement: 'CheckGroupInput.tearDownSnippet',
    operation: 'mutation($id: Int!, $group: ID!) { updateCheckGroup(id: $group, input: {tearDownSnippetId: $id}) { checkGroup { tearDownSnippetId } userErrors { field } } }',
    pick: (d) => d.updateCheckGroup.checkGroup,
  }],
];

const rowNamed = (name: string): Row => ROWS.find(([n]) => n === name)![1];

/** Whether an answer gave nothing: a null or empty pick, a userError, or a coded NOT_FOUND / BAD_USER_INPUT error. */
function gaveNothing(res: GraphqlResult, pick: Row['pick']): boolean {
  if (res.errors) return res.errors.every((e) => ['NOT_FOUND', 'BAD_USER_INPUT'].includes(e.extensions?.code));
  const payload = Object.values(res.data ?? {})[0] as { userErrors?: unknown[] } | null;
  if (payload?.userErrors && payload.userErrors.length > 0) return true;
  const picked = pick(res.data);
  return picked === null || (Array.isArray(picked) && picked.length === 0) || (picked as { totalCount?: number })?.totalCount === 0;
}

/** A target answering 200 to everything, for the check a test session runs. */
async function startTarget(): Promise<Server> {
  const server = createServer((_req, res) => res.end('fine'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

describe.each(BACKENDS)('global ids and REST ids alike in every argument naming a resource on $name', (backend) => {
  let s: TestServer;
  let target: Server;
  let mine: Ids;
  let theirs: Ids;

  /** One of each resource for `client`: a check in a group, subscribed to a channel, with a failing result and a test session. */
  async function resources(client: TestClient, url: string): Promise<Ids> {
    const created = async (path: string, body: unknown) => {
      const res = await client.request('POST', path, body);
      expect(res.status, res.text).toBeLessThan(300);
      return res.body;
    };
    const group = await created('/v1/check-groups', { name: 'Shop' });
    const snippet = await created('/v1/snippets', { name: 'setup', script: '// setup' });
    const channel = await created('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: 'https://hooks.test/x' } });
    const location = await created('/v1/private-locations', { name: 'Lab', slugName: `lab-${client.accountId.slice(0, 8)}` });
    const check = await created('/v1/checks/api', {
      name: 'Checkout', locations: ['eu-west-1'], groupId: group.id, request: { url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
    const result = await testRecorder(s.lookout.store).record({
      check: runnable(client, check),
      probe: probe({ hasFailures: true, hasErrors: true, errors: [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:443' }] }),
    });
    const session = await created('/v1/test-sessions/trigger', { checkIds: [check.id] });
    await client.request('GET', `/v1/test-sessions/${session.id}/completion`);
    return {
      Check: check.id, CheckGroup: String(group.id), AlertChannel: String(channel.id), Snippet: String(snippet.id), PrivateLocation: location.id,
      ErrorGroup: result.errorGroupIds[0], TestSession: session.id, CheckResult: `${check.id}:${result.id}`,
    };
  }

  const variables = (ids: Ids, id: string) => ({ id, check: ids.Check, group: ids.CheckGroup, channel: ids.AlertChannel });

  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer({ backend }), startTarget()]);
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    mine = await resources(s.a, url);
    theirs = await resources(s.b, url);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    target?.close();
  });

  it.each(ROWS)('%s: the global id and the REST id give the same answer', async (_name, row) => {
    const byGlobalId = await gql(s.a, row.operation, variables(mine, globalId(row.type, mine[row.type])));
    const byRestId = await gql(s.a, row.operation, variables(mine, mine[row.type]));
    expect(byGlobalId.errors).toBeUndefined();
    // No alert was ever sent: those lists are empty, by either id.
    expect(gaveNothing(byGlobalId, row.pick)).toBe(row.operation.includes('alertNotifications'));
    expect(byRestId).toEqual(byGlobalId);
  });

  it.each(ROWS)('%s: another account\'s ids, global or REST, give nothing', async (_name, row) => {
    for (const id of [globalId(row.type, theirs[row.type]), theirs[row.type]]) {
      const res = await gql(s.a, row.operation, variables(mine, id));
      expect(gaveNothing(res, row.pick), JSON.stringify(res)).toBe(true);
    }
  });

  it.each(ROWS)('%s: garbage and ids of another type give a coded error or nothing, never an internal error', async (_name, row) => {
    const otherType = row.type === 'Check' ? 'CheckGroup' : 'Check';
    for (const id of ['garbage!', '', '0', '-1', 'x'.repeat(500), globalId(otherType, mine[otherType]), globalId(row.type, 'garbage')]) {
      const res = await gql(s.a, row.operation, variables(mine, id));
      expect(res.errors?.map((e) => e.extensions?.code) ?? []).not.toContain('INTERNAL_SERVER_ERROR');
      expect(gaveNothing(res, row.pick), `${JSON.stringify(id)}: ${JSON.stringify(res)}`).toBe(true);
    }
  });

  it.each(DEPRECATED_ROWS)('deprecated %s still takes the REST id, answering as its replacement does', async (_name, row) => {
    const byReplacement = await gql(s.a, rowNamed(row.replacement).operation, variables(mine, mine[row.type]));
    const byDeprecated = await gql(s.a, row.operation, { ...variables(mine, mine[row.type]), id: Number(mine[row.type]) });
    expect(byDeprecated.errors).toBeUndefined();
    expect(gaveNothing(byDeprecated, row.pick), JSON.stringify(byDeprecated)).toBe(false);
    expect(byDeprecated).toEqual(byReplacement);
  });

  it.each(DEPRECATED_ROWS)('deprecated %s: another account\'s REST id gives nothing', async (_name, row) => {
    const res = await gql(s.a, row.operation, { ...variables(mine, mine[row.type]), id: Number(theirs[row.type]) });
    expect(gaveNothing(res, row.pick), JSON.stringify(res)).toBe(true);
  });

  /** One id given twice, as the `ID` field and as its deprecated `Int` field. */
  const BOTH: [string, { type: keyof Ids; operation: string; field: string }][] = [
    ['ApiCheckInput group and groupId', {
      type: 'CheckGroup', field: 'group',
      operation: 'mutation($id: ID, $int: Int, $check: ID!) { updateApiCheck(id: $check, input: {group: $id, groupId: $int}) { check { groupId } userErrors { field code } } }',
    }],
    ['ApiCheckInput setupSnippet and setupSnippetId', {
      type: 'Snippet', field: 'setupSnippet',
      operation: 'mutation($id: ID, $int: Int, $check: ID!) { updateApiCheck(id: $check, input: {setupSnippet: $id, setupSnippetId: $int}) { check { groupId } userErrors { field code } } }',
    }],
    ['CheckGroupInput tearDownSnippet and tearDownSnippetId', {
      type: 'Snippet', field: 'tearDownSnippet',
      operation: `mutation($id: ID, $int: Int, $group: ID!) { updateCheckGroup(id: $group, input: {tearDownSnippet: $id, tearDownSnippetId: $int}) {
        checkGroup { tearDownSnippetId } userErrors { field code } } }`,
    }],
    ['AlertChannelSubscriptionInput alertChannel and alertChannelId', {
      type: 'AlertChannel', field: 'alertChannelSubscriptions.0.alertChannel',
      operation: `mutation($id: ID, $int: Int, $check: ID!) { updateApiCheck(id: $check, input: {alertChannelSubscriptions: [{alertChannel: $id, alertChannelId: $int, activated: true}]}) {
        check { groupId } userErrors { field code } } }`,
    }],
  ];
  const payloadOf = (res: GraphqlResult) => Object.values(res.data ?? {})[0] as { userErrors: { field: string; code: string }[] };

  it.each(BOTH)('%s: the same id in both works; different ids are a userError on the ID field', async (_name, row) => {
    const same = await gql(s.a, row.operation, { ...variables(mine, globalId(row.type, mine[row.type])), int: Number(mine[row.type]) });
    expect(same.errors).toBeUndefined();
    expect(payloadOf(same).userErrors).toEqual([]);
    const different = await gql(s.a, row.operation, { ...variables(mine, globalId(row.type, mine[row.type])), int: Number(theirs[row.type]) });
    expect(different.errors).toBeUndefined();
    expect(payloadOf(different).userErrors).toEqual([{ field: row.field, code: 'BAD_USER_INPUT' }]);
    // null (remove) in one and an id in the other differ too.
    const removeAndSet = await gql(s.a, row.operation, { ...variables(mine, null as never), int: Number(mine[row.type]) });
    expect(payloadOf(removeAndSet).userErrors).toEqual([{ field: row.field, code: 'BAD_USER_INPUT' }]);
  });

  it('AlertChannelSubscriptionInput naming no channel is a userError on alertChannel', async () => {
    const res = await gql(s.a, 'mutation($check: ID!) { updateApiCheck(id: $check, input: {alertChannelSubscriptions: [{activated: true}]}) { check { groupId } userErrors { field code } } }', { check: mine.Check });
    expect(payloadOf(res).userErrors).toEqual([{ field: 'alertChannelSubscriptions.0.alertChannel', code: 'BAD_USER_INPUT' }]);
  });

  it('CheckFilter group and groupId: the same group in both works; different groups are BAD_USER_INPUT', async () => {
    const operation = 'query($id: ID, $int: Int) { checks(filter: {group: $id, groupId: $int}) { nodes { name } } }';
    const same = await gql(s.a, operation, { id: globalId('CheckGroup', mine.CheckGroup), int: Number(mine.CheckGroup) });
    expect(same.errors).toBeUndefined();
    expect(same.data.checks.nodes).toEqual([{ name: 'Checkout' }]);
    const different = await gql(s.a, operation, { id: globalId('CheckGroup', mine.CheckGroup), int: Number(theirs.CheckGroup) });
    expect(different.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });
});

describe('global ids and REST ids alike in subscription arguments', () => {
  let s: TestServer;
  let client: Client;
  let checkId: string;
  let groupId: number;
  const monitor = () => s.lookout.graphqlSubscriptions!.monitor;

  beforeAll(async () => {
    s = await startTestServer();
    groupId = (await s.a.request('POST', '/v1/check-groups', { name: 'Shop' })).body.id;
    checkId = (await s.a.request('POST', '/v1/checks/api', { name: 'Checkout', groupId, locations: ['eu-west-1'], request: { url: 'https://shop.test/' } })).body.id;
    client = await connectGraphqlWs(s.url, { authorization: `Bearer ${s.a.apiKey}`, accountId: s.a.accountId });
  });
  afterAll(async () => {
    await client?.dispose();
    await s?.close();
  });

  const sessionId = '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';
  const at = new Date().toISOString();
  const EVENTS = {
    checkResultCreated: () => ({
      type: 'checkResultCreated', accountId: s.a.accountId, checkId, groupId, tags: [],
      result: { id: crypto.randomUUID(), checkId, resultType: 'FINAL', hasFailures: false, runLocation: 'eu-west-1', startedAt: at, stoppedAt: at, errors: [] },
    }),
    checkStatusChanged: () => ({ type: 'checkStatusChanged', accountId: s.a.accountId, checkId, previous: null, current: 'PASSING', status: { checkId } }),
    alertNotified: () => ({ type: 'alertNotified', accountId: s.a.accountId, checkId, notification: { id: 1, status: 'SUCCESS' } }),
    testSessionUpdated: () => ({ type: 'testSessionUpdated', accountId: s.a.accountId, testSessionId: sessionId, testSession: { id: sessionId, status: 'PASSED' } }),
  } as const;

  /** Subscriptions by argument: the operation (with `$id`), the event it waits for, and the type and REST id `$id` names. */
  const SUBSCRIPTIONS: [string, { operation: string; event: keyof typeof EVENTS; type: string; restId: () => string }][] = [
    ['checkResultCreated(filter: {checkIds})', {
      operation: 'subscription($id: ID!) { checkResultCreated(filter: {checkIds: [$id]}) { checkId } }', event: 'checkResultCreated', type: 'Check', restId: () => checkId,
    }],
    ['checkResultCreated(filter: {group})', {
      operation: 'subscription($id: ID!) { checkResultCreated(filter: {group: $id}) { checkId } }', event: 'checkResultCreated', type: 'CheckGroup', restId: () => String(groupId),
    }],
    ['checkStatusChanged(checkIds)', {
      operation: 'subscription($id: ID!) { checkStatusChanged(checkIds: [$id]) { checkId } }', event: 'checkStatusChanged', type: 'Check', restId: () => checkId,
    }],
    ['alertNotified(checkIds)', {
      operation: 'subscription($id: ID!) { alertNotified(checkIds: [$id]) { checkId } }', event: 'alertNotified', type: 'Check', restId: () => checkId,
    }],
    ['testSessionUpdated(testSessionId)', {
      operation: 'subscription($id: ID!) { testSessionUpdated(testSessionId: $id) { testSessionId } }', event: 'testSessionUpdated', type: 'TestSession', restId: () => sessionId,
    }],
  ];

  it.each(SUBSCRIPTIONS)('%s: a subscription by global id and one by REST id receive the same event', async (_name, row) => {
    const byGlobalId = await subscribe(client, monitor(), row.operation, { id: globalId(row.type, row.restId()) });
    const byRestId = await subscribe(client, monitor(), row.operation, { id: row.restId().toUpperCase() });
    await s.lookout.bus.publish(EVENTS[row.event]() as never);
    const [one, other] = await Promise.all([byGlobalId.next(), byRestId.next()]);
    expect(one.errors).toBeUndefined();
    expect(other).toEqual(one);
    byGlobalId.dispose();
    byRestId.dispose();
  });

  /** The errors of the first answer to a subscription (null when it completed without one). */
  const firstErrors = (query: string, variables: Record<string, unknown>) => new Promise<unknown>((resolve) => {
    const dispose = client.subscribe({ query, variables }, {
      next: (v) => {
        dispose();
        resolve(v.errors);
      },
      error: resolve,
      complete: () => resolve(null),
    });
  });
  const badUserInput = [expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })];

  it.each(SUBSCRIPTIONS)('%s: an id that can be no id of its type is refused with BAD_USER_INPUT', async (_name, row) => {
    for (const id of ['garbage!', globalId(row.type === 'Check' ? 'CheckGroup' : 'Check', '1')]) {
      expect(await firstErrors(row.operation, { id })).toEqual(badUserInput);
    }
  });

  it('checkResultCreated(filter: {groupId}), deprecated, still takes the REST id and receives what filter: {group} does', async () => {
    const byGroup = await subscribe(client, monitor(), 'subscription($id: ID!) { checkResultCreated(filter: {group: $id}) { checkId } }', { id: String(groupId) });
    const byGroupId = await subscribe(client, monitor(), 'subscription($id: Int!) { checkResultCreated(filter: {groupId: $id}) { checkId } }', { id: groupId });
    const elsewhere = await subscribe(client, monitor(), 'subscription($id: Int!) { checkResultCreated(filter: {groupId: $id}) { checkId } }', { id: groupId + 1000 });
    await s.lookout.bus.publish(EVENTS.checkResultCreated() as never);
    const [one, other] = await Promise.all([byGroup.next(), byGroupId.next()]);
    expect(one.errors).toBeUndefined();
    expect(other).toEqual(one);
    // The filter of another group lets nothing through: the next event it sees is one of that group.
    await s.lookout.bus.publish({ ...EVENTS.checkResultCreated(), groupId: groupId + 1000, checkId: 'other' } as never);
    expect((await elsewhere.next()).data).toEqual({ checkResultCreated: { checkId: 'other' } });
    for (const sub of [byGroup, byGroupId, elsewhere]) sub.dispose();
  });

  it('checkResultCreated(filter: {group, groupId}) naming different groups is refused with BAD_USER_INPUT; the same group is fine', async () => {
    const operation = 'subscription($id: ID, $int: Int) { checkResultCreated(filter: {group: $id, groupId: $int}) { checkId } }';
    expect(await firstErrors(operation, { id: globalId('CheckGroup', groupId), int: groupId + 1 })).toEqual(badUserInput);
    const same = await subscribe(client, monitor(), operation, { id: globalId('CheckGroup', groupId), int: groupId });
    await s.lookout.bus.publish(EVENTS.checkResultCreated() as never);
    expect((await same.next()).errors).toBeUndefined();
    same.dispose();
  });
});
