import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const PUBLIC_URL = 'https://lookout.example.test';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
/** The delivery time limit of this server: "Send test" answers within twice it. */
const ALERT_TIMEOUT_MS = 1000;

describe.each(BACKENDS)('alert channel "Send test" and bulk subscriptions on $name', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;
  let receiver: HttpReceiver;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    [receiver, smtp] = await Promise.all([startHttpReceiver(), startSmtpReceiver()]);
    server = await startTestServer({ backend, config: { publicUrl: PUBLIC_URL, smtpUrl: smtp.url, alertTimeoutMs: ALERT_TIMEOUT_MS } });
    ({ a, b } = server);
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([receiver?.close(), smtp?.close()]);
  });

  let hooks = 0;
  const channel = async (client: TestClient, type: string, config: Record<string, unknown>) => {
    const res = await client.request('POST', '/v1/alert-channels', { type, config });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const webhook = async (client: TestClient, config: Record<string, unknown> = {}) => {
    const path = `/hook/${++hooks}`;
    return { id: await channel(client, 'WEBHOOK', { name: 'Hook', url: `${receiver.url}${path}`, ...config }), path };
  };
  const sendTest = (client: TestClient, id: number) => client.request('POST', `/v1/alert-channels/${id}/test`);
  const createCheck = async (client: TestClient, name: string) => {
    const res = await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', { name, request: { url: 'https://example.com' } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const subscriptionRows = () => server.lookout.store.db.query('SELECT * FROM alert_channel_subscriptions ORDER BY id');

  describe('Send test', () => {
    it('delivers a message marked as a test through a webhook at once and answers that the receiver took it', async () => {
      const hook = await webhook(a);
      const res = await sendTest(a, hook.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, code: null, status: 200 });
      expect(res.body.message).toContain('delivered');
      const [sent] = receiver.to(hook.path);
      expect(sent!.json).toMatchObject({
        alertTitle: expect.stringMatching(/^\[TEST\]/), alertType: 'ALERT_FAILURE', isTest: true, checkUrl: `${PUBLIC_URL}/alert-channels`, resultUrl: null,
      });
    });

    it('renders the template of the webhook with IS_TEST and the console link', async () => {
      const hook = await webhook(a, { template: '{"test":{{IS_TEST}},"title":{{json ALERT_TITLE}},"link":"{{CHECK_URL}}"}' });
      expect((await sendTest(a, hook.id)).body.ok).toBe(true);
      expect(receiver.to(hook.path)[0]!.json).toEqual({ test: true, title: expect.stringMatching(/^\[TEST\]/), link: `${PUBLIC_URL}/alert-channels` });
    });

    it("answers the receiver's refusal with RECEIVER_REJECTED, its HTTP status and words naming it, and does not retry", async () => {
      const hook = await webhook(a);
      receiver.answer(hook.path, 503);
      const res = await sendTest(a, hook.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: false, code: 'RECEIVER_REJECTED', status: 503 });
      expect(res.body.message).toContain('HTTP 503');
      expect(receiver.to(hook.path)).toHaveLength(1);
    });

    it('answers TIMEOUT, in bounded time, when the receiver never answers', async () => {
      const hook = await webhook(a);
      receiver.hang(hook.path);
      const res = await sendTest(a, hook.id);
      expect(res.body).toMatchObject({ ok: false, code: 'TIMEOUT', status: null });
    });

    it('answers UNREACHABLE when nothing listens at the URL', async () => {
      const closed = await startHttpReceiver();
      await closed.close();
      const id = await channel(a, 'WEBHOOK', { name: 'Gone', url: `${closed.url}/gone` });
      expect((await sendTest(a, id)).body).toMatchObject({ ok: false, code: 'UNREACHABLE' });
    });

    it('sends a test email through SMTP_URL, and answers an SMTP refusal with its reply code', async () => {
      const good = await channel(a, 'EMAIL', { address: 'ops@example.test' });
      const ok = await sendTest(a, good);
      expect(ok.body).toMatchObject({ ok: true, code: null, status: 250 });
      const mail = smtp.mails.find((m) => m.to.includes('ops@example.test'));
      expect(mail!.text).toMatch(/Subject: \[TEST\] Test alert from Lookout/);
      expect(mail!.text).toContain(`${PUBLIC_URL}/alert-channels`);

      const refused = await channel(a, 'EMAIL', { address: 'nobody@rejected.test' });
      const res = await sendTest(a, refused);
      expect(res.body).toMatchObject({ ok: false, code: 'RECEIVER_REJECTED', status: 550 });
      expect(res.body.message).toContain('no such user');
    });

    it('posts a Slack test message naming the channel', async () => {
      const id = await channel(a, 'SLACK', { url: `${receiver.url}/slack`, channel: '#ops' });
      expect((await sendTest(a, id)).body.ok).toBe(true);
      expect(receiver.to('/slack')[0]!.json).toMatchObject({ text: expect.stringMatching(/^\[TEST\]/), channel: '#ops' });
    });

    it('answers CHANNEL_NOT_CONFIGURED when the server lacks what the channel type needs (no SMS_PROVIDER_URL)', async () => {
      const id = await channel(a, 'SMS', { name: 'On call', number: '+31612345678' });
      const res = await sendTest(a, id);
      expect(res.body).toMatchObject({ ok: false, code: 'CHANNEL_NOT_CONFIGURED', status: null });
      expect(res.body.message).toContain('SMS_PROVIDER_URL');
    });

    it("is a 404 for another account's channel and an unknown one, and sends nothing", async () => {
      const hook = await webhook(a);
      expect((await sendTest(b, hook.id)).status).toBe(404);
      expect((await sendTest(a, 2_147_483_000)).status).toBe(404);
      expect(receiver.to(hook.path)).toEqual([]);
    });

    it('never answers the secrets of the channel, even when the receiver echoes them', async () => {
      const hook = await webhook(a, { headers: [{ key: 'Authorization', value: 'Bearer very-secret-token-42', locked: true }], template: 'Bearer very-secret-token-42' });
      receiver.answer(hook.path, 400);
      const res = await sendTest(a, hook.id);
      expect(res.body.ok).toBe(false);
      expect(receiver.to(hook.path)[0]!.headers.authorization).toBe('Bearer very-secret-token-42');
      expect(JSON.stringify(res.body)).not.toContain('very-secret-token-42');
    });
  });

  describe('POST /v1/alert-channels/{id}/subscriptions', () => {
    it('subscribes the checks given at once, in the order given, and the channel reads them back', async () => {
      const id = await channel(a, 'EMAIL', { address: 'many@example.test' });
      const [one, two] = [await createCheck(a, 'One'), await createCheck(a, 'Two')];
      const res = await a.request('POST', `/v1/alert-channels/${id}/subscriptions`, { checkIds: [two, one, two] });
      expect(res.status).toBe(200);
      expect(res.body.subscriptions.map((s: any) => [s.checkId, s.activated])).toEqual([[two, true], [one, true]]);
      const read = await a.request('GET', `/v1/alert-channels/${id}`);
      expect(read.body.subscriptions.map((s: any) => s.checkId).sort()).toEqual([one, two].sort());
    });

    it("subscribes every check of the account with all: true, none of another account's, and deactivates them with activated: false", async () => {
      const id = await channel(a, 'EMAIL', { address: 'all@example.test' });
      const theirs = await createCheck(b, 'Theirs');
      const mine = await createCheck(a, 'Mine');
      const res = await a.request('POST', `/v1/alert-channels/${id}/subscriptions`, { all: true });
      expect(res.status).toBe(200);
      const ids = res.body.subscriptions.map((s: any) => s.checkId);
      expect(ids).toContain(mine);
      expect(ids).not.toContain(theirs);
      const ownChecks = await a.request('GET', '/v1/checks?limit=100');
      expect(ids.sort()).toEqual(ownChecks.body.map((c: any) => c.id).sort());
      const off = await a.request('POST', `/v1/alert-channels/${id}/subscriptions`, { all: true, activated: false });
      expect(off.body.subscriptions.every((s: any) => s.activated === false)).toBe(true);
      expect(off.body.subscriptions).toHaveLength(ids.length);
    });

    it('subscribes groups by groupIds', async () => {
      const id = await channel(a, 'EMAIL', { address: 'groups@example.test' });
      const group = await a.request('POST', '/v1/check-groups?autoAssignAlerts=false', { name: 'G' });
      const res = await a.request('POST', `/v1/alert-channels/${id}/subscriptions`, { groupIds: [group.body.id] });
      expect(res.body.subscriptions).toEqual([expect.objectContaining({ groupId: group.body.id, checkId: null, activated: true })]);
    });

    it("refuses unknown and other accounts' check and group ids with a 400 naming each key, writing nothing", async () => {
      const id = await channel(a, 'EMAIL', { address: 'refused@example.test' });
      const mine = await createCheck(a, 'Mine too');
      const theirs = await createCheck(b, 'Not yours');
      const before = await subscriptionRows();
      const res = await a.request('POST', `/v1/alert-channels/${id}/subscriptions`, { checkIds: [mine, theirs, UNKNOWN_UUID], groupIds: [2_147_483_000] });
      expect(res.status).toBe(400);
      expect(res.body.validation.keys).toEqual(['checkIds.1', 'checkIds.2', 'groupIds.0']);
      expect(await subscriptionRows()).toEqual(before);
    });

    it.each([
      ['nothing to subscribe', {}, 'checkIds'],
      ['all with checkIds', { all: true, checkIds: [UNKNOWN_UUID] }, 'checkIds'],
      ['a malformed check id', { checkIds: ['nope'] }, 'checkIds.0'],
    ])('refuses %s with a 400 naming the key', async (_name, body, key) => {
      const id = await channel(a, 'EMAIL', { address: 'bad@example.test' });
      const res = await a.request('POST', `/v1/alert-channels/${id}/subscriptions`, body);
      expect(res.status).toBe(400);
      expect(res.body.validation.keys).toContain(key);
    });

    it("is a 404 for another account's channel, writing nothing", async () => {
      const id = await channel(a, 'EMAIL', { address: 'private@example.test' });
      const before = await subscriptionRows();
      expect((await b.request('POST', `/v1/alert-channels/${id}/subscriptions`, { all: true })).status).toBe(404);
      expect(await subscriptionRows()).toEqual(before);
    });
  });
});
