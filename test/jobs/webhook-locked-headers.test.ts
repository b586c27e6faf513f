import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hideLockedValues, joinLockedValues, keepLockedValues, missingValueIssues, splitLockedValues } from '../../src/domain/alert-channel-locked-entries.js';
import { SCRUBBED } from '../../src/domain/scrub-secrets.js';
import { createAlerting, type Alerting } from '../../src/jobs/alerting/create-alerting.js';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from '../support/http-receiver.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { createManualClock } from '../support/manual-clock.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

const TOKEN = 'Bearer s3cr3t-Token-0001';
const API_KEY = 'qp-s3cret-Key-0002';
const SECRETS = [TOKEN, API_KEY];

/** Headers and query parameters with one locked entry each. */
const ENTRIES = {
  headers: [{ key: 'Authorization', value: TOKEN, locked: true }, { key: 'X-Env', value: 'prod', locked: false }],
  queryParameters: [{ key: 'team', value: 'ops' }, { key: 'apikey', value: API_KEY, locked: true }],
};
/** The same entries as every read shows them. */
const READ_BACK = {
  headers: [{ key: 'Authorization', value: null, locked: true }, { key: 'X-Env', value: 'prod', locked: false }],
  queryParameters: [{ key: 'team', value: 'ops' }, { key: 'apikey', value: null, locked: true }],
};

function expectNoSecret(res: TestResponse): void {
  for (const secret of SECRETS) expect(res.text).not.toContain(secret);
}

describe('the rules of locked entries', () => {
  const stored = { headers: [{ key: 'Authorization', value: 'old', locked: true }, { key: 'X-A', value: 'a1' }, { key: 'X-A', value: 'a2' }] };
  type Headers = { key: string; value?: string | null; locked?: boolean }[];

  it.each<[string, Headers, Headers]>([
    ['keeps a locked value sent as null', [{ key: 'Authorization', value: null, locked: true }], [{ key: 'Authorization', value: 'old', locked: true }]],
    ['keeps a locked value left out', [{ key: 'Authorization', locked: true }], [{ key: 'Authorization', value: 'old', locked: true }]],
    ['finds a header by its name in any case', [{ key: 'AUTHORIZATION', value: null, locked: true }], [{ key: 'AUTHORIZATION', value: 'old', locked: true }]],
    ['takes a new value as sent', [{ key: 'Authorization', value: 'new', locked: true }], [{ key: 'Authorization', value: 'new', locked: true }]],
    ['keeps an unlocked value in sight when it gets locked without one', [{ key: 'X-A', value: null, locked: true }], [{ key: 'X-A', value: 'a1', locked: true }]],
    ['matches repeated keys in order', [{ key: 'X-A', value: 'mine' }, { key: 'X-A', locked: true }], [{ key: 'X-A', value: 'mine' }, { key: 'X-A', value: 'a2', locked: true }]],
    ['keeps nothing for an unlocked entry without value', [{ key: 'Authorization', value: null }], [{ key: 'Authorization', value: null }]],
    ['keeps nothing for a key not stored', [{ key: 'X-New', value: null, locked: true }], [{ key: 'X-New', value: null, locked: true }]],
  ])('%s', (_rule, headers, expected) => {
    expect(keepLockedValues('WEBHOOK', { headers }, stored).headers).toEqual(expected);
  });

  it('leaves input that is not a list of entries for validation to name', () => {
    expect(keepLockedValues('WEBHOOK', { headers: { a: 'b' }, queryParameters: [null, 'x'] }, stored)).toEqual({ headers: { a: 'b' }, queryParameters: [null, 'x'] });
  });

  it('splits locked values off a config by list and index, and joins them back', () => {
    const { config, values } = splitLockedValues('WEBHOOK', ENTRIES);
    expect(config).toEqual(READ_BACK);
    expect(values).toEqual({ 'headers.0': TOKEN, 'queryParameters.1': API_KEY });
    expect(joinLockedValues('WEBHOOK', config, values)).toEqual(ENTRIES);
    expect(hideLockedValues('WEBHOOK', ENTRIES)).toEqual(READ_BACK);
  });

  it('names each entry left without a value, locked or not', () => {
    expect(missingValueIssues('WEBHOOK', { headers: [{ key: 'A', value: null, locked: true }, { key: 'B', value: '' }], queryParameters: [{ key: 'q' }] }))
      .toEqual([
        { key: 'config.headers.0.value', message: expect.stringContaining('no stored value of "A" to keep') },
        { key: 'config.queryParameters.0.value', message: expect.stringContaining('only a locked entry may leave it out') },
      ]);
  });
});

