import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_TEMPLATE_VARIABLES } from '../../src/domain/webhook-template-variables.js';
import { gql, gqlData } from '../support/graphql.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const TEST = 'mutation($id: ID!) { testAlertChannel(id: $id) { ok code message status response } }';
const SUBSCRIBE = `mutation($id: ID!, $checkIds: [ID!], $all: Boolean, $groupIds: [ID!], $activated: Boolean) {
  subscribeToAlertChannel(id: $id, checkIds: $checkIds, all: $all, groupIds: $groupIds, activated: $activated) {
    alertChannel { id subscriptions { checkId activated check { name } } }
    subscriptions { checkId groupId activated }
    userErrors { field code message }
  }
}`;

describe('GraphQL: Send test, bulk subscriptions and the webhook template variables', () => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;
  let receiver: HttpReceiver;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    server = await startTestServer({ config: { publicUrl: 'https://lookout.example.test' } });
    ({ a, b } = server);
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const webhook = async (path: string) => {
    const res = await a.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: `${receiver.url}${path}` } });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const createCheck = async (client: TestClient, name: string) => {
    const res = await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', { name, request: { url: 'https://example.com' } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it('testAlertChannel delivers a test message and answers how it went, refusals with their code and status', async () => {
    const id = await webhook('/gql-ok');
    const ok = await gqlData(a, TEST, { id: String(id) });
    expect(ok.testAlertChannel).toMatchObject({ ok: true, code: null, status: 200 });
    expect(receiver.to('/gql-ok')[0]!.json).toMatchObject({ isTest: true });

    const refused = await webhook('/gql-refused');
    receiver.answer('/gql-refused', 401);
    const failed = await gqlData(a, TEST, { id: String(refused) });
    expect(failed.testAlertChannel).toMatchObject({ ok: false, code: 'RECEIVER_REJECTED', status: 401 });
    expect(failed.testAlertChannel.message).toContain('HTTP 401');
  });

  it("testAlertChannel on another account's channel is NOT_FOUND and sends nothing", async () => {
    const id = await webhook('/gql-private');
    const res = await gql(b, TEST, { id: String(id) });
    expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(receiver.to('/gql-private')).toEqual([]);
  });

  it('subscribeToAlertChannel subscribes the checks named, or all of them, and answers the channel with them', async () => {
    const id = String(await webhook('/gql-subs'));
    const one = await createCheck(a, 'GQL one');
    const two = await createCheck(a, 'GQL two');
    const some = await gqlData(a, SUBSCRIBE, { id, checkIds: [one] });
    expect(some.subscribeToAlertChannel.subscriptions).toEqual([{ checkId: one, groupId: null, activated: true }]);
    expect(some.subscribeToAlertChannel.userErrors).toEqual([]);
    const all = await gqlData(a, SUBSCRIBE, { id, all: true });
    const names = all.subscribeToAlertChannel.alertChannel.subscriptions.map((s: any) => s.check.name);
    expect(names).toEqual(expect.arrayContaining(['GQL one', 'GQL two']));
    expect(all.subscribeToAlertChannel.subscriptions.map((s: any) => s.checkId)).toEqual(expect.arrayContaining([one, two]));
  });

  it("subscribeToAlertChannel answers another account's check as a userError on its input field, writing nothing", async () => {
    const id = String(await webhook('/gql-refuse'));
    const theirs = await createCheck(b, 'Theirs');
    const res = await gqlData(a, SUBSCRIBE, { id, checkIds: [theirs] });
    expect(res.subscribeToAlertChannel).toMatchObject({ alertChannel: null, subscriptions: null });
    expect(res.subscribeToAlertChannel.userErrors).toEqual([expect.objectContaining({ field: 'checkIds.0', code: 'BAD_USER_INPUT' })]);
    const channel = await a.request('GET', `/v1/alert-channels/${id}`);
    expect(channel.body.subscriptions).toEqual([]);
  });

  it('lists exactly the webhook template variables the renderer supports', async () => {
    const data = await gqlData(a, '{ webhookTemplateVariables { name description } }');
    expect(data.webhookTemplateVariables.map((v: any) => v.name)).toEqual(WEBHOOK_TEMPLATE_VARIABLES.map((v) => v.name));
    expect(data.webhookTemplateVariables.map((v: any) => v.name)).toEqual(expect.arrayContaining(['CHECK_URL', 'RESULT_URL', 'IS_TEST', 'ALERT_TITLE']));
  });
});
