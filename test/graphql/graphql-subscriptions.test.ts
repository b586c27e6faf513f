import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createRestAuthenticator } from '../../src/graphql/subscriptions/create-rest-authenticator.js';
import { SLOW_CONSUMER_CLOSE_CODE, type SubscriptionServer } from '../../src/graphql/subscriptions/create-subscription-server.js';
import { createSubscriptionFanOut } from '../../src/graphql/subscriptions/subscription-fan-out.js';
import { matchesCheckResultFilter } from '../../src/graphql/subscriptions/subscription-resolvers.js';
import { createPushIterator } from '../../src/graphql/subscriptions/push-iterator.js';
import type { EventOf } from '../../src/events/lookout-event.js';
import { connectGraphqlWs, subscribe } from '../support/graphql-ws-client.js';
import { closedPort } from '../support/http-target.js';
import { gql } from '../support/graphql.js';
import { startSubscriptionLayer, type SubscriptionLayer } from '../support/subscription-layer.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const RESULTS = `subscription Results($filter: CheckResultFilter) {
  checkResultCreated(filter: $filter) {
    checkId groupId tags
    result { id checkId resultType hasFailures hasErrors isDegraded runLocation startedAt stoppedAt responseTime attempts sequenceId errorGroupIds errors { code message } }
  }
}`;

/** A target whose /ok answers 200 and /fail answers 500. */
async function startTarget(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.statusCode = req.url?.startsWith('/fail') ? 500 : 200;
    res.end(req.url?.startsWith('/fail') ? 'broken' : 'fine');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const apiCheck = (url: string, extra: Record<string, unknown> = {}) => ({
  name: `API ${url}`, locations: ['eu-west-1'], activated: true,
  request: { url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] }, ...extra,
});

const params = (c: TestClient) => ({ authorization: `Bearer ${c.apiKey}`, accountId: c.accountId });

/** A check result event as the runner publishes it, for tests about delivery rather than runs. */
function resultEvent(accountId: string, checkId: string, extra: Partial<EventOf<'checkResultCreated'>['result']> = {}): EventOf<'checkResultCreated'> {
  const at = new Date().toISOString();
  return {
    type: 'checkResultCreated', accountId, checkId, groupId: null, tags: [],
    result: {
      id: crypto.randomUUID(), checkId, name: 'synthetic', checkType: 'API', resultType: 'FINAL', hasFailures: false, hasErrors: false,
      isDegraded: false, isCancelled: false, overMaxResponseTime: false, runLocation: 'eu-west-1', startedAt: at, stoppedAt: at,
      created_at: at, responseTime: 5, attempts: 1, sequenceId: crypto.randomUUID(), checkRunId: 1, errorGroupIds: [], errors: [], ...extra,
    },
  };
}

/** Opens a raw graphql-ws socket (no client library) to drive the protocol by hand. */
async function rawSocket(url: string, protocol: string | null = 'graphql-transport-ws') {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, protocol ? [protocol] : []);
  const closed = once(ws, 'close').then(([code, reason]) => ({ code: code as number, reason: String(reason) }));
  const messages: any[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  await once(ws, 'open');
  return { ws, closed, messages, send: (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)) };
}

describe('GraphQL subscriptions over graphql-ws', () => {
  let s: TestServer;
  let target: { url: string; server: Server };
  let monitor: SubscriptionServer['monitor'];
  const clients: Client[] = [];
  const connect = async (c: TestClient) => {
    const client = await connectGraphqlWs(s.url, params(c));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer(), startTarget()]);
    monitor = s.lookout.graphqlSubscriptions!.monitor;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await s?.close();
    target?.server.close();
  });

  it('delivers the result of a real check run triggered through its trigger URL', async () => {
    const check = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`, { tags: ['live'] }))).body;
    const sub = await subscribe(await connect(s.a), monitor, RESULTS, { filter: { checkIds: [check.id] } });
    const token = (await s.a.request('POST', `/v1/triggers/checks/${check.id}`)).body.token;
    const run = await s.raw('POST', `/checks/${check.id}/trigger/${token}`);
    expect(run.status).toBe(200);

    const { data } = await sub.next();
    expect(data.checkResultCreated).toMatchObject({ checkId: check.id, groupId: null, tags: ['live'] });
    expect(data.checkResultCreated.result).toMatchObject({
      id: run.body.results[0].id, checkId: check.id, resultType: 'FINAL', hasFailures: false, hasErrors: false,
      runLocation: 'eu-west-1', attempts: run.body.results[0].attempts, sequenceId: run.body.results[0].sequenceId, errorGroupIds: [],
    });
    expect(data.checkResultCreated.result.startedAt).toBe(run.body.results[0].startedAt);
    sub.dispose();
  });

  it('narrows results by filter: a failing-only subscription skips the passing run published before the failing one', async () => {
    const ok = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`))).body;
    const bad = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/fail`))).body;
    const client = await connect(s.a);
    const failing = await subscribe(client, monitor, RESULTS, { filter: { checkIds: [ok.id, bad.id], hasFailures: true, resultType: 'FINAL' } });
    const onlyOk = await subscribe(client, monitor, RESULTS, { filter: { checkIds: [ok.id], locations: ['eu-west-1'] } });
    await s.lookout.runner.runNow(s.a.accountId, ok.id);
    await s.lookout.runner.runNow(s.a.accountId, bad.id);
    const first = (await failing.next()).data.checkResultCreated;
    expect(first.checkId).toBe(bad.id);
    expect(first.result.hasFailures).toBe(true);
    expect(first.result.errorGroupIds.length).toBeGreaterThan(0);
    expect((await onlyOk.next()).data.checkResultCreated.checkId).toBe(ok.id);
    failing.dispose();
    onlyOk.dispose();
  });

  it.each([
    ['no filter', null, true],
    ['a matching check id', { checkIds: ['c1'] }, true],
    ['another check id', { checkIds: ['c2'] }, false],
    ['the group', { groupId: 7 }, true],
    ['another group', { groupId: 8 }, false],
    ['one shared tag', { tags: ['x', 'prod'] }, true],
    ['no shared tag', { tags: ['x'] }, false],
    ['failures wanted', { hasFailures: true }, false],
    ['passes wanted', { hasFailures: false }, true],
    ['its location', { locations: ['eu-west-1'] }, true],
    ['another location', { locations: ['us-east-1'] }, false],
    ['FINAL results', { resultType: 'FINAL' }, true],
    ['ATTEMPT results', { resultType: 'ATTEMPT' }, false],
    ['every condition but one holding', { checkIds: ['c1'], groupId: 7, tags: ['prod'], resultType: 'ATTEMPT' }, false],
  ] as const)('matches a passing FINAL result of check c1 in group 7 tagged prod against %s: %s', (_name, filter, expected) => {
    const event = { ...resultEvent('acc', 'c1'), groupId: 7, tags: ['prod'] };
    expect(matchesCheckResultFilter(filter as never, event)).toBe(expected);
  });

  it('keeps accounts apart: b never receives a result of a, and a subscription names only its own account', async () => {
    const mine = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`))).body;
    const theirs = (await s.b.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`))).body;
    const bSub = await subscribe(await connect(s.b), monitor, RESULTS);
    const aSub = await subscribe(await connect(s.a), monitor, RESULTS);
    await s.lookout.runner.runNow(s.a.accountId, mine.id);
    await s.lookout.runner.runNow(s.b.accountId, theirs.id);
    // b's own run was published after a's: had a's reached b, it would have come first.
    expect((await bSub.next()).data.checkResultCreated.checkId).toBe(theirs.id);
    expect((await aSub.next()).data.checkResultCreated.checkId).toBe(mine.id);
    // A filter naming a's check from b's socket matches nothing of b's and never sees a's.
    const spy = await subscribe(await connect(s.b), monitor, RESULTS, { filter: { checkIds: [mine.id, theirs.id] } });
    await s.lookout.runner.runNow(s.a.accountId, mine.id);
    await s.lookout.runner.runNow(s.b.accountId, theirs.id);
    expect((await spy.next()).data.checkResultCreated.checkId).toBe(theirs.id);
    for (const sub of [aSub, bSub, spy]) sub.dispose();
  });

  it('executes and serializes identical subscriptions once per event, whatever their variables order', async () => {
    const checkId = crypto.randomUUID();
    const query = 'subscription Same($filter: CheckResultFilter) { checkResultCreated(filter: $filter) { checkId result { id } } }';
    const one = await subscribe(await connect(s.a), monitor, query, { filter: { checkIds: [checkId], resultType: 'FINAL' } });
    const two = await subscribe(await connect(s.a), monitor, query, { filter: { resultType: 'FINAL', checkIds: [checkId] } });
    // Same query from account b: a different shared subscription.
    const other = await subscribe(await connect(s.b), monitor, query, { filter: { checkIds: [checkId], resultType: 'FINAL' } });
    const executions: Array<[string, number]> = [];
    const count = (key: string, subscribers: number) => executions.push([key, subscribers]);
    monitor.on('execute', count);
    const event = resultEvent(s.a.accountId, checkId);
    await s.lookout.bus.publish(event);
    const [first, second] = await Promise.all([one.next(), two.next()]);
    monitor.off('execute', count);
    expect(first).toEqual({ data: { checkResultCreated: { checkId, result: { id: event.result.id } } } });
    expect(second).toEqual(first);
    const mine = executions.filter(([key]) => key.includes(s.a.accountId) && key.includes(checkId));
    expect(mine).toEqual([[mine[0]![0], 2]]);
    expect(executions.some(([key]) => key.includes(s.b.accountId))).toBe(false);
    for (const sub of [one, two, other]) sub.dispose();
  });

  it('streams test session updates and the results of test-session runs', async () => {
    const check = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/ok`, { tags: ['gql-session'] }))).body;
    const client = await connect(s.a);
    const sessions = await subscribe(client, monitor, 'subscription { testSessionUpdated { testSessionId status testSession } }');
    const results = await subscribe(client, monitor, RESULTS, { filter: { checkIds: [check.id] } });
    const session = (await s.a.request('POST', '/v1/test-sessions/trigger', { checkIds: [check.id] })).body;
    expect((await results.next()).data.checkResultCreated.result).toMatchObject({ checkId: check.id, hasFailures: false });
    const statuses: string[] = [];
    for (;;) {
      const update = (await sessions.next()).data.testSessionUpdated;
      expect(update.testSessionId).toBe(session.id);
      expect(update.testSession.id).toBe(session.id);
      statuses.push(update.status);
      if (update.status !== 'RUNNING') break;
    }
    expect(statuses.at(-1)).toBe('PASSED');
    sessions.dispose();
    results.dispose();
  });

  it('streams status changes of the listed checks only', async () => {
    const watched = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/fail`))).body;
    const ignored = (await s.a.request('POST', '/v1/checks/api', apiCheck(`${target.url}/fail`))).body;
    const sub = await subscribe(await connect(s.a), monitor, 'subscription($ids: [ID!]) { checkStatusChanged(checkIds: $ids) { checkId previous current status } }', { ids: [watched.id] });
    await s.lookout.runner.runNow(s.a.accountId, ignored.id);
    await s.lookout.runner.runNow(s.a.accountId, watched.id);
    const change = (await sub.next()).data.checkStatusChanged;
    expect(change).toMatchObject({ checkId: watched.id, previous: null, current: 'FAILING' });
    expect(change.status).toMatchObject({ checkId: watched.id, hasFailures: true });
    sub.dispose();
  });

  it('streams alert notifications of the listed checks', async () => {
    const checkId = crypto.randomUUID();
    const sub = await subscribe(await connect(s.a), monitor, 'subscription($ids: [ID!]) { alertNotified(checkIds: $ids) { checkId notificationId status notification } }', { ids: [checkId] });
    const notification = { id: 41, checkId, status: 'SUCCESS', type: 'WEBHOOK' };
    await s.lookout.bus.publish({ type: 'alertNotified', accountId: s.b.accountId, checkId, notification: { ...notification, id: 40 } });
    await s.lookout.bus.publish({ type: 'alertNotified', accountId: s.a.accountId, checkId: null, notification: { ...notification, id: 39 } });
    await s.lookout.bus.publish({ type: 'alertNotified', accountId: s.a.accountId, checkId, notification });
    expect((await sub.next()).data.alertNotified).toEqual({ checkId, notificationId: '41', status: 'SUCCESS', notification });
    sub.dispose();
  });

  it('answers queries sent over the socket through REST as the socket\'s account', async () => {
    const query = (client: Client) => new Promise<any>((resolve, reject) => {
      client.subscribe({ query: '{ viewer { accountId name } }' }, { next: resolve, error: reject, complete: () => {} });
    });
    expect(await query(await connect(s.a))).toEqual({ data: { viewer: { accountId: s.a.accountId, name: expect.any(String) } } });
    expect((await query(await connect(s.b))).data.viewer.accountId).toBe(s.b.accountId);
  });

  it.each([
    ['too many aliases', `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: viewer { name }`).join(' ')} }`, 'TOO_MANY_ALIASES'],
    ['too deep a query', `{ ${'checks(first: 1) { nodes { group { '.repeat(6)}name${' } } }'.repeat(6)} }`, 'QUERY_TOO_DEEP'],
    ['too costly a query', '{ checkGroups(first: 100) { nodes { checks(first: 100) { nodes { group { checks(first: 100) { nodes { name } } } } } } } }', 'QUERY_TOO_COSTLY'],
  ])('refuses %s over the socket as the HTTP endpoint does, before any REST call', async (_label, query, code) => {
    const client = await connect(s.a);
    const answer = await new Promise<any>((resolve) => {
      client.subscribe({ query }, { next: resolve, error: resolve, complete: () => {} });
    });
    expect(answer, JSON.stringify(answer)).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code }) })]);
    const http = await gql(s.a, query);
    expect(http.errors?.[0]?.extensions?.code).toBe(code);
  });

  it('answers a subscription with invalid arguments with an error, keeping the socket open', async () => {
    const client = await connect(s.a);
    // Variables that do not coerce make graphql-ws send one `next` with the errors, then `complete`.
    const answer = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: RESULTS, variables: { filter: { resultType: 'SOMETIMES' } } }, { next: resolve, error: resolve, complete: () => {} });
    });
    expect(answer).toMatchObject({ errors: [{ message: expect.stringContaining('SOMETIMES') }] });
    const sub = await subscribe(client, monitor, RESULTS);
    sub.dispose();
  });

  it.each([
    ['only a key: the key\'s own account', (t: TestServer) => ({ authorization: `Bearer ${t.a.apiKey}` }), 'a'],
    ['the legacy X-Checkly-Account header as a key', (t: TestServer) => ({ Authorization: `Bearer ${t.a.apiKey}`, 'X-Checkly-Account': t.a.accountId }), 'a'],
    ['x-lookout-account as a key', (t: TestServer) => ({ authorization: `Bearer ${t.b.apiKey}`, 'x-lookout-account': t.b.accountId }), 'b'],
  ] as const)('acknowledges connection_init with %s', async (_name, payload, account) => {
    const r = await rawSocket(s.url);
    r.send({ type: 'connection_init', payload: payload(s) });
    await new Promise<void>((resolve) => r.ws.once('message', () => resolve()));
    expect(r.messages[0]).toEqual({ type: 'connection_ack', payload: { accountId: s[account].accountId } });
    r.ws.close();
  });

  it('refuses a legacy account header naming another account with 4403', async () => {
    const r = await rawSocket(s.url);
    r.send({ type: 'connection_init', payload: { authorization: `Bearer ${s.a.apiKey}`, 'x-checkly-account': s.b.accountId } });
    expect((await r.closed).code).toBe(4403);
  });

  it.each([
    ['4400 for a message that is not graphql-ws', async (url: string) => {
      const r = await rawSocket(url);
      r.send('not json');
      return r.closed;
    }, 4400],
    ['4401 for a subscribe before connection_init was acknowledged', async (url: string) => {
      const r = await rawSocket(url);
      r.send({ id: '1', type: 'subscribe', payload: { query: RESULTS } });
      return r.closed;
    }, 4401],
    ['4403 for an unknown API key', async (url: string) => {
      const r = await rawSocket(url);
      r.send({ type: 'connection_init', payload: { authorization: 'Bearer not-a-key' } });
      return r.closed;
    }, 4403],
    ['4403 for no Authorization at all', async (url: string) => {
      const r = await rawSocket(url);
      r.send({ type: 'connection_init' });
      return r.closed;
    }, 4403],
    ['4403 for a key of account a naming account b', async (url: string, t: TestServer) => {
      const r = await rawSocket(url);
      r.send({ type: 'connection_init', payload: { authorization: `Bearer ${t.a.apiKey}`, accountId: t.b.accountId } });
      return r.closed;
    }, 4403],
    ['4406 for a socket without the graphql-transport-ws subprotocol', async (url: string) => (await rawSocket(url, null)).closed, 4406],
    ['4408 when connection_init never comes', async (url: string) => (await rawSocket(url)).closed, 4408],
    ['4409 for a second subscribe with an id in use', async (url: string, t: TestServer) => {
      const r = await rawSocket(url);
      r.send({ type: 'connection_init', payload: params(t.a) });
      await new Promise<void>((resolve) => r.ws.once('message', () => resolve()));
      expect(r.messages[0]).toEqual({ type: 'connection_ack', payload: { accountId: t.a.accountId } });
      r.send({ id: 'same', type: 'subscribe', payload: { query: RESULTS } });
      r.send({ id: 'same', type: 'subscribe', payload: { query: RESULTS } });
      return r.closed;
    }, 4409],
    ['4429 for a second connection_init', async (url: string, t: TestServer) => {
      const r = await rawSocket(url);
      r.send({ type: 'connection_init', payload: params(t.a) });
      r.send({ type: 'connection_init', payload: params(t.a) });
      return r.closed;
    }, 4429],
  ] as const)('closes the socket with %s', async (_name, run, code) => {
    const closed = await run(s.url, s);
    expect(closed.code).toBe(code);
  });

  it(`closes a socket that stops reading with ${SLOW_CONSUMER_CLOSE_CODE} (slow consumer) once its queue overflows`, async () => {
    const checkId = crypto.randomUUID();
    const r = await rawSocket(s.url);
    r.send({ type: 'connection_init', payload: params(s.a) });
    await new Promise<void>((resolve) => r.ws.once('message', () => resolve()));
    const live = once(monitor, 'subscribed');
    r.send({ id: 'slow', type: 'subscribe', payload: { query: RESULTS, variables: { filter: { checkIds: [checkId] } } } });
    await live;
    // A healthy subscriber of the same account keeps receiving while the slow one is dropped.
    const healthy = await subscribe(await connect(s.a), monitor, RESULTS, { filter: { checkIds: [checkId] } });
    r.ws.pause();
    let slow = false;
    monitor.once('slowConsumer', () => {
      slow = true;
    });
    const big = [{ code: 'ASSERTION_FAILED', message: 'x'.repeat(16 * 1024) }];
    let published = 0;
    while (!slow) {
      await s.lookout.bus.publish(resultEvent(s.a.accountId, checkId, { errors: big }));
      published++;
      // The healthy socket drains between batches; the paused one only fills.
      if (published % 20 === 0) for (let i = 0; i < 20; i++) await healthy.next();
    }
    r.ws.resume();
    const closed = await r.closed;
    expect(closed).toEqual({ code: SLOW_CONSUMER_CLOSE_CODE, reason: 'Slow consumer' });
    expect(r.messages.length).toBeLessThan(published);
    const last = resultEvent(s.a.accountId, checkId);
    await s.lookout.bus.publish(last);
    for (let i = published - (published % 20); i < published; i++) await healthy.next();
    expect((await healthy.next()).data.checkResultCreated.result.id).toBe(last.result.id);
    healthy.dispose();
  });
});

describe('GraphQL subscriptions in a layer apart from the service', () => {
  let s: TestServer;
  let layer: SubscriptionLayer;

  beforeAll(async () => {
    s = await startTestServer();
    layer = await startSubscriptionLayer(s, { maxSubscriptionsPerSocket: 2 });
  });
  afterAll(async () => {
    await layer?.close();
    await s?.close();
  });

  it('reads each account\'s events from the service\'s event stream and keeps accounts apart', async () => {
    const aClient = await connectGraphqlWs(layer.url, params(s.a));
    const bClient = await connectGraphqlWs(layer.url, params(s.b));
    const monitor = layer.subscriptions.monitor;
    const aSub = await subscribe(aClient, monitor, RESULTS);
    const bSub = await subscribe(bClient, monitor, RESULTS);
    const forA = resultEvent(s.a.accountId, crypto.randomUUID());
    const forB = resultEvent(s.b.accountId, crypto.randomUUID());
    await s.lookout.bus.publish(forA);
    await s.lookout.bus.publish(forB);
    expect((await aSub.next()).data.checkResultCreated.result.id).toBe(forA.result.id);
    expect((await bSub.next()).data.checkResultCreated.result.id).toBe(forB.result.id);
    await Promise.all([aClient.dispose(), bClient.dispose()]);
  });

  it('answers subscriptions beyond the per-socket limit with an error and keeps the others', async () => {
    const client = await connectGraphqlWs(layer.url, params(s.a));
    const monitor = layer.subscriptions.monitor;
    const first = await subscribe(client, monitor, RESULTS);
    const second = await subscribe(client, monitor, RESULTS, { filter: { hasFailures: true } });
    const refused = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: RESULTS }, { next: () => {}, error: resolve, complete: () => resolve(null) });
    });
    expect(refused).toMatchObject([{ message: expect.stringContaining('Too many subscriptions'), extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' } }]);
    const event = resultEvent(s.a.accountId, crypto.randomUUID());
    await s.lookout.bus.publish(event);
    expect((await first.next()).data.checkResultCreated.result.id).toBe(event.result.id);
    second.dispose();
    await client.dispose();
  });

  it('closes with 4500 when the backend cannot be reached to authenticate', async () => {
    const down = await startSubscriptionLayer(s, { authenticate: createRestAuthenticator(`http://127.0.0.1:${await closedPort()}`) });
    const r = await rawSocket(down.url);
    r.send({ type: 'connection_init', payload: params(s.a) });
    expect(await r.closed).toEqual({ code: 4500, reason: 'Internal server error' });
    await down.close();
  });

  it('refuses a key the service refuses with 4403', async () => {
    const error = await connectGraphqlWs(layer.url, { authorization: 'Bearer wrong' }).then(() => null, (e: { code?: number }) => e);
    expect(error?.code).toBe(4403);
  });
});

