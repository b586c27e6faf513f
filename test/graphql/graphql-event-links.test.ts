import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/events/lookout-event.js';
import { connectGraphqlWs, subscribe } from '../support/graphql-ws-client.js';
import { startSubscriptionLayer } from '../support/subscription-layer.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const params = (c: TestClient) => ({ authorization: `Bearer ${c.apiKey}`, accountId: c.accountId });

/** A result event as the run recorder publishes it (the REST result view whole). */
function resultEvent(accountId: string, check: { id: string; groupId: number | null }): EventOf<'checkResultCreated'> {
  const at = new Date().toISOString();
  return {
    type: 'checkResultCreated', accountId, checkId: check.id, groupId: check.groupId, tags: [],
    result: {
      id: crypto.randomUUID(), checkId: check.id, name: 'Checkout', checkType: 'API', resultType: 'FINAL', hasFailures: false, hasErrors: false,
      isDegraded: false, isCancelled: false, overMaxResponseTime: false, runLocation: 'eu-west-1', startedAt: at, stoppedAt: at,
      created_at: at, responseTime: 5, attempts: 1, sequenceId: crypto.randomUUID(), checkRunId: 1, errorGroupIds: [], errors: [],
    },
  };
}

/**
 * The REST requests the service receives while `during` runs, as `METHOD /path` (query left out): the
 * calls the GraphQL layer of the same process makes to it.
 */
