import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertMessage } from '../../src/domain/alert-message.js';
import { BACKENDS } from '../support/backends.js';
import { countRestRequests, gql } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** 2026-01-01T00:00:00Z. */
const T0 = Date.UTC(2026, 0, 1);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

describe.each(BACKENDS)('GraphQL alert notifications on $name', (backend) => {
  let s: TestServer;
  let shop: Record<string, any>;
  let blog: Record<string, any>;
  let hook: number;
  let mail: number;

  const createCheck = async (client: TestClient, name: string) =>
    (await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', { name, request: { url: 'https://shop.test/' } })).body;
  const createChannel = async (client: TestClient) =>
    (await client.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: 'https://hooks.test/x' } })).body.id as number;

  /** Stores an alert and its delivery attempts the way alerting does (alerting itself is tested in alerting.test.ts). */
  const seed = async (client: TestClient, check: Record<string, any>, minutes: number, attempts: [channel: number, status: 'SENT' | 'FAILED' | 'PENDING'][]) => {
    const store = s.lookout.store;
    const alertId = randomUUID();
    await store.checkAlerts.insert(client.accountId, {
      id: alertId, checkId: check.id, alertType: 'ALERT_FAILURE', name: check.name, checkType: 'API', checkResultId: randomUUID(), runLocation: 'eu-west-1',
      responseTime: 120, statusCode: 503, error: 'HTTP 503', startedAt: at(minutes), isReminder: false, reminderSequence: null,
      sslDaysRemaining: null, payload: { alertType: 'ALERT_FAILURE', checkId: check.id } as Partial<AlertMessage>, createdAt: at(minutes),
    });
    for (const [i, [channel, status]] of attempts.entries()) {
      const id = randomUUID();
      await store.alertNotifications.insertPending(client.accountId, {
        id, alertId, checkId: check.id, alertChannelId: channel, channelType: 'WEBHOOK', alertType: 'ALERT_FAILURE', attempt: i + 1,
        createdAt: at(minutes), nextAttemptAt: at(minutes + 1),
      });
      if (status !== 'PENDING') {
        await store.alertNotifications.complete(client.accountId, id, {
          status, error: status === 'FAILED' ? 'hooks.test answered HTTP 500' : null, responseStatus: status === 'FAILED' ? 500 : 200,
          notificationResult: 'ok', attemptedAt: at(minutes),
        });
      }
    }
  };

  beforeAll(async () => {
    s = await startTestServer({ backend });
    shop = await createCheck(s.a, 'Shop');
    blog = await createCheck(s.a, 'Blog');
    hook = await createChannel(s.a);
    mail = await createChannel(s.a);
    await seed(s.a, shop, 0, [[hook, 'FAILED'], [hook, 'SENT']]);
    await seed(s.a, blog, 10, [[mail, 'SENT']]);
    await seed(s.a, shop, 20, [[mail, 'PENDING']]);
  });
  afterAll(async () => s?.close());

  const NOTIFICATION = 'notificationId alertType channelType alertChannelId checkId checkType status attempt error responseStatus timestamp createdAt';

  it('lists the account\'s delivery attempts newest first, typed, with their check and channel', async () => {
    // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
    await gql(s.a, '{ __typename }');
    const counter = countRestRequests(s);
    const res = await gql(s.a, `{ alertNotifications(first: 10) { totalCount nodes { ${NOTIFICATION} check { name } alertChannel { alertChannelId } } } }`);
    counter.stop();
    expect(res.errors).toBeUndefined();
    const { totalCount, nodes } = res.data.alertNotifications;
    expect(totalCount).toBe(4);
    const rows = nodes.map((n: any) => [n.check.name, n.status, n.alertChannel.alertChannelId]);
    expect(rows.slice(0, 2)).toEqual([['Shop', 'PENDING', mail], ['Blog', 'SENT', mail]]);
    // The two attempts of the oldest alert were recorded at the same time: either order is newest first.
    expect(rows.slice(2)).toEqual(expect.arrayContaining([['Shop', 'SENT', hook], ['Shop', 'FAILED', hook]]));
    expect(nodes.find((n: any) => n.status === 'FAILED')).toMatchObject({
      alertType: 'ALERT_FAILURE', channelType: 'WEBHOOK', checkId: shop.id, checkType: 'API', attempt: 1,
      error: 'hooks.test answered HTTP 500', responseStatus: 500, createdAt: at(0).toISOString(),
    });
    // The list, then one batched call for the checks and one for the channels.
    expect(counter.count).toBe(3);
    expect(res.extensions?.cost?.restCalls).toBe(3);
  });

  it.each([
    ['status', '{ status: FAILED }', 1],
    ['hasFailures false', '{ hasFailures: false }', 3],
    ['from', `{ from: "${at(10).toISOString()}" }`, 2],
    ['to', `{ to: "${at(10).toISOString()}" }`, 2],
  ])('filters by %s', async (_what, filter, count) => {
    const res = await gql(s.a, `{ alertNotifications(filter: ${filter}) { totalCount } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.alertNotifications.totalCount).toBe(count);
  });

  it('narrows to one check or one channel, by global or REST id', async () => {
    const ids = await gql(s.a, `{ check(id: "${shop.id}") { id } alertChannel(id: "${mail}") { id } }`);
    const res = await gql(s.a, `query($check: ID!, $channel: ID!) {
      byCheck: alertNotifications(checkId: $check) { totalCount }
      byRestCheck: alertNotifications(checkId: "${blog.id}") { totalCount }
      byChannel: alertNotifications(alertChannelId: $channel) { totalCount }
      both: alertNotifications(checkId: $check, alertChannelId: $channel) { totalCount } }`,
    { check: ids.data.check.id, channel: ids.data.alertChannel.id });
    expect(res.data).toEqual({ byCheck: { totalCount: 3 }, byRestCheck: { totalCount: 1 }, byChannel: { totalCount: 2 }, both: { totalCount: 1 } });
  });

  it('lists the attempts of a check and of a channel from the check and the channel', async () => {
    const res = await gql(s.a, `{
      check(id: "${shop.id}") { alertNotifications(filter: { status: SENT }) { nodes { status alertChannelId } } }
      alertChannel(id: "${hook}") { notifications(first: 1) { totalCount pageInfo { hasNextPage } nodes { attempt } } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.check.alertNotifications.nodes).toEqual([{ status: 'SENT', alertChannelId: hook }]);
    expect(res.data.alertChannel.notifications).toEqual({ totalCount: 2, pageInfo: { hasNextPage: true }, nodes: [{ attempt: 2 }] });
  });

  it.each([
    ['a from that is not a date-time', '{ alertNotifications(filter: { from: "yesterday" }) { totalCount } }', 'BAD_USER_INPUT'],
    ['a page size over 100', '{ alertNotifications(first: 101) { totalCount } }', 'BAD_USER_INPUT'],
    ['a cursor that is not one', '{ alertNotifications(after: "zzz") { totalCount } }', 'BAD_USER_INPUT'],
  ])('refuses %s with a coded error', async (_what, query, code) => {
    const res = await gql(s.a, query);
    expect(res.errors?.[0]?.extensions?.code).toBe(code);
  });

  it('answers an id that names no check or channel with an empty list and no REST call', async () => {
    const res = await gql(s.a, '{ a: alertNotifications(checkId: "nope") { totalCount nodes { checkId } } b: alertNotifications(alertChannelId: "nope") { totalCount } }');
    expect(res.data).toEqual({ a: { totalCount: 0, nodes: [] }, b: { totalCount: 0 } });
    expect(res.extensions?.cost?.restCalls).toBe(0);
  });

  it("shows another account none of these attempts, even when it names this account's check", async () => {
    const res = await gql(s.b, `{ all: alertNotifications { totalCount } byCheck: alertNotifications(checkId: "${shop.id}") { totalCount } }`);
    expect(res.data).toEqual({ all: { totalCount: 0 }, byCheck: { totalCount: 0 } });
  });
});
