import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { clientVia } from '../support/client-via.js';
import { countRestRequests, gql } from '../support/graphql.js';
import { startRestProxy, unknownQueryParameter } from '../support/rest-proxy.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const CHANNEL_FIELDS = `__typename id alertChannelId type sendRecovery sendFailure sendDegraded sslExpiry sslExpiryThreshold autoSubscribe createdAt
  ... on EmailAlertChannel { config { address } }
  ... on SlackAlertChannel { config { url channel } }
  ... on SlackAppAlertChannel { config { channel slackChannels url } }
  ... on WebhookAlertChannel { config { name url method template headers { key value } queryParameters { key value } webhookType } }
  ... on SmsAlertChannel { config { name number } }
  ... on CallAlertChannel { config { name number } }
  ... on PagerdutyAlertChannel { config { account serviceName maskedServiceKey } }
  ... on OpsgenieAlertChannel { config { name maskedApiKey region priority } }`;
const PAYLOAD = `{ alertChannel { ${CHANNEL_FIELDS} } userErrors { field code message } }`;

/** A valid create input per channel type, and the config it reads back as. */
const CREATES: [name: string, typename: string, input: Record<string, any>, config: Record<string, unknown>][] = [
  ['Email', 'EmailAlertChannel', { config: { address: 'ops@example.test' } }, { address: 'ops@example.test' }],
  ['Slack', 'SlackAlertChannel', { config: { url: 'https://hooks.slack.test/T1', channel: '#ops' } }, { url: 'https://hooks.slack.test/T1', channel: '#ops' }],
  ['SlackApp', 'SlackAppAlertChannel', { config: { channel: '#alerts' } }, { channel: '#alerts', slackChannels: null, url: null }],
  ['SlackApp', 'SlackAppAlertChannel', { config: { slackChannels: ['#ops', '@alice'], url: 'https://hooks.slack.test/T2' } },
    { channel: null, slackChannels: ['#ops', '@alice'], url: 'https://hooks.slack.test/T2' }],
  ['Webhook', 'WebhookAlertChannel',
    { config: { name: 'Hook', url: 'https://hooks.example.test/in', method: 'PUT', headers: [{ key: 'X-A', value: '1' }], webhookSecret: 'whsec-very-secret-1' } },
    { name: 'Hook', url: 'https://hooks.example.test/in', method: 'PUT', template: null, headers: [{ key: 'X-A', value: '1' }], queryParameters: [], webhookType: null }],
  ['Sms', 'SmsAlertChannel', { config: { name: 'On call', number: '+31612345678' } }, { name: 'On call', number: '+31612345678' }],
  ['Call', 'CallAlertChannel', { config: { name: 'Phone', number: '+14155550100' } }, { name: 'Phone', number: '+14155550100' }],
  ['Pagerduty', 'PagerdutyAlertChannel', { config: { account: 'acme', serviceName: 'web', serviceKey: 'pd-key-0123456789' } },
    { account: 'acme', serviceName: 'web', maskedServiceKey: '********6789' }],
  ['Opsgenie', 'OpsgenieAlertChannel', { config: { name: 'Genie', apiKey: 'og-key-abcdefgh', region: 'EU', priority: 'P2' } },
    { name: 'Genie', maskedApiKey: '********efgh', region: 'EU', priority: 'P2' }],
];

/** Bad inputs: [mutation type name, the key the REST API names, input]. */
const BAD: [string, string, Record<string, unknown>][] = [
  ['Email', 'config', {}],
  ['Email', 'config.address', { config: { address: 'not-an-email' } }],
  ['Email', 'sslExpiryThreshold', { config: { address: 'ops@example.test' }, sslExpiryThreshold: 31 }],
  ['Slack', 'config.url', { config: { url: 'ftp://hooks.slack.test/x' } }],
  ['Webhook', 'config.url', { config: { name: 'H', url: 'mailto:x@example.test' } }],
  ['Webhook', 'config.template', { config: { name: 'H', url: 'https://example.test', template: '{{#if x}}open' } }],
  ['Sms', 'config.number', { config: { name: 'S', number: '0612345678' } }],
  ['Call', 'config.number', { config: { name: 'C', number: '+1234567890123456' } }],
  ['Pagerduty', 'config.serviceKey', { config: { account: 'x' } }],
  ['Opsgenie', 'config.apiKey', { config: { name: 'G', region: 'EU', priority: 'P1' } }],
];

describe.each(BACKENDS)('GraphQL alert channels on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const create = (name: string, input: Record<string, unknown>, client: TestClient = s.a) =>
    gql(client, `mutation($input: ${name}AlertChannelInput!) { r: create${name}AlertChannel(input: $input) ${PAYLOAD} }`, { input });
  const countChannels = async (client = s.a) => Number((await client.request('GET', '/v1/alert-channels?limit=1')).headers.get('content-range')?.split('/')[1]);
  const restChannel = (client: TestClient, n: number) => client.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: `c${n}@example.test` } });
  const restCheck = async (client: TestClient, name: string, extra: Record<string, unknown> = {}) =>
    (await client.request('POST', '/v1/checks/api', { name, request: { url: 'https://example.test' }, ...extra })).body;

  describe('create and read', () => {
    it.each(CREATES)('create%sAlertChannel creates the channel and returns it typed with its config', async (name, typename, input, config) => {
      const res = await create(name, input);
      expect(res.errors).toBeUndefined();
      expect(res.data.r.userErrors).toEqual([]);
      expect(res.data.r.alertChannel).toMatchObject({ __typename: typename, sendRecovery: true, sendFailure: true, sendDegraded: false, sslExpiryThreshold: 30, config });
      const rest = await s.a.request('GET', `/v1/alert-channels/${res.data.r.alertChannel.alertChannelId}`);
      expect(rest.status).toBe(200);
      const read = await gql(s.a, `query($id: ID!) { alertChannel(id: $id) { ${CHANNEL_FIELDS} } node(id: $id) { __typename id } }`, { id: res.data.r.alertChannel.id });
      expect(read.data.alertChannel).toEqual(res.data.r.alertChannel);
      expect(read.data.node).toEqual({ __typename: typename, id: res.data.r.alertChannel.id });
    });

    it('reads a channel by its REST id too', async () => {
      const { body } = await restChannel(s.a, 1);
      const res = await gql(s.a, `{ alertChannel(id: "${body.id}") { alertChannelId type } }`);
      expect(res.data.alertChannel).toEqual({ alertChannelId: body.id, type: 'EMAIL' });
    });

    it('pages through the channels as a connection with their total', async () => {
      const total = await countChannels();
      const first = await gql(s.a, '{ alertChannels(first: 2) { totalCount pageInfo { hasNextPage endCursor } nodes { alertChannelId } } }');
      expect(first.data.alertChannels.totalCount).toBe(total);
      expect(first.data.alertChannels.nodes).toHaveLength(2);
      const next = await gql(s.a, 'query($after: String) { alertChannels(first: 2, after: $after) { nodes { alertChannelId } } }', { after: first.data.alertChannels.pageInfo.endCursor });
      const seen = [...first.data.alertChannels.nodes, ...next.data.alertChannels.nodes].map((n: any) => n.alertChannelId);
      expect(new Set(seen).size).toBe(seen.length);
    });
  });

  describe('secrets', () => {
    it('never reads back a webhook secret, a PagerDuty service key or an Opsgenie API key', async () => {
      const secrets = ['whsec-very-secret-1', 'pd-key-0123456789', 'og-key-abcdefgh'];
      for (const [name, , input] of CREATES.filter(([n]) => ['Webhook', 'Pagerduty', 'Opsgenie'].includes(n))) {
        const created = await s.a.request('POST', '/graphql', {
          query: `mutation($input: ${name}AlertChannelInput!) { r: create${name}AlertChannel(input: $input) ${PAYLOAD} }`, variables: { input },
        });
        for (const secret of secrets) expect(created.text).not.toContain(secret);
      }
      const listed = await s.a.request('POST', '/graphql', { query: `{ alertChannels(first: 100) { nodes { ${CHANNEL_FIELDS} } } }` });
      expect(listed.status).toBe(200);
      for (const secret of secrets) expect(listed.text).not.toContain(secret);
    });

    it('keeps a webhook secret that an update leaves out, and the REST API still holds it', async () => {
      const { data } = await create('Webhook', { config: { name: 'Signed', url: 'https://hooks.example.test/a', webhookSecret: 'keep-me-secret' } });
      const id = data.r.alertChannel.id;
      const res = await gql(s.a, 'mutation($id: ID!) { r: updateWebhookAlertChannel(id: $id, input: {config: {name: "Signed 2", url: "https://hooks.example.test/b"}}) { alertChannel { ... on WebhookAlertChannel { config { name url } } } userErrors { field } } }', { id });
      expect(res.data.r).toEqual({ alertChannel: { config: { name: 'Signed 2', url: 'https://hooks.example.test/b' } }, userErrors: [] });
      const row = await s.lookout.store.alertChannels.getWithSecrets(s.a.accountId, data.r.alertChannel.alertChannelId);
      expect(row?.secrets).toEqual({ webhookSecret: 'keep-me-secret' });
    });
  });

  describe('update and delete', () => {
    it('updates only the settings given and keeps the config', async () => {
      const { data } = await create('Email', { config: { address: 'keep@example.test' } });
      const res = await gql(s.a, 'mutation($id: ID!) { r: updateEmailAlertChannel(id: $id, input: {sendDegraded: true, sslExpiry: true, sslExpiryThreshold: 7}) { alertChannel { sendDegraded sslExpiry sslExpiryThreshold sendFailure ... on EmailAlertChannel { config { address } } } userErrors { field } } }', { id: data.r.alertChannel.id });
      expect(res.data.r).toEqual({ alertChannel: { sendDegraded: true, sslExpiry: true, sslExpiryThreshold: 7, sendFailure: true, config: { address: 'keep@example.test' } }, userErrors: [] });
    });

    it('answers an update through the mutation of another channel type with a userError on type', async () => {
      const { data } = await create('Email', { config: { address: 'typed@example.test' } });
      const res = await gql(s.a, 'mutation($id: ID!) { r: updateSlackAlertChannel(id: $id, input: {sendDegraded: true}) { alertChannel { id } userErrors { field code } } }', { id: data.r.alertChannel.id });
      expect(res.data.r).toEqual({ alertChannel: null, userErrors: [{ field: 'type', code: 'BAD_USER_INPUT' }] });
      expect((await s.a.request('GET', `/v1/alert-channels/${data.r.alertChannel.alertChannelId}`)).body.sendDegraded).toBe(false);
    });

    it('deletes a channel, after which it reads as null', async () => {
      const { data } = await create('Sms', { config: { name: 'Gone', number: '+31612345678' } });
      const id = data.r.alertChannel.id;
      const res = await gql(s.a, 'mutation($id: ID!) { deleteAlertChannel(id: $id) { deletedId userErrors { field } } }', { id });
      expect(res.data.deleteAlertChannel).toEqual({ deletedId: id, userErrors: [] });
      expect((await gql(s.a, 'query($id: ID!) { alertChannel(id: $id) { id } node(id: $id) { id } }', { id })).data).toEqual({ alertChannel: null, node: null });
    });
  });

  describe('bad inputs', () => {
    it.each(BAD)('create%sAlertChannel with a bad %s returns a userError naming it and writes nothing', async (name, key, input) => {
      const before = await countChannels();
      const res = await create(name, input);
      expect(res.errors).toBeUndefined();
      expect(res.data.r.alertChannel).toBeNull();
      expect(res.data.r.userErrors).toContainEqual({ field: key, code: 'BAD_USER_INPUT', message: expect.any(String) });
      expect(await countChannels()).toBe(before);
    });

    it.each([
      ['an unknown Opsgenie region', 'Opsgenie', { config: { name: 'G', apiKey: 'k', region: 'ASIA', priority: 'P1' } }],
      ['a config without a required field', 'Email', { config: {} }],
      ['a config field of another channel type', 'Email', { config: { address: 'a@example.test', url: 'https://x.test' } }],
    ])('rejects %s before any REST call', async (_what, name, input) => {
      const before = await countChannels();
      const res = await create(name, input);
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(res.data).toBeUndefined();
      expect(await countChannels()).toBe(before);
    });

    it.each([
      ['a check id that is not one', [{ checkId: 'nope', activated: true }], 'subscriptions.0.checkId'],
      ['an unknown check', [{ checkId: '00000000-0000-4000-8000-000000000000', activated: true }], 'subscriptions.0.checkId'],
      ['an unknown group', [{ groupId: '999999', activated: true }], 'subscriptions.0.groupId'],
      ['neither a check nor a group', [{ activated: true }], 'subscriptions.0.checkId'],
      ['both a check and a group in one entry', [{ checkId: '00000000-0000-4000-8000-000000000000', groupId: '1', activated: true }], 'subscriptions.0.groupId'],
    ])('updateAlertChannelSubscriptions with %s returns a userError on %s and writes nothing', async (_what, subscriptions, key) => {
      const { body: channel } = await restChannel(s.a, 2);
      const res = await gql(s.a, 'mutation($id: ID!, $subs: [AlertChannelSubscriberInput!]!) { r: updateAlertChannelSubscriptions(id: $id, subscriptions: $subs) { alertChannel { id } subscriptions { subscriptionId } userErrors { field code } } }',
        { id: String(channel.id), subs: subscriptions });
      expect(res.errors).toBeUndefined();
      expect(res.data.r.alertChannel).toBeNull();
      expect(res.data.r.userErrors).toContainEqual({ field: key, code: 'BAD_USER_INPUT' });
      expect((await s.a.request('GET', `/v1/alert-channels/${channel.id}`)).body.subscriptions).toEqual([]);
    });
  });

  describe('relations', () => {
    it('subscribes checks and a group, then walks channel → checks and groups and check or group → channels', async () => {
      const { body: group } = await s.a.request('POST', '/v1/check-groups', { name: 'Subscribed group', alertChannelSubscriptions: [] });
      const c1 = await restCheck(s.a, 'Sub 1', { alertChannelSubscriptions: [] });
      const c2 = await restCheck(s.a, 'Sub 2', { alertChannelSubscriptions: [] });
      const { data } = await create('Slack', { config: { url: 'https://hooks.slack.test/rel' } });
      const channel = data.r.alertChannel;
      const checkIds = await gql(s.a, `{ a: check(id: "${c1.id}") { id } }`);
      const res = await gql(s.a, `mutation($id: ID!, $subs: [AlertChannelSubscriberInput!]!) { r: updateAlertChannelSubscriptions(id: $id, subscriptions: $subs) {
          alertChannel { alertChannelId subscribedChecks { checkId } subscribedGroups { groupId } active: subscribedChecks(activated: true) { checkId } }
          subscriptions { activated checkId check { name } groupId group { name } }
          userErrors { field } } }`,
      { id: channel.id, subs: [{ checkId: checkIds.data.a.id, activated: true }, { checkId: c2.id, activated: false }, { groupId: String(group.id), activated: true }] });
      expect(res.errors).toBeUndefined();
      expect(res.data.r.userErrors).toEqual([]);
      expect(res.data.r.subscriptions).toEqual([
        { activated: true, checkId: c1.id, check: { name: 'Sub 1' }, groupId: null, group: null },
        { activated: false, checkId: c2.id, check: { name: 'Sub 2' }, groupId: null, group: null },
        { activated: true, checkId: null, check: null, groupId: group.id, group: { name: 'Subscribed group' } },
      ]);
      expect(res.data.r.alertChannel).toEqual({
        alertChannelId: channel.alertChannelId,
        subscribedChecks: [{ checkId: c1.id }, { checkId: c2.id }],
        subscribedGroups: [{ groupId: group.id }],
        active: [{ checkId: c1.id }],
      });

      const back = await gql(s.a, `{
        c2: check(id: "${c2.id}") { alertChannels { alertChannelId } active: alertChannels(activated: true) { alertChannelId }
          alertChannelSubscriptions { activated alertChannel { id } } }
        g: checkGroup(id: "${group.id}") { alertChannels { id } } }`);
      expect(back.errors).toBeUndefined();
      expect(back.data).toEqual({
        c2: { alertChannels: [{ alertChannelId: channel.alertChannelId }], active: [], alertChannelSubscriptions: [{ activated: false, alertChannel: { id: channel.id } }] },
        g: { alertChannels: [{ id: channel.id }] },
      });
    });

    it('answers the alert channels of 100 checks with one REST call for the checks and one for the channels', async () => {
      const channels: number[] = [];
      for (let i = 0; i < 5; i++) channels.push((await restChannel(s.b, 10 + i)).body.id);
      for (let i = 0; i < 100; i++) {
        await restCheck(s.b, `batched ${i}`, { alertChannelSubscriptions: [{ alertChannelId: channels[i % 5], activated: true }, { alertChannelId: channels[(i + 1) % 5], activated: true }] });
      }
      // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
      await gql(s.b, '{ __typename }');
      const counter = countRestRequests(s);
      const res = await gql(s.b, '{ checks(first: 100) { nodes { name alertChannels { alertChannelId ... on EmailAlertChannel { config { address } } } } } }');
      counter.stop();
      expect(res.errors).toBeUndefined();
      expect(res.data.checks.nodes).toHaveLength(100);
      for (const node of res.data.checks.nodes) {
        const i = Number(node.name.split(' ')[1]);
        expect(node.alertChannels.map((c: any) => c.alertChannelId).sort()).toEqual([channels[i % 5], channels[(i + 1) % 5]].sort());
      }
      expect(res.extensions?.cost?.restCalls).toBe(2);
      expect(counter.count).toBe(2);

      // The other way: the 100 subscribed checks of five channels, also in one call.
      // The layer checks a key with GET /v1/accounts/me once per 30 s, outside any operation: checked before counting.
      await gql(s.b, '{ __typename }');
      const back = countRestRequests(s);
      const channelsRes = await gql(s.b, '{ alertChannels(first: 5) { nodes { subscribedChecks { checkId } } } }');
      back.stop();
      expect(channelsRes.errors).toBeUndefined();
      expect(channelsRes.data.alertChannels.nodes.map((n: any) => n.subscribedChecks.length)).toEqual([40, 40, 40, 40, 40]);
      expect(back.count).toBe(2);
    });

    it('loads channels with single GETs from a backend that rejects the ids= filter', async () => {
      const { body: channel } = await restChannel(s.a, 30);
      const check = await restCheck(s.a, 'Fallback', { alertChannelSubscriptions: [{ alertChannelId: channel.id, activated: true }] });
      const proxy = await startRestProxy(s.url, (_req, url) => (url.searchParams.has('ids') ? unknownQueryParameter('ids') : undefined));
      const front = await startTestServer({ backend, config: { graphqlBackendUrl: proxy.url } });
      try {
        const asA = clientVia(front, s.a);
        const res = await gql(asA, `{ check(id: "${check.id}") { alertChannels { alertChannelId } } }`);
        expect(res.errors).toBeUndefined();
        expect(res.data.check.alertChannels).toEqual([{ alertChannelId: channel.id }]);
      } finally {
        await front.close();
        await proxy.close();
      }
    });
  });

  describe('account isolation', () => {
    it("reads another account's channel as null, by alertChannel, node and nodes", async () => {
      const { body } = await restChannel(s.b, 40);
      const own = await gql(s.b, `{ alertChannel(id: "${body.id}") { id } }`);
      const id = own.data.alertChannel.id;
      const res = await gql(s.a, 'query($id: ID!) { alertChannel(id: $id) { id } node(id: $id) { id } nodes(ids: [$id]) { id } }', { id });
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({ alertChannel: null, node: null, nodes: [null] });
    });

    it.each([
      ['updateEmailAlertChannel', 'mutation($id: ID!) { r: updateEmailAlertChannel(id: $id, input: {sendDegraded: true}) { alertChannel { id } } }'],
      ['deleteAlertChannel', 'mutation($id: ID!) { r: deleteAlertChannel(id: $id) { deletedId } }'],
      ['updateAlertChannelSubscriptions', 'mutation($id: ID!) { r: updateAlertChannelSubscriptions(id: $id, subscriptions: []) { alertChannel { id } } }'],
    ])("%s on another account's channel is NOT_FOUND and changes nothing", async (_name, mutation) => {
      const { body } = await restChannel(s.b, 41);
      const id = (await gql(s.b, `{ alertChannel(id: "${body.id}") { id } }`)).data.alertChannel.id;
      const res = await gql(s.a, mutation, { id });
      expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect((await s.b.request('GET', `/v1/alert-channels/${body.id}`)).body).toEqual(body);
    });

    it("cannot subscribe another account's check to a channel", async () => {
      const { body: channel } = await restChannel(s.a, 42);
      const foreign = await restCheck(s.b, 'Foreign');
      const res = await gql(s.a, 'mutation($id: ID!, $c: ID!) { r: updateAlertChannelSubscriptions(id: $id, subscriptions: [{checkId: $c, activated: true}]) { alertChannel { id } userErrors { field } } }',
        { id: String(channel.id), c: foreign.id });
      expect(res.data.r).toEqual({ alertChannel: null, userErrors: [{ field: 'subscriptions.0.checkId' }] });
    });

    it('answers a malformed id as NOT_FOUND in mutations and as null in queries', async () => {
      const res = await gql(s.a, '{ alertChannel(id: "Q2hlY2s6MQ") { id } }');
      expect(res.data.alertChannel).toBeNull();
      const del = await gql(s.a, 'mutation { deleteAlertChannel(id: "not-an-id") { deletedId } }');
      expect(del.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    });
  });
});