describe('the subscription fan-out', () => {
  it('shares one source among joiners of a key, stops it with the last, and gives back the budget of unsent messages', async () => {
    let starts = 0;
    let stopped = 0;
    const source = createPushIterator<any>(() => {
      stopped++;
    });
    const fanOut = createSubscriptionFanOut();
    const budget = { queued: 0, admit: (bytes: number) => ((budget.queued += bytes), true), release: (bytes: number) => void (budget.queued -= bytes) };
    const start = async () => {
      starts++;
      return source;
    };
    const one = (await fanOut.join('k', start, budget)) as AsyncIterableIterator<any>;
    const two = (await fanOut.join('k', start, budget)) as AsyncIterableIterator<any>;
    expect(starts).toBe(1);
    source.push({ data: { n: 1 } });
    source.push({ data: { n: 2 } });
    const firstOfOne = (await one.next()).value;
    const firstOfTwo = (await two.next()).value;
    const secondOfTwo = (await two.next()).value;
    // One execution and one serialization per event, the same object for every subscriber.
    expect(firstOfOne).toBe(firstOfTwo);
    expect(firstOfOne.json).toBe('{"data":{"n":1}}');
    expect(secondOfTwo.json).toBe('{"data":{"n":2}}');
    expect(fanOut.stats()).toMatchObject({ sharedSubscriptions: 1, subscribers: 2, executions: 2 });
    expect(budget.queued).toBe(4 * 16);
    // `one` stops with n2 still queued: its 16 bytes go back; taken ones are released by the socket once sent.
    await one.return!();
    expect(budget.queued).toBe(3 * 16);
    expect(stopped).toBe(0);
    await two.return!();
    expect(budget.queued).toBe(3 * 16);
    expect(stopped).toBe(1);
    expect(fanOut.stats()).toMatchObject({ sharedSubscriptions: 0, subscribers: 0 });
  });

  it('hands an operation that cannot start its errors, and starts afresh for the next joiner', async () => {
    const fanOut = createSubscriptionFanOut();
    const budget = { admit: () => true, release: () => {} };
    const failed = await fanOut.join('k', async () => ({ errors: [] as never[] }), budget);
    expect(failed).toEqual({ errors: [] });
    expect(fanOut.stats().sharedSubscriptions).toBe(0);
  });
});

