import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertMessage } from '../../src/domain/alert-message.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
/** 2026-01-01T00:00:00Z, in UNIX seconds. */
const T0 = 1_767_225_600;
const at = (minutes: number) => new Date((T0 + minutes * 60) * 1000);
const unix = (minutes: number) => T0 + minutes * 60;

function expectError(res: TestResponse, status: number, key?: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
  if (key !== undefined) expect(res.body.validation.keys).toContain(key);
}

describe.each(BACKENDS)('alert routes on $name', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;
  let checkA1: Record<string, any>;
  let checkA2: Record<string, any>;
  let checkB: Record<string, any>;
  let channelA: number;
  let otherChannelA: number;
  let channelB: number;
  /** Alert ids of account a, oldest first. */
  const alertIds: string[] = [];
  /** Notification ids of account a, oldest first. */
  const notificationIds: string[] = [];

  const createCheck = async (client: TestClient, name: string) => {
    const res = await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', { name, request: { url: 'https://shop.test/' } });
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  const createChannel = async (client: TestClient) => {
    const res = await client.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: 'https://hooks.test/x' } });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  /** Stores an alert the way alerting does, with one attempt per channel given as [channel, status]. */
  const seed = async (client: TestClient, check: Record<string, any>, minutes: number, alertType: string, attempts: [number, 'SENT' | 'FAILED' | 'PENDING'][]) => {
    const store = server.lookout.store;
    const id = randomUUID();
    const payload = { alertType, checkId: check.id, checkName: check.name } as Partial<AlertMessage>;
    await store.checkAlerts.insert(client.accountId, {
      id, checkId: check.id, alertType, name: check.name, checkType: 'API', checkResultId: randomUUID(), runLocation: 'eu-west-1',
      responseTime: 120.5, statusCode: 503, error: 'HTTP 503', startedAt: at(minutes), isReminder: false, reminderSequence: null,
      sslDaysRemaining: null, payload, createdAt: at(minutes),
    });
    const ids: string[] = [];
    for (const [i, [channel, status]] of attempts.entries()) {
      const nid = randomUUID();
      await store.alertNotifications.insertPending(client.accountId, {
        id: nid, alertId: id, checkId: check.id, alertChannelId: channel, channelType: 'WEBHOOK', alertType, attempt: i + 1,
        createdAt: at(minutes), nextAttemptAt: at(minutes + 1),
      });
      if (status !== 'PENDING') {
        await store.alertNotifications.complete(client.accountId, nid, {
          status, error: status === 'FAILED' ? 'hooks.test answered HTTP 500' : null, responseStatus: status === 'FAILED' ? 500 : 200,
          notificationResult: 'ok', attemptedAt: at(minutes),
        });
      }
      ids.push(nid);
    }
    return { id, notificationIds: ids };
  };
  const snapshot = async () => ({
    alerts: await server.lookout.store.db.query('SELECT * FROM check_alerts ORDER BY id'),
    notifications: await server.lookout.store.db.query('SELECT * FROM alert_notifications ORDER BY id'),
  });

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ a, b } = server);
    checkA1 = await createCheck(a, 'Shop');
    checkA2 = await createCheck(a, 'Blog');
    checkB = await createCheck(b, 'Other');
    channelA = await createChannel(a);
    otherChannelA = await createChannel(a);
    channelB = await createChannel(b);
    for (const [minutes, check, type, attempts] of [
      [0, checkA1, 'ALERT_FAILURE', [[channelA, 'SENT'], [otherChannelA, 'FAILED']]],
      [10, checkA2, 'ALERT_DEGRADED', [[channelA, 'SENT']]],
      [20, checkA1, 'ALERT_RECOVERY', [[channelA, 'FAILED'], [channelA, 'PENDING']]],
    ] as const) {
      const seeded = await seed(a, check, minutes, type, attempts as unknown as [number, 'SENT' | 'FAILED' | 'PENDING'][]);
      alertIds.push(seeded.id);
      notificationIds.push(...seeded.notificationIds);
    }
    await seed(b, checkB, 5, 'ALERT_FAILURE', [[channelB, 'SENT']]);
  });
  afterAll(async () => server?.close());

  describe('GET /v1/check-alerts', () => {
    it('lists the account\'s alerts newest first in the documented shape, with the total in Content-Range', async () => {
      const res = await a.request('GET', '/v1/check-alerts');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-range')).toBe('0-2/3');
      expect(res.body.map((x: any) => x.id)).toEqual([...alertIds].reverse());
      expect(res.body[2]).toEqual({
        id: alertIds[0], name: 'Shop', checkId: checkA1.id, alertType: 'ALERT_FAILURE', checkType: 'API', checkResultId: expect.any(String),
        runLocation: 'eu-west-1', responseTime: 120.5, statusCode: 503, error: 'HTTP 503', isReminder: false, reminderSequence: null,
        sslDaysRemaining: null, startedAt: at(0).toISOString(), created_at: at(0).toISOString(),
      });
    });

    it('pages with limit and page', async () => {
      const res = await a.request('GET', '/v1/check-alerts?limit=2&page=2');
      expect(res.headers.get('content-range')).toBe('2-2/3');
      expect(res.body.map((x: any) => x.id)).toEqual([alertIds[0]]);
      const past = await a.request('GET', '/v1/check-alerts?limit=2&page=3');
      expect(past.body).toEqual([]);
      expect(past.headers.get('content-range')).toBe('*/3');
    });

    it('filters by from (inclusive), to (exclusive) and checkId', async () => {
      const window = await a.request('GET', `/v1/check-alerts?from=${unix(10)}&to=${unix(20)}`);
      expect(window.body.map((x: any) => x.id)).toEqual([alertIds[1]]);
      const byCheck = await a.request('GET', `/v1/check-alerts?checkId=${checkA1.id}`);
      expect(byCheck.body.map((x: any) => x.id)).toEqual([alertIds[2], alertIds[0]]);
      const otherAccountsCheck = await a.request('GET', `/v1/check-alerts?checkId=${checkB.id}`);
      expect(otherAccountsCheck.body).toEqual([]);
    });

    it('shows each account only its own alerts', async () => {
      const res = await b.request('GET', '/v1/check-alerts');
      expect(res.body.map((x: any) => x.checkId)).toEqual([checkB.id]);
    });
  });

  describe('GET /v1/check-alerts/{checkId}', () => {
    it('lists the alerts of one check, filtered by from and to', async () => {
      const res = await a.request('GET', `/v1/check-alerts/${checkA1.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-range')).toBe('0-1/2');
      expect(res.body.map((x: any) => x.alertType)).toEqual(['ALERT_RECOVERY', 'ALERT_FAILURE']);
      const late = await a.request('GET', `/v1/check-alerts/${checkA1.id}?from=${unix(1)}`);
      expect(late.body.map((x: any) => x.alertType)).toEqual(['ALERT_RECOVERY']);
    });

    it('answers an empty list for a check without alerts', async () => {
      const quiet = await createCheck(a, 'Quiet');
      const res = await a.request('GET', `/v1/check-alerts/${quiet.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get('content-range')).toBe('*/0');
    });
  });

  describe('GET /v1/alert-notifications', () => {
    it('lists every attempt newest first in the documented shape', async () => {
      const res = await a.request('GET', '/v1/alert-notifications?limit=100');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-range')).toBe('0-4/5');
      expect(res.body.map((n: any) => n.id)).toEqual([...notificationIds].reverse());
      expect(res.body[0]).toEqual({
        id: notificationIds[4], checkAlertId: alertIds[2], alertChannelId: channelA, type: 'WEBHOOK', alertType: 'ALERT_RECOVERY',
        checkId: checkA1.id, checkType: 'API', checkResultId: expect.any(String), status: 'PENDING', attempt: 2, error: null,
        responseStatus: null, notificationResult: null, timestamp: null, nextAttemptAt: at(21).toISOString(), created_at: at(20).toISOString(),
      });
      expect(res.body[4]).toMatchObject({ status: 'SENT', attempt: 1, responseStatus: 200, timestamp: at(0).toISOString(), nextAttemptAt: null });
    });

    it.each<[string, (ids: { channelA: number; otherChannelA: number; checkA2: string }) => string, number[]]>([
      ['alertChannelId', (x) => `alertChannelId=${x.otherChannelA}`, [1]],
      ['checkId', (x) => `checkId=${x.checkA2}`, [2]],
      ['status', () => 'status=FAILED', [3, 1]],
      ['hasFailures=true', () => 'hasFailures=true', [3, 1]],
      ['hasFailures=false', () => 'hasFailures=false', [4, 2, 0]],
      ['from and to', () => `from=${unix(10)}&to=${unix(20)}`, [2]],
      ['several filters together', (x) => `alertChannelId=${x.channelA}&status=SENT`, [2, 0]],
    ])('filters by %s', async (_label, query, expected) => {
      const res = await a.request('GET', `/v1/alert-notifications?limit=100&${query({ channelA, otherChannelA, checkA2: checkA2.id })}`);
      expect(res.status).toBe(200);
      expect(res.body.map((n: any) => n.id)).toEqual(expected.map((i) => notificationIds[i]));
    });

    it('shows each account only its own attempts, whatever it filters on', async () => {
      expect((await b.request('GET', '/v1/alert-notifications')).body.map((n: any) => n.alertChannelId)).toEqual([channelB]);
      expect((await b.request('GET', `/v1/alert-notifications?alertChannelId=${channelA}`)).body).toEqual([]);
      expect((await b.request('GET', `/v1/alert-notifications?checkId=${checkA1.id}`)).body).toEqual([]);
    });
  });

  describe('bad input', () => {
    const pageAndWindow: [string, string, string][] = [
      ['limit 0', 'limit=0', 'limit'],
      ['limit 101', 'limit=101', 'limit'],
      ['a limit that is a word', 'limit=ten', 'limit'],
      ['page 0', 'page=0', 'page'],
      ['a fractional page', 'page=1.5', 'page'],
      ['a negative from', 'from=-1', 'from'],
      ['a from that is a date string', 'from=2026-01-01', 'from'],
      ['a fractional to', 'to=1.5', 'to'],
      ['a to past the year 9999', 'to=999999999999', 'to'],
      ['from after to', `from=${unix(20)}&to=${unix(10)}`, 'from'],
      ['from equal to to', `from=${unix(10)}&to=${unix(10)}`, 'from'],
    ];

    it.each<[string, string, string]>([
      ...pageAndWindow,
      ['an alertChannelId of 0', 'alertChannelId=0', 'alertChannelId'],
      ['an alertChannelId that is a word', 'alertChannelId=abc', 'alertChannelId'],
      ['an alertChannelId above 2^31-1', 'alertChannelId=2147483648', 'alertChannelId'],
      ['a checkId that is not a UUID', 'checkId=shop', 'checkId'],
      ['an unknown status', 'status=DELIVERED', 'status'],
      ['a lower-case status', 'status=sent', 'status'],
      ['a hasFailures that is not a boolean', 'hasFailures=maybe', 'hasFailures'],
    ])('GET /v1/alert-notifications with %s answers 400 naming the key and writes nothing', async (_label, query, key) => {
      const before = await snapshot();
      expectError(await a.request('GET', `/v1/alert-notifications?${query}`), 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, string, string]>([
      ...pageAndWindow,
      ['a checkId that is not a UUID', 'checkId=42', 'checkId'],
    ])('GET /v1/check-alerts with %s answers 400 naming the key and writes nothing', async (_label, query, key) => {
      const before = await snapshot();
      expectError(await a.request('GET', `/v1/check-alerts?${query}`), 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, string, string]>([
      ...pageAndWindow,
      ['a path checkId that is not a UUID', '', 'checkId'],
    ])('GET /v1/check-alerts/{checkId} with %s answers 400 naming the key and writes nothing', async (label, query, key) => {
      const before = await snapshot();
      const checkId = label.startsWith('a path checkId') ? 'not-a-uuid' : checkA1.id;
      expectError(await a.request('GET', `/v1/check-alerts/${checkId}?${query}`), 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, () => string]>([
      ['an unknown check', () => UNKNOWN_UUID],
      ['another account\'s check', () => checkB.id],
    ])('GET /v1/check-alerts/{checkId} with %s answers 404 like an unknown id', async (_label, id) => {
      const before = await snapshot();
      expectError(await a.request('GET', `/v1/check-alerts/${id()}`), 404);
      expect(await snapshot()).toEqual(before);
    });

    it('answers 401 without a key', async () => {
      for (const path of ['/v1/alert-notifications', '/v1/check-alerts', `/v1/check-alerts/${checkA1.id}`]) {
        expectError(await server.raw('GET', path), 401);
      }
    });
  });

  it('documents the routes and their shapes in /openapi.json', async () => {
    const res = await server.raw('GET', '/openapi.json');
    const paths = res.body.paths as Record<string, any>;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/v1/alert-notifications', '/v1/check-alerts', '/v1/check-alerts/{checkId}']));
    // Answers are named components: the list, then its entries.
    const schemas = res.body.components.schemas as Record<string, any>;
    const named = (schema: { $ref: string }) => schemas[schema.$ref.replace('#/components/schemas/', '')];
    const item = named(named(paths['/v1/alert-notifications'].get.responses['200'].content['application/json'].schema).items);
    expect(Object.keys(item.properties)).toEqual(expect.arrayContaining(['status', 'attempt', 'alertChannelId', 'error', 'nextAttemptAt']));
  });
});