describe.each(BACKENDS)('locked webhook headers and query parameters on $name', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let receiver: HttpReceiver;
  let target: HttpTarget;
  let recorder: ReturnType<typeof testRecorder>;
  let alerting: Alerting;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    a = server.a;
    [receiver, target] = await Promise.all([startHttpReceiver(), startHttpTarget()]);
  });
  afterAll(async () => {
    await Promise.all([receiver?.close(), target?.close()]);
    await server?.close();
  });
  beforeEach(() => {
    recorder = testRecorder(server.lookout.store);
    alerting = createAlerting({
      store: server.lookout.store, bus: recorder.bus, logger: pino({ level: 'silent' }), clock: createManualClock(), retryDelaysMs: [], timeoutMs: 5000,
    });
  });
  afterEach(async () => alerting?.close());

  /** A webhook channel calling a path of its own on the receiver. */
  const createHook = async (entries: Record<string, unknown> = ENTRIES, url?: string) => {
    const path = `/hook/${randomUUID()}`;
    const res = await a.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: url ?? `${receiver.url}${path}`, ...entries } });
    expect(res.status).toBe(201);
    return { id: res.body.id as number, path, created: res };
  };
  const put = (id: number, config: Record<string, unknown>) =>
    a.request('PUT', `/v1/alert-channels/${id}`, { config: { name: 'Hook', url: `${receiver.url}/unused`, ...config } });
  /** Fails a new check subscribed to the channel and waits for the alert's delivery. */
  const deliver = async (channelId: number): Promise<void> => {
    const check = await a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name: `Check ${randomUUID().slice(0, 8)}`, request: { url: 'https://shop.test/' }, useGlobalAlertSettings: false,
      alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 } },
      alertChannelSubscriptions: [{ alertChannelId: channelId, activated: true }],
    });
    expect(check.status).toBe(201);
    await recorder.record({ check: runnable(a, check.body), probe: probe({ hasFailures: true, errors: [{ code: 'ECONNREFUSED', message: 'refused' }] }) });
    await alerting.idle();
  };
  const delivered = async (channelId: number, path: string): Promise<ReceivedRequest> => {
    await deliver(channelId);
    const requests = await receiver.waitFor(path, 1);
    return requests[requests.length - 1]!;
  };
  const snapshot = () => server.lookout.store.db.query('SELECT id, data, secrets, masked_secrets, updated_at FROM alert_channels ORDER BY id');

  it('reads locked values back as null in the create answer, a read, the list and an update answer', async () => {
    const { id, created } = await createHook();
    const responses = [
      created,
      await a.request('GET', `/v1/alert-channels/${id}`),
      await a.request('GET', `/v1/alert-channels?ids=${id}`),
      await a.request('PUT', `/v1/alert-channels/${id}`, { sendDegraded: true }),
      await put(id, READ_BACK),
    ];
    for (const res of responses) {
      expect(res.status).toBeLessThan(300);
      const channel = Array.isArray(res.body) ? res.body[0] : res.body;
      expect(channel.config).toMatchObject(READ_BACK);
      expectNoSecret(res);
    }
  });

  it('delivers the real values of locked headers and query parameters', async () => {
    const { id, path } = await createHook();
    const req = await delivered(id, path);
    expect(req.headers.authorization).toBe(TOKEN);
    expect(req.headers['x-env']).toBe('prod');
    expect(req.query).toEqual({ team: 'ops', apikey: API_KEY });
  });

  it('keeps a locked value sent back as null or without value, found by its key', async () => {
    const { id } = await createHook();
    const path = `/hook/${randomUUID()}`;
    const res = await a.request('PUT', `/v1/alert-channels/${id}`, {
      config: {
        name: 'Hook', url: `${receiver.url}${path}`,
        // Reordered, a header name in another case, and one value left out rather than null.
        headers: [{ key: 'X-Env', value: 'prod', locked: false }, { key: 'authorization', value: null, locked: true }],
        queryParameters: [{ key: 'apikey', locked: true }, { key: 'team', value: 'ops' }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.config.headers).toEqual([{ key: 'X-Env', value: 'prod', locked: false }, { key: 'authorization', value: null, locked: true }]);
    expectNoSecret(res);
    const req = await delivered(id, path);
    expect(req.headers.authorization).toBe(TOKEN);
    expect(req.query).toEqual({ apikey: API_KEY, team: 'ops' });
  });

  it('keeps locked values through an update that sends no config', async () => {
    const { id, path } = await createHook();
    expect((await a.request('PUT', `/v1/alert-channels/${id}`, { sendRecovery: false })).status).toBe(200);
    const req = await delivered(id, path);
    expect(req.headers.authorization).toBe(TOKEN);
    expect(req.query.apikey).toBe(API_KEY);
  });

  it('replaces a locked value sent anew, and forgets an entry left out of its list', async () => {
    const { id } = await createHook();
    const path = `/hook/${randomUUID()}`;
    const res = await a.request('PUT', `/v1/alert-channels/${id}`, {
      config: { name: 'Hook', url: `${receiver.url}${path}`, headers: [{ key: 'Authorization', value: 'Bearer rotated-0003', locked: true }], queryParameters: [] },
    });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('rotated-0003');
    const req = await delivered(id, path);
    expect(req.headers.authorization).toBe('Bearer rotated-0003');
    expect(req.headers['x-env']).toBeUndefined();
    expect(req.query).toEqual({});

    // Gone means gone: locking the header again without a value has nothing to keep.
    const again = await put(id, { headers: [{ key: 'X-Env', value: null, locked: true }] });
    expect(again.status).toBe(400);
    expect(again.body.validation.keys).toContain('config.headers.0.value');
  });

  it('unlocks an entry only when its value is sent', async () => {
    const { id, path } = await createHook();
    const before = await snapshot();
    for (const unlocked of [{ key: 'Authorization', value: null, locked: false }, { key: 'Authorization' }]) {
      const res = await put(id, { headers: [unlocked] });
      expect(res.status).toBe(400);
      expect(res.body.validation.keys).toEqual(['config.headers.0.value']);
      expectNoSecret(res);
    }
    expect(await snapshot()).toEqual(before);

    const res = await a.request('PUT', `/v1/alert-channels/${id}`, {
      config: { name: 'Hook', url: `${receiver.url}${path}`, headers: [{ key: 'Authorization', value: 'Bearer public', locked: false }] },
    });
    expect(res.body.config.headers).toEqual([{ key: 'Authorization', value: 'Bearer public', locked: false }]);
    expect((await delivered(id, path)).headers.authorization).toBe('Bearer public');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a locked header created without a value', { headers: [{ key: 'Authorization', locked: true }] }, 'config.headers.0.value'],
    ['a locked header created with value null', { headers: [{ key: 'Authorization', value: null, locked: true }] }, 'config.headers.0.value'],
    ['a query parameter created without a value', { queryParameters: [{ key: 'team', value: 'ops' }, { key: 'apikey' }] }, 'config.queryParameters.1.value'],
  ])('answers %s with 400 naming its value and writes nothing', async (_label, entries, key) => {
    const before = await snapshot();
    const res = await a.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: `${receiver.url}/x`, ...entries } });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toEqual([key]);
    expect(await snapshot()).toEqual(before);
  });

  it('answers an update naming a new locked key without a value with 400, and keeps the stored channel', async () => {
    const { id } = await createHook();
    const before = await snapshot();
    const res = await put(id, { queryParameters: [{ key: 'apikey', value: null, locked: true }, { key: 'other', value: null, locked: true }] });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toEqual(['config.queryParameters.1.value']);
    expect(res.body.message).not.toContain(API_KEY);
    expect(await snapshot()).toEqual(before);
  });

  it('hides a locked value stored inside the config by an earlier version, and still delivers it', async () => {
    const path = `/hook/${randomUUID()}`;
    const id = await server.lookout.store.alertChannels.insert(a.accountId, 'WEBHOOK', {
      data: { config: { name: 'Old', url: `${receiver.url}${path}`, ...ENTRIES } }, secrets: {}, maskedSecrets: { webhookSecret: null },
    });
    const read = await a.request('GET', `/v1/alert-channels/${id}`);
    expect(read.body.config).toMatchObject(READ_BACK);
    expectNoSecret(read);
    expect((await put(id, { url: `${receiver.url}${path}`, ...READ_BACK })).status).toBe(200);
    const req = await delivered(id, path);
    expect(req.headers.authorization).toBe(TOKEN);
    expect(req.query.apikey).toBe(API_KEY);
  });

  it('keeps locked values out of what a receiver answered, as stored with the notification', async () => {
    // The echo route answers with the request it got: the locked header included.
    const { id } = await createHook(ENTRIES, `${target.http.url}/echo`);
    await deliver(id);
    const notifications = await a.request('GET', `/v1/alert-notifications?alertChannelId=${id}`);
    expect(notifications.status).toBe(200);
    expect(notifications.body[0]).toMatchObject({ status: 'SENT', notificationResult: expect.stringContaining(SCRUBBED) });
    expectNoSecret(notifications);
  });

  it('keeps a locked value through a GraphQL update that sends it back without a value', async () => {
    const { id } = await createHook();
    const path = `/hook/${randomUUID()}`;
    const res = await gql(a, `mutation($id: ID!, $input: WebhookAlertChannelInput!) {
      updateWebhookAlertChannel(id: $id, input: $input) {
        alertChannel { ... on WebhookAlertChannel { config { headers { key value locked } } } }
        userErrors { field message }
      }
    }`, {
      id: String(id),
      input: { config: { name: 'Hook', url: `${receiver.url}${path}`, headers: [{ key: 'Authorization', value: null, locked: true }, { key: 'X-Env', value: 'prod' }], queryParameters: [{ key: 'apikey', locked: true }] } },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateWebhookAlertChannel.userErrors).toEqual([]);
    expect(res.data.updateWebhookAlertChannel.alertChannel.config.headers).toEqual([{ key: 'Authorization', value: null, locked: true }, { key: 'X-Env', value: 'prod', locked: false }]);
    const req = await delivered(id, path);
    expect(req.headers.authorization).toBe(TOKEN);
    expect(req.query).toEqual({ apikey: API_KEY });
  });

  it('shows locked values as null through GraphQL, with locked true', async () => {
    const { id } = await createHook();
    const res = await a.request('POST', '/graphql', {
      query: `{ alertChannel(id: "${id}") { ... on WebhookAlertChannel { config { headers { key value locked } queryParameters { key value locked } } } } }`,
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.alertChannel.config).toEqual({
      headers: [{ key: 'Authorization', value: null, locked: true }, { key: 'X-Env', value: 'prod', locked: false }],
      queryParameters: [{ key: 'team', value: 'ops', locked: false }, { key: 'apikey', value: null, locked: true }],
    });
    expectNoSecret(res);
    const listed = await gql(a, '{ alertChannels(first: 100) { nodes { ... on WebhookAlertChannel { config { headers { value } queryParameters { value } } } } } }');
    expect(listed.errors).toBeUndefined();
    for (const secret of SECRETS) expect(JSON.stringify(listed.data)).not.toContain(secret);
  });
});