describe('createRestAuthenticator', () => {
  let s: TestServer;
  let relay: { url: string; server: Server; calls: string[] };
  beforeAll(async () => {
    s = await startTestServer();
    // Counts the calls reaching the service, and passes them on unchanged.
    const calls: string[] = [];
    const server = createServer(async (req, res) => {
      calls.push(`${req.method} ${req.url}`);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k === 'authorization' || k.startsWith('x-')).map(([k, v]) => [k, String(v)]));
      const upstream = await fetch(s.url + req.url!, { headers });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' }).end(await upstream.text());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    relay = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, calls };
  });
  afterAll(async () => {
    relay?.server.close();
    await s?.close();
  });

  it('asks the service once for credentials it accepted, and every time for ones it refused', async () => {
    const authenticate = createRestAuthenticator(relay.url);
    const good = { authorization: `Bearer ${s.a.apiKey}`, 'x-lookout-account': s.a.accountId };
    expect(await authenticate(good)).toEqual({ accountId: s.a.accountId });
    expect(await authenticate({ ...good })).toEqual({ accountId: s.a.accountId });
    expect(await authenticate({ authorization: 'Bearer wrong' })).toBeNull();
    expect(await authenticate({ authorization: 'Bearer wrong' })).toBeNull();
    expect(await authenticate({ authorization: `Bearer ${s.a.apiKey}`, 'x-lookout-account': s.b.accountId })).toBeNull();
    expect(await authenticate({})).toBeNull();
    expect(relay.calls).toEqual(Array(4).fill('GET /v1/accounts/me'));
    await authenticate.close();
  });
});
