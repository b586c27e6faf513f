import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_ID = 2_147_483_000;

const VALID_CONFIGS: Record<string, Record<string, unknown>> = {
  EMAIL: { address: 'ops@example.com' },
  SLACK: { url: 'https://hooks.slack.com/services/T0/B0/x', channel: '#alerts' },
  SLACK_APP: { channel: 'C0123456' },
  WEBHOOK: {
    name: 'Hook', url: 'https://example.com/hook', method: 'PUT', template: '{"title":"{{ALERT_TITLE}}"}',
    headers: [{ key: 'X-Env', value: 'prod', locked: false }], queryParameters: [], webhookType: 'WEBHOOK_MSTEAMS',
  },
  SMS: { name: 'On call', number: '+31612345678' },
  CALL: { name: 'On call', number: '+14155550100' },
  PAGERDUTY: { account: 'acme', serviceName: 'Web', serviceKey: 'pd-service-key-12345678' },
  OPSGENIE: { name: 'Genie', apiKey: 'opsgenie-api-key-abcdefgh', region: 'EU', priority: 'P2' },
};

/** Asserts the error body of conventions.md and, for 400s, that `key` is named. */
function expectError(res: TestResponse, status: number, key?: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  if (key !== undefined) expect(res.body.validation.keys).toContain(key);
}