async function restCallsDuring(s: TestServer, during: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const onRequest = (req: { method?: string; url?: string }) => {
    if (/^\/v[12]\//.test(req.url ?? '')) seen.push(`${req.method} ${req.url!.split('?')[0]}`);
  };
  const stop = s.onRequest(onRequest);
  try {
    await during();
  } finally {
    stop();
  }
  return seen.sort();
}

describe('links from subscription events into the graph', () => {
  let s: TestServer;
  let check: { id: string; groupId: number; name: string };
  let theirCheck: { id: string; groupId: null; name: string };
  const clients: Client[] = [];
  const monitor = () => s.lookout.graphqlSubscriptions!.monitor;
  const connect = async (c: TestClient) => {
    const client = await connectGraphqlWs(s.url, params(c));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    s = await startTestServer();
    const groupId = (await s.a.request('POST', '/v1/check-groups', { name: 'Shop' })).body.id;
    const api = (client: TestClient, extra: object) => client.request('POST', '/v1/checks/api', { locations: ['eu-west-1'], request: { url: 'https://shop.test/' }, ...extra });
    check = (await api(s.a, { name: 'Checkout', groupId })).body;
    theirCheck = (await api(s.b, { name: 'Their checkout' })).body;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await s?.close();
  });

  it('resolves a result event\'s check and its full result node, next to the payload fields it always had', async () => {
    const sub = await subscribe(await connect(s.a), monitor(), `subscription {
      checkResultCreated { checkId result { id } check { id name ... on ApiCheck { request { url } } group { name } } checkResult { id resultId checkId check { name } } }
    }`);
    const event = resultEvent(s.a.accountId, check);
    await s.lookout.bus.publish(event);
    const { data, errors } = await sub.next();
    expect(errors).toBeUndefined();
    expect(data.checkResultCreated).toEqual({
      checkId: check.id,
      result: { id: event.result.id },
      check: { id: Buffer.from(`Check:${check.id}`).toString('base64url'), name: 'Checkout', request: { url: 'https://shop.test/' }, group: { name: 'Shop' } },
      checkResult: {
        id: Buffer.from(`CheckResult:${check.id}:${event.result.id}`).toString('base64url'), resultId: event.result.id, checkId: check.id, check: { name: 'Checkout' },
      },
    });
    sub.dispose();
  });

  it('makes one REST call per kind for an event, however many subscribers of the account select it, and new calls for the next event', async () => {
    const [one, two] = await Promise.all([connect(s.a), connect(s.a)]);
    const same = 'subscription { checkResultCreated { check { name } } }';
    const subs = [
      // Identical subscriptions on two sockets share one execution.
      await subscribe(one, monitor(), same),
      await subscribe(two, monitor(), same),
      // Other selections execute apart, and still share the event's loaders: one checks call, one groups call, one statuses call.
      await subscribe(one, monitor(), 'subscription { checkResultCreated { checkResult { resultId check { checkId } } check { checkId group { name } } } }'),
      await subscribe(two, monitor(), 'subscription($id: ID!) { checkResultCreated(filter: {checkIds: [$id]}) { check { name status { checkId } } } }', { id: check.id }),
      await subscribe(two, monitor(), 'subscription { checkResultCreated { check { ... on ApiCheck { groupId group { checkGroupId: groupId } } } } }'),
    ];
    for (let event = 0; event < 2; event++) {
      const calls = await restCallsDuring(s, async () => {
        await s.lookout.bus.publish(resultEvent(s.a.accountId, check));
        const received = await Promise.all(subs.map((sub) => sub.next()));
        for (const r of received) expect(r.errors).toBeUndefined();
        expect(received[0]!.data.checkResultCreated.check).toEqual({ name: 'Checkout' });
        expect(received[2]!.data.checkResultCreated.check.group).toEqual({ name: 'Shop' });
      });
      // One key each: the item routes (a list route would also count its matches).
      expect(calls).toEqual([expect.stringMatching(/^GET \/v1\/check-groups\/\d+$/), 'GET /v1/check-statuses', `GET /v1/checks/${check.id}`]);
    }
    for (const sub of subs) sub.dispose();
  });

  it('resolves status, alert and test-session events into their typed nodes, the alert\'s check sharing the event\'s check call', async () => {
    const client = await connect(s.a);
    const statuses = await subscribe(client, monitor(), 'subscription { checkStatusChanged { current check { name } checkStatus { checkId health hasFailures } } }');
    const alerts = await subscribe(client, monitor(), `subscription {
      alertNotified { status check { name } alertNotification { notificationId alertType status attempt check { checkId } } }
    }`);
    const sessions = await subscribe(client, monitor(), 'subscription { testSessionUpdated { status session { testSessionId name status } } }');
    const at = new Date().toISOString();
    await s.lookout.bus.publish({
      type: 'checkStatusChanged', accountId: s.a.accountId, checkId: check.id, previous: 'PASSING', current: 'FAILING',
      status: { checkId: check.id, name: 'Checkout', hasFailures: true, hasErrors: false, isDegraded: false, created_at: at },
    });
    expect((await statuses.next()).data.checkStatusChanged).toEqual({
      current: 'FAILING', check: { name: 'Checkout' }, checkStatus: { checkId: check.id, health: 'FAILING', hasFailures: true },
    });
    const alertCalls = await restCallsDuring(s, async () => {
      await s.lookout.bus.publish({
        type: 'alertNotified', accountId: s.a.accountId, checkId: check.id,
        notification: { id: 7, checkAlertId: 'a1', alertChannelId: null, type: 'WEBHOOK', alertType: 'ALERT_FAILURE', checkId: check.id, checkType: 'API', status: 'SENT', attempt: 1, created_at: at },
      });
      expect((await alerts.next()).data.alertNotified).toEqual({
        status: 'SENT', check: { name: 'Checkout' }, alertNotification: { notificationId: '7', alertType: 'ALERT_FAILURE', status: 'SENT', attempt: 1, check: { checkId: check.id } },
      });
    });
    expect(alertCalls).toEqual([`GET /v1/checks/${check.id}`]);
    const sessionId = crypto.randomUUID();
    await s.lookout.bus.publish({ type: 'testSessionUpdated', accountId: s.a.accountId, testSessionId: sessionId, testSession: { id: sessionId, name: 'CI', status: 'PASSED' } });
    expect((await sessions.next()).data.testSessionUpdated).toEqual({ status: 'PASSED', session: { testSessionId: sessionId, name: 'CI', status: 'PASSED' } });
    for (const sub of [statuses, alerts, sessions]) sub.dispose();
  });

  it('keeps accounts apart: each account\'s links load with its own credentials, and never the other\'s check', async () => {
    const query = 'subscription { checkResultCreated { checkId check { name } } }';
    const [mine, theirs] = await Promise.all([subscribe(await connect(s.a), monitor(), query), subscribe(await connect(s.b), monitor(), query)]);
    await s.lookout.bus.publish(resultEvent(s.a.accountId, check));
    await s.lookout.bus.publish(resultEvent(s.b.accountId, theirCheck));
    // b's own event was published after a's: had a's reached b, it would have come first.
    expect((await theirs.next()).data.checkResultCreated).toEqual({ checkId: theirCheck.id, check: { name: 'Their checkout' } });
    expect((await mine.next()).data.checkResultCreated).toEqual({ checkId: check.id, check: { name: 'Checkout' } });
    // An event naming a check of another account (which the service never publishes) links to nothing.
    await s.lookout.bus.publish(resultEvent(s.a.accountId, { id: theirCheck.id, groupId: null }));
    expect((await mine.next()).data.checkResultCreated).toEqual({ checkId: theirCheck.id, check: null });
    mine.dispose();
    theirs.dispose();
  });

  it('answers BACKEND_UNAVAILABLE for the links, and the payload fields still, on a layer configured without REST access', async () => {
    const layer = await startSubscriptionLayer(s);
    try {
      const client = await connectGraphqlWs(layer.url, params(s.a));
      clients.push(client);
      const sub = await subscribe(client, layer.subscriptions.monitor, 'subscription { checkResultCreated { checkId check { name } } }');
      await s.lookout.bus.publish(resultEvent(s.a.accountId, check));
      const { data, errors } = await sub.next();
      expect(data.checkResultCreated).toEqual({ checkId: check.id, check: null });
      expect(errors).toEqual([expect.objectContaining({ path: ['checkResultCreated', 'check'], extensions: expect.objectContaining({ code: 'BACKEND_UNAVAILABLE' }) })]);
      sub.dispose();
    } finally {
      await layer.close();
    }
  });
});
