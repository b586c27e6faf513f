import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('subscribing to a public status page by email', () => {
  let s: TestServer;
  let smtp: SmtpReceiver;
  const mails = () => smtp.mails;
  let slug: string;
  let pageId: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    s = await startTestServer({ config: { smtpUrl: smtp.url, alertTimeoutMs: 5000 } });
    const service = (await s.a.request('POST', '/v1/status-pages/services', { name: 'API' })).body.id;
    slug = `subscribe-${randomUUID().slice(0, 8)}`;
    pageId = (await s.a.request('POST', '/v1/status-pages', { name: 'Acme', url: slug, cards: [{ name: 'All', services: [{ id: service }] }] })).body.id;
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  const post = async (email: string) => {
    const res = await request(`${s.url}/status/${slug}/subscribe`, { method: 'POST', headers: FORM, body: `email=${encodeURIComponent(email)}` });
    return { status: res.statusCode, text: await res.body.text() };
  };
  const subscribers = async () => (await s.a.request('GET', `/v1/status-pages/${pageId}/subscriptions`)).body as { address: string; status: string }[];

  it('offers the form on the page', async () => {
    const html = await (await request(`${s.url}/status/${slug}`)).body.text();
    expect(html).toContain(`action="/status/${slug}/subscribe"`);
  });

  it('adds a PENDING subscriber and mails the confirmation link, once per address', async () => {
    const first = await post('reader@example.test');
    expect(first.status).toBe(200);
    expect(first.text).toContain('Check your inbox');
    expect(mails().map((m) => m.to)).toEqual([['reader@example.test']]);
    expect(mails()[0]!.text).toContain(`/status/${slug}/subscriptions/confirm?token=`);
    expect(await subscribers()).toEqual([expect.objectContaining({ address: 'reader@example.test', status: 'PENDING' })]);
    const again = await post('READER@example.test');
    expect(again.text).toContain('subscribed already');
    expect(mails()).toHaveLength(1);
  });

  it.each(['not an address', '', 'a@b@c'])('refuses %j with a 400 page and adds nobody', async (email) => {
    const before = (await subscribers()).length;
    const res = await post(email);
    expect(res.status).toBe(400);
    expect(res.text).toContain('not an email address');
    expect((await subscribers()).length).toBe(before);
  });
});