describe.each(BACKENDS)('alert channels on $name', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ a, b } = server);
  });
  afterAll(async () => server?.close());

  const createChannel = async (client: TestClient, body: Record<string, unknown> = { type: 'EMAIL', config: { address: 'a@example.com' } }) => {
    const res = await client.request('POST', '/v1/alert-channels', body);
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  const createCheck = async (client: TestClient, name = 'Check', query = '?autoAssignAlerts=false') => {
    const res = await client.request('POST', `/v1/checks/api${query}`, { name, request: { url: 'https://example.com' } });
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  const createGroup = async (client: TestClient, name = 'Group') => {
    const res = await client.request('POST', '/v1/check-groups?autoAssignAlerts=false', { name });
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  /** Every stored channel and subscription of every account, secrets included. */
  const snapshot = async () => {
    const db = server.lookout.store.db;
    return {
      channels: await db.query('SELECT id, account_id, type, data, secrets, masked_secrets, updated_at FROM alert_channels ORDER BY id'),
      subscriptions: await db.query('SELECT * FROM alert_channel_subscriptions ORDER BY id'),
    };
  };

  describe('creating and reading', () => {
    it('creates an email channel with the documented defaults and reads it back', async () => {
      const created = await createChannel(a, { type: 'EMAIL', config: { address: 'ops@example.com' } });
      expect(created).toEqual({
        id: expect.any(Number), type: 'EMAIL', config: { address: 'ops@example.com' }, subscriptions: [],
        sendRecovery: true, sendFailure: true, sendDegraded: false, sslExpiry: false, sslExpiryThreshold: 30, autoSubscribe: false,
        created_at: expect.any(String), updated_at: null,
      });
      expect(new Date(created.created_at).toISOString()).toBe(created.created_at);
      const read = await a.request('GET', `/v1/alert-channels/${created.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created);
    });

    it.each(Object.entries(VALID_CONFIGS))('creates a %s channel and echoes its public config', async (type, config) => {
      const created = await createChannel(a, { type, config, sendDegraded: true, sslExpiry: true, sslExpiryThreshold: 7 });
      expect(created).toMatchObject({ type, sendDegraded: true, sslExpiry: true, sslExpiryThreshold: 7 });
      const { webhookSecret: _w, apiKey: _k, serviceKey: _s, ...publicPart } = config;
      expect(created.config).toMatchObject(publicPart);
    });

    it('treats null settings as not given, as clients that send every field do', async () => {
      const created = await createChannel(a, {
        type: 'EMAIL', config: { address: 'null@example.com' },
        sendRecovery: null, sendFailure: null, sendDegraded: null, sslExpiry: null, sslExpiryThreshold: null, autoSubscribe: null,
      });
      expect(created).toMatchObject({ sendRecovery: true, sendFailure: true, sendDegraded: false, sslExpiry: false, sslExpiryThreshold: 30, autoSubscribe: false });
    });

    it('defaults the webhook method to POST and accepts a template built from Handlebars blocks', async () => {
      const created = await createChannel(a, {
        type: 'WEBHOOK',
        config: { name: 'Hook', url: 'https://example.com/{{ENV}}', template: '{{#if IS_REMINDER}}again{{else}}{{ALERT_TITLE}}{{/if}}' },
      });
      expect(created.config).toMatchObject({ method: 'POST', url: 'https://example.com/{{ENV}}', webhookSecret: null });
    });

    it('creates a Slack app channel in the CLI\'s shape, config.slackChannels, and reads it back', async () => {
      const res = await a.request('POST', '/v1/alert-channels', { type: 'SLACK_APP', config: { slackChannels: ['#alerts', '@alice'] } });
      expect(res.status, res.text).toBe(201);
      expect((await a.request('GET', `/v1/alert-channels/${res.body.id}`)).body.config).toMatchObject({ slackChannels: ['#alerts', '@alice'] });
    });

    it('drops unknown keys from the channel and from its config', async () => {
      const created = await createChannel(a, { type: 'EMAIL', config: { address: 'x@example.com', extra: 1 }, name: 'ignored' });
      expect(created.config).toEqual({ address: 'x@example.com' });
      expect(created).not.toHaveProperty('name');
    });
  });

  describe('secrets', () => {
    const webhookSecret = 'whsec-0123456789-topsecret';
    const apiKey = 'genie-key-abcdef-0123-9876';
    const serviceKey = 'pagerduty-routing-key-4321';

    it('never reads back a webhook secret, an Opsgenie API key or a PagerDuty service key', async () => {
      const responses: TestResponse[] = [];
      const channels = [];
      for (const body of [
        { type: 'WEBHOOK', config: { name: 'Signed', url: 'https://example.com/s', webhookSecret } },
        { type: 'OPSGENIE', config: { name: 'Genie', apiKey, region: 'US', priority: 'P1' } },
        { type: 'PAGERDUTY', config: { serviceKey } },
      ]) {
        const res = await a.request('POST', '/v1/alert-channels', body);
        expect(res.status).toBe(201);
        responses.push(res);
        channels.push(res.body);
      }
      const [webhook, opsgenie, pagerduty] = channels;
      expect(webhook.config.webhookSecret).toBeNull();
      expect(opsgenie.config.apiKey).toBe(`********${apiKey.slice(-4)}`);
      expect(pagerduty.config.serviceKey).toBe(`********${serviceKey.slice(-4)}`);
      for (const ch of channels) {
        responses.push(await a.request('GET', `/v1/alert-channels/${ch.id}`));
        responses.push(await a.request('PUT', `/v1/alert-channels/${ch.id}`, { sendDegraded: true }));
      }
      responses.push(await a.request('GET', '/v1/alert-channels?limit=100'));
      const check = await createCheck(a, 'Subscribed everywhere', '');
      responses.push(await a.request('GET', `/v1/checks/${check.id}`));
      for (const res of responses) {
        expect(res.status).toBeLessThan(300);
        for (const secret of [webhookSecret, apiKey, serviceKey]) expect(res.text).not.toContain(secret);
      }
    });

    it('keeps a secret left out, sent masked or sent as null, replaces it with a new value, and clears a webhook secret sent as ""', async () => {
      const store = server.lookout.store;
      const genie = await createChannel(a, { type: 'OPSGENIE', config: { name: 'Genie', apiKey, region: 'US', priority: 'P1' } });
      const secretOf = async (id: number, field: string) => (await store.alertChannels.getWithSecrets(a.accountId, id))?.secrets[field];

      const masked = await a.request('PUT', `/v1/alert-channels/${genie.id}`, { config: { ...genie.config, priority: 'P3' } });
      expect(masked.status).toBe(200);
      expect(masked.body.config).toMatchObject({ priority: 'P3', apiKey: genie.config.apiKey });
      expect(await secretOf(genie.id, 'apiKey')).toBe(apiKey);

      const { apiKey: _omitted, ...withoutKey } = genie.config;
      expect((await a.request('PUT', `/v1/alert-channels/${genie.id}`, { config: withoutKey })).status).toBe(200);
      expect(await secretOf(genie.id, 'apiKey')).toBe(apiKey);

      const replaced = await a.request('PUT', `/v1/alert-channels/${genie.id}`, { config: { ...withoutKey, apiKey: 'brand-new-key-WXYZ' } });
      expect(replaced.body.config.apiKey).toBe('********WXYZ');
      expect(await secretOf(genie.id, 'apiKey')).toBe('brand-new-key-WXYZ');

      const hook = await createChannel(a, { type: 'WEBHOOK', config: { name: 'Signed', url: 'https://example.com/s', webhookSecret } });
      const { webhookSecret: _null, ...hookConfig } = hook.config;
      expect((await a.request('PUT', `/v1/alert-channels/${hook.id}`, { config: { ...hookConfig, name: 'Renamed' } })).status).toBe(200);
      expect(await secretOf(hook.id, 'webhookSecret')).toBe(webhookSecret);
      expect((await a.request('PUT', `/v1/alert-channels/${hook.id}`, { config: { ...hookConfig, webhookSecret: null } })).status).toBe(200);
      expect(await secretOf(hook.id, 'webhookSecret')).toBe(webhookSecret);
      const cleared = await a.request('PUT', `/v1/alert-channels/${hook.id}`, { config: { ...hookConfig, webhookSecret: '' } });
      expect(cleared.status).toBe(200);
      expect(cleared.body.config.webhookSecret).toBeNull();
      expect(await secretOf(hook.id, 'webhookSecret')).toBeUndefined();
    });

    it('hands the raw secrets to internal callers through getWithSecrets, and only in the account that owns the channel', async () => {
      const hook = await createChannel(a, { type: 'WEBHOOK', config: { name: 'Signed', url: 'https://example.com/s', webhookSecret } });
      const store = server.lookout.store;
      const row = await store.alertChannels.getWithSecrets(a.accountId, hook.id);
      expect(row).toMatchObject({ id: hook.id, type: 'WEBHOOK', secrets: { webhookSecret }, data: { config: { name: 'Signed' } } });
      expect(row!.data.config).not.toHaveProperty('webhookSecret');
      expect(await store.alertChannels.getWithSecrets(b.accountId, hook.id)).toBeUndefined();
      expect(await store.alertChannels.get(a.accountId, hook.id)).not.toHaveProperty('secrets');
    });
  });

  describe('updating, listing and deleting', () => {
    it('merges an update: fields left out keep their values', async () => {
      const created = await createChannel(a, { type: 'SLACK', config: { url: 'https://hooks.slack.com/x', channel: '#a' }, sendDegraded: true });
      const res = await a.request('PUT', `/v1/alert-channels/${created.id}`, { type: 'SLACK', sendRecovery: false, sslExpiryThreshold: 14 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: created.id, type: 'SLACK', config: created.config, sendRecovery: false, sendDegraded: true, sslExpiryThreshold: 14,
        created_at: created.created_at, updated_at: expect.any(String),
      });
      expect((await a.request('GET', `/v1/alert-channels/${created.id}`)).body).toEqual(res.body);
    });

    it('merges a config sent over the stored one key by key', async () => {
      const created = await createChannel(a, { type: 'SLACK', config: { url: 'https://hooks.slack.com/x', channel: '#a' } });
      const res = await a.request('PUT', `/v1/alert-channels/${created.id}`, { config: { url: 'https://hooks.slack.com/y' } });
      expect(res.body.config).toEqual({ url: 'https://hooks.slack.com/y', channel: '#a' });
    });

    it('lists channels a page at a time with the total in Content-Range', async () => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await createChannel(a)).id);
      const page2 = await a.request('GET', `/v1/alert-channels?ids=${ids.join(',')}&limit=2&page=2`);
      expect(page2.status).toBe(200);
      expect(page2.headers.get('content-range')).toBe('2-2/3');
      expect(page2.body.map((c: { id: number }) => c.id)).toEqual([ids[2]]);
      const past = await a.request('GET', `/v1/alert-channels?ids=${ids.join(',')}&limit=2&page=3`);
      expect(past.body).toEqual([]);
      expect(past.headers.get('content-range')).toBe('*/3');
      const all = await a.request('GET', '/v1/alert-channels');
      const total = Number(all.headers.get('content-range')!.split('/')[1]);
      expect(all.body).toHaveLength(Math.min(10, total));
    });

    it('filters the list by ids given comma-separated or repeated', async () => {
      const [x, y, z] = [await createChannel(a), await createChannel(a), await createChannel(a)];
      const comma = await a.request('GET', `/v1/alert-channels?ids=${x.id},${z.id}`);
      expect(comma.body.map((c: { id: number }) => c.id)).toEqual([x.id, z.id]);
      const repeated = await a.request('GET', `/v1/alert-channels?ids=${y.id}&ids=${z.id}`);
      expect(repeated.body.map((c: { id: number }) => c.id)).toEqual([y.id, z.id]);
    });

    it('deletes a channel together with its subscriptions', async () => {
      const channel = await createChannel(a);
      const check = await createCheck(a);
      expect((await a.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, { checkId: check.id, activated: true })).status).toBe(200);
      const res = await a.request('DELETE', `/v1/alert-channels/${channel.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectError(await a.request('GET', `/v1/alert-channels/${channel.id}`), 404);
      expect((await a.request('GET', `/v1/checks/${check.id}`)).body.alertChannelSubscriptions).toEqual([]);
    });
  });

  describe('subscriptions', () => {
    it('subscribes a check given as one object, visible on the channel and on the check', async () => {
      const channel = await createChannel(a);
      const check = await createCheck(a);
      const res = await a.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, { checkId: check.id, activated: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: expect.any(Number), checkId: check.id, groupId: null, activated: true });
      expect((await a.request('GET', `/v1/alert-channels/${channel.id}`)).body.subscriptions).toEqual([res.body]);
      expect((await a.request('GET', `/v1/checks/${check.id}`)).body.alertChannelSubscriptions).toEqual([{ alertChannelId: channel.id, activated: true }]);
    });

    it('upserts a list of check and group subscriptions, and deactivating keeps the subscription', async () => {
      const channel = await createChannel(a);
      const check = await createCheck(a);
      const group = await createGroup(a);
      const first = await a.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, [
        { checkId: check.id, activated: true },
        { groupId: group.id, activated: true },
      ]);
      expect(first.status).toBe(200);
      expect(first.body).toEqual([
        { id: expect.any(Number), checkId: check.id, groupId: null, activated: true },
        { id: expect.any(Number), checkId: null, groupId: group.id, activated: true },
      ]);
      const second = await a.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, [{ checkId: check.id, groupId: null, activated: false }]);
      expect(second.body).toEqual([{ ...first.body[0], activated: false }]);
      const read = await a.request('GET', `/v1/alert-channels/${channel.id}`);
      expect(read.body.subscriptions).toEqual([{ ...first.body[0], activated: false }, first.body[1]]);
      expect((await a.request('GET', `/v1/checks/${check.id}`)).body.alertChannelSubscriptions).toEqual([{ alertChannelId: channel.id, activated: false }]);
      expect((await a.request('GET', `/v1/check-groups/${group.id}`)).body.alertChannelSubscriptions).toEqual([{ alertChannelId: channel.id, activated: true }]);
    });

    it('accepts an empty list and changes nothing', async () => {
      const channel = await createChannel(a);
      const res = await a.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, []);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('subscribes a new check to an autoSubscribe channel, but not to other channels when autoAssignAlerts is false', async () => {
      const auto = await createChannel(a, { type: 'EMAIL', config: { address: 'auto@example.com' }, autoSubscribe: true });
      const plain = await createChannel(a);
      const check = await createCheck(a, 'New check', '?autoAssignAlerts=false');
      const subs = (await a.request('GET', `/v1/checks/${check.id}`)).body.alertChannelSubscriptions as { alertChannelId: number }[];
      expect(subs).toContainEqual({ alertChannelId: auto.id, activated: true });
      expect(subs.map((s) => s.alertChannelId)).not.toContain(plain.id);
      expect((await a.request('GET', `/v1/alert-channels/${auto.id}`)).body.subscriptions).toContainEqual(
        { id: expect.any(Number), checkId: check.id, groupId: null, activated: true },
      );
    });

    it('subscribes a new check to every channel when autoAssignAlerts is left at its default', async () => {
      const plain = await createChannel(a);
      const check = await createCheck(a, 'Default assign', '');
      const subs = (await a.request('GET', `/v1/checks/${check.id}`)).body.alertChannelSubscriptions;
      expect(subs).toContainEqual({ alertChannelId: plain.id, activated: true });
    });
  });

  describe('account isolation', () => {
    it('hides one account\'s channels from another: read, list, update, delete and subscribe answer 404', async () => {
      const channel = await createChannel(a);
      const before = await snapshot();
      expectError(await b.request('GET', `/v1/alert-channels/${channel.id}`), 404);
      expectError(await b.request('PUT', `/v1/alert-channels/${channel.id}`, { sendDegraded: true }), 404);
      expectError(await b.request('DELETE', `/v1/alert-channels/${channel.id}`), 404);
      const bCheck = await createCheck(b);
      expectError(await b.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, { checkId: bCheck.id, activated: true }), 404);
      const list = await b.request('GET', `/v1/alert-channels?ids=${channel.id}`);
      expect(list.body).toEqual([]);
      expect(list.headers.get('content-range')).toBe('*/0');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses to subscribe another account\'s check or group to a channel', async () => {
      const channel = await createChannel(b);
      const aCheck = await createCheck(a);
      const aGroup = await createGroup(a);
      const before = await snapshot();
      expectError(await b.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, { checkId: aCheck.id, activated: true }), 400, 'checkId');
      expectError(await b.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, [{ groupId: aGroup.id, activated: true }]), 400, '0.groupId');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('bad input', () => {
    const email = { address: 'ok@example.com' };
    it.each<[string, unknown, string]>([
      ['no type', { config: email }, 'type'],
      ['an unknown type', { type: 'TELEGRAM', config: email }, 'type'],
      ['no config', { type: 'EMAIL' }, 'config'],
      ['a config that is a string', { type: 'EMAIL', config: 'ops@example.com' }, 'config'],
      ['a string for sendRecovery', { type: 'EMAIL', config: email, sendRecovery: 'yes' }, 'sendRecovery'],
      ['sslExpiryThreshold 0', { type: 'EMAIL', config: email, sslExpiryThreshold: 0 }, 'sslExpiryThreshold'],
      ['sslExpiryThreshold 31', { type: 'EMAIL', config: email, sslExpiryThreshold: 31 }, 'sslExpiryThreshold'],
      ['a fractional sslExpiryThreshold', { type: 'EMAIL', config: email, sslExpiryThreshold: 1.5 }, 'sslExpiryThreshold'],
      ['an email address that is not one', { type: 'EMAIL', config: { address: 'not-an-email' } }, 'config.address'],
      ['an email config without address', { type: 'EMAIL', config: {} }, 'config.address'],
      ['a Slack URL that is not http(s)', { type: 'SLACK', config: { url: 'ftp://hooks.slack.com/x' } }, 'config.url'],
      ['a Slack URL that is not a URL', { type: 'SLACK', config: { url: 'hooks' } }, 'config.url'],
      ['a Slack app config without channel', { type: 'SLACK_APP', config: {} }, 'config.slackChannels'],
      ['a Slack app config with an empty channel list', { type: 'SLACK_APP', config: { slackChannels: [] } }, 'config.slackChannels'],
      ['a webhook without url', { type: 'WEBHOOK', config: { name: 'H' } }, 'config.url'],
      ['a webhook without name', { type: 'WEBHOOK', config: { url: 'https://example.com' } }, 'config.name'],
      ['a webhook URL that is not http(s)', { type: 'WEBHOOK', config: { name: 'H', url: 'mailto:x@example.com' } }, 'config.url'],
      ['an unknown webhook method', { type: 'WEBHOOK', config: { name: 'H', url: 'https://example.com', method: 'TRACE' } }, 'config.method'],
      ['a webhook template that does not compile', { type: 'WEBHOOK', config: { name: 'H', url: 'https://example.com', template: '{{#if x}}open' } }, 'config.template'],
      ['webhook headers that are not a list', { type: 'WEBHOOK', config: { name: 'H', url: 'https://example.com', headers: { a: 'b' } } }, 'config.headers'],
      ['a webhook header without value', { type: 'WEBHOOK', config: { name: 'H', url: 'https://example.com', headers: [{ key: 'a' }] } }, 'config.headers.0.value'],
      ['a numeric webhook secret', { type: 'WEBHOOK', config: { name: 'H', url: 'https://example.com', webhookSecret: 42 } }, 'config.webhookSecret'],
      ['an SMS number without country code', { type: 'SMS', config: { name: 'S', number: '0612345678' } }, 'config.number'],
      ['an SMS number with letters', { type: 'SMS', config: { name: 'S', number: '+31abc' } }, 'config.number'],
      ['a call number that is too long', { type: 'CALL', config: { name: 'C', number: '+1234567890123456' } }, 'config.number'],
      ['a call config without name', { type: 'CALL', config: { number: '+31612345678' } }, 'config.name'],
      ['a PagerDuty config without serviceKey', { type: 'PAGERDUTY', config: { account: 'x' } }, 'config.serviceKey'],
      ['an Opsgenie region that does not exist', { type: 'OPSGENIE', config: { name: 'G', apiKey: 'k', region: 'ASIA', priority: 'P1' } }, 'config.region'],
      ['an Opsgenie priority that does not exist', { type: 'OPSGENIE', config: { name: 'G', apiKey: 'k', region: 'EU', priority: 'P6' } }, 'config.priority'],
      ['an Opsgenie config without apiKey', { type: 'OPSGENIE', config: { name: 'G', region: 'EU', priority: 'P1' } }, 'config.apiKey'],
      ['a body that is a list', [{ type: 'EMAIL', config: email }], '(root)'],
    ])('POST /v1/alert-channels with %s answers 400 naming the key and writes nothing', async (_label, body, key) => {
      const before = await snapshot();
      expectError(await a.request('POST', '/v1/alert-channels', body), 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it('POST /v1/alert-channels with a body that is not JSON answers 400 and writes nothing', async () => {
      const before = await snapshot();
      expectError(await a.request('POST', '/v1/alert-channels', '{"type":'), 400);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, unknown, string]>([
      ['another type', { type: 'SLACK' }, 'type'],
      ['an unknown type', { type: 'FAX' }, 'type'],
      ['an invalid config for the type', { config: { address: 'nope' } }, 'config.address'],
      ['an address of the wrong type', { config: { address: 5 } }, 'config.address'],
      ['a string for sslExpiry', { sslExpiry: 'true' }, 'sslExpiry'],
      ['sslExpiryThreshold 100', { sslExpiryThreshold: 100 }, 'sslExpiryThreshold'],
      ['a number for autoSubscribe', { autoSubscribe: 1 }, 'autoSubscribe'],
    ])('PUT /v1/alert-channels/{id} with %s answers 400 naming the key and writes nothing', async (_label, body, key) => {
      const channel = await createChannel(a);
      const before = await snapshot();
      expectError(await a.request('PUT', `/v1/alert-channels/${channel.id}`, body), 400, key);
      expect(await snapshot()).toEqual(before);
    });

    it('PUT /v1/alert-channels/{id} keeps a required secret sent as null, and refuses one of the wrong type', async () => {
      const genie = await createChannel(a, { type: 'OPSGENIE', config: VALID_CONFIGS.OPSGENIE });
      const kept = await a.request('PUT', `/v1/alert-channels/${genie.id}`, { config: { ...genie.config, apiKey: null } });
      expect(kept.status).toBe(200);
      expect(kept.body.config.apiKey).toBe(genie.config.apiKey);
      expectError(await a.request('PUT', `/v1/alert-channels/${genie.id}`, { config: { ...genie.config, apiKey: 7 } }), 400, 'config.apiKey');
      expect((await a.request('GET', `/v1/alert-channels/${genie.id}`)).body.config).toEqual(genie.config);
    });

    const badIds: [string, string][] = [['a word', 'abc'], ['zero', '0'], ['a negative id', '-1'], ['an id above 2^31-1', '2147483648'], ['a fraction', '1.5']];
    it.each(badIds)('GET, PUT and DELETE /v1/alert-channels/{id} with %s answer 400 naming id', async (_label, id) => {
      const before = await snapshot();
      expectError(await a.request('GET', `/v1/alert-channels/${id}`), 400, 'id');
      expectError(await a.request('PUT', `/v1/alert-channels/${id}`, { sendDegraded: true }), 400, 'id');
      expectError(await a.request('DELETE', `/v1/alert-channels/${id}`), 400, 'id');
      expectError(await a.request('PUT', `/v1/alert-channels/${id}/subscriptions`, { checkId: UNKNOWN_UUID, activated: true }), 400, 'id');
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, 'unknown' | 'other account']>([['an unknown id', 'unknown'], ['another account\'s id', 'other account']])(
      'GET, PUT and DELETE /v1/alert-channels/{id} with %s answer 404 and write nothing',
      async (_label, which) => {
        const id = which === 'unknown' ? UNKNOWN_ID : (await createChannel(b)).id;
        const check = await createCheck(a);
        const before = await snapshot();
        expectError(await a.request('GET', `/v1/alert-channels/${id}`), 404);
        expectError(await a.request('PUT', `/v1/alert-channels/${id}`, { sendDegraded: true }), 404);
        expectError(await a.request('DELETE', `/v1/alert-channels/${id}`), 404);
        expectError(await a.request('PUT', `/v1/alert-channels/${id}/subscriptions`, { checkId: check.id, activated: true }), 404);
        expect(await snapshot()).toEqual(before);
      },
    );

    it.each<[string, string, string]>([
      ['page 0', 'page=0', 'page'],
      ['limit 0', 'limit=0', 'limit'],
      ['limit 101', 'limit=101', 'limit'],
      ['a word for page', 'page=first', 'page'],
      ['an id that is a word', 'ids=abc', 'ids.0'],
      ['an id of zero', 'ids=1,0', 'ids.1'],
    ])('GET /v1/alert-channels with %s answers 400 naming the key', async (_label, query, key) => {
      const res = await a.request('GET', `/v1/alert-channels?${query}`);
      expectError(res, 400, key);
      expect(res.body.validation.source).toBe('query');
    });

    it.each<[string, (ids: { check: string; group: number }) => unknown, string]>([
      ['neither checkId nor groupId', () => ({ activated: true }), 'checkId'],
      ['both checkId and groupId', ({ check, group }) => ({ checkId: check, groupId: group, activated: true }), 'groupId'],
      ['no activated', ({ check }) => ({ checkId: check }), 'activated'],
      ['a string for activated', ({ check }) => ({ checkId: check, activated: 'yes' }), 'activated'],
      ['a checkId that is not a UUID', () => ({ checkId: 'abc', activated: true }), 'checkId'],
      ['a groupId that is a string', () => ({ groupId: 'one', activated: true }), 'groupId'],
      ['a groupId of zero', () => ({ groupId: 0, activated: true }), 'groupId'],
      ['an unknown check', () => ({ checkId: UNKNOWN_UUID, activated: true }), 'checkId'],
      ['an unknown group', () => ({ groupId: UNKNOWN_ID, activated: true }), 'groupId'],
      ['a list entry without target', ({ check }) => [{ checkId: check, activated: true }, { activated: true }], '1.checkId'],
      ['a list entry with both targets', ({ check, group }) => [{ checkId: check, groupId: group, activated: true }], '0.groupId'],
      ['a list entry naming an unknown check', ({ check }) => [{ checkId: check, activated: true }, { checkId: UNKNOWN_UUID, activated: true }], '1.checkId'],
      ['a list entry naming an unknown group', () => [{ groupId: UNKNOWN_ID, activated: false }], '0.groupId'],
      ['a list entry with a bad activated', ({ check }) => [{ checkId: check, activated: null }], '0.activated'],
      ['a body that is a number', () => 5, '(root)'],
      ['a list of more than 100 entries', ({ check }) => Array.from({ length: 101 }, () => ({ checkId: check, activated: true })), '(root)'],
    ])('PUT /v1/alert-channels/{id}/subscriptions with %s answers 400 naming the key and writes nothing', async (_label, makeBody, key) => {
      const channel = await createChannel(a);
      const check = await createCheck(a);
      const group = await createGroup(a);
      const before = await snapshot();
      const checkBefore = (await a.request('GET', `/v1/checks/${check.id}`)).body;
      expectError(await a.request('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, makeBody({ check: check.id, group: group.id })), 400, key);
      expect(await snapshot()).toEqual(before);
      expect((await a.request('GET', `/v1/checks/${check.id}`)).body).toEqual(checkBefore);
    });
  });
});
