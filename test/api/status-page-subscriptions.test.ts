import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/domain/is-private-address.js';
import { createStatusPageSubscriptionService } from '../../src/service/status-page-subscription-service.js';
import { webhookSignature } from '../../src/domain/webhook-signature.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
/** Whether this machine's name resolves to a private address (a name the connect-time guard must refuse). */
const OWN_NAME_IS_PRIVATE = isPrivateAddress((await lookup(hostname())).address);
const PUBLIC_URL = 'https://status.lookout.test';
const subscriptionsOf = (pageId: string) => `/v1/status-pages/${pageId}/subscriptions`;
const bulkOf = (pageId: string) => `${subscriptionsOf(pageId)}/bulk`;

interface Mail {
  to: string[];
  raw: string;
}

/** The text of a raw mail with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/** A header of a raw mail, unfolded, its Q-encoded words decoded (RFC 2047). */
function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, q: string) => decoded(q.replace(/_/g, ' ')));
}
/** The path and query of the first link of `kind` in a mail or body. */
function linkIn(text: string, kind: 'confirm' | 'unsubscribe'): string {
  const match = new RegExp(`https://status\\.lookout\\.test(/status/[a-z0-9-]+/subscriptions/${kind}\\?token=[A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${kind} link in ${text.slice(0, 500)}`);
  return match[1]!;
}

describe.each(BACKENDS)('status page subscribers over REST and their links ($name)', (backend) => {
  let s: TestServer;
  let smtp: SmtpReceiver;
  let hooks: HttpReceiver;
  let mails: Mail[] = [];
  let pageId: string;
  let pageUrl: string;
  let slugs = 0;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    mails = smtp.mails;
    hooks = await startHttpReceiver();
    s = await startTestServer({
      backend,
      // The webhook receiver listens on loopback: allowed here, refused by default (see the suite below).
      config: { publicUrl: PUBLIC_URL, smtpUrl: smtp.url, smtpFrom: 'Acme status <status@acme.test>', alertTimeoutMs: 5000, allowPrivateTargets: true },
    });
    const page = await newPage();
    pageId = page.id;
    pageUrl = page.url;
  });
  afterAll(async () => {
    await s?.close();
    await hooks?.close();
    await smtp?.close();
  });

  async function newPage(client = () => s.a) {
    const res = await client().request('POST', '/v1/status-pages', { name: 'Acme "status"', url: `acme-${++slugs}`, cards: [] });
    expect(res.status).toBe(201);
    return res.body as { id: string; url: string };
  }
  const count = async (table: string) => (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const counts = async () => Promise.all(['status_page_subscriptions', 'status_page_subscription_tokens'].map(count));
  const list = async (id = pageId) => (await s.a.request('GET', subscriptionsOf(id))).body as { id: string; address: string; status: string }[];

  it('mails a confirmation over SMTP, and its link makes the subscriber VERIFIED', async () => {
    const sentBefore = mails.length;
    const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'EMAIL', config: 'Ops@Example.com' }] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      created: 1, skipped: 0, status: 'PENDING',
      subscriptions: [{
        id: expect.any(String), type: 'EMAIL', address: 'Ops@Example.com', status: 'PENDING', created_at: expect.any(String), updated_at: null,
        secret: null, confirmation: 'SENT', confirmationError: null,
      }],
    });
    const id = res.body.subscriptions[0].id as string;
    expect(mails.length).toBe(sentBefore + 1);
    const mail = mails.at(-1)!;
    // Domains are case-insensitive: nodemailer writes them lower-cased.
    expect(mail.to.map((a) => a.toLowerCase())).toEqual(['ops@example.com']);
    const text = decoded(mail.raw);
    expect(headerOf(mail.raw, 'Subject')).toBe('Confirm your subscription to Acme "status"');
    expect(headerOf(mail.raw, 'From')).toBe('Acme status <status@acme.test>');
    expect(headerOf(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(headerOf(mail.raw, 'List-Unsubscribe')).toMatch(/^<https:\/\/status\.lookout\.test\/status\/acme-1\/subscriptions\/unsubscribe\?token=[\w-]+>$/);

    const confirm = linkIn(text, 'confirm');
    const page = await s.raw('GET', confirm);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain('Subscription confirmed');
    expect(page.text).toContain('Acme &#34;status&#34;');
    expect((await list()).find((x) => x.id === id)).toMatchObject({ status: 'VERIFIED' });
    // Following it again writes nothing and says so.
    const again = await s.raw('GET', confirm);
    expect(again.status).toBe(200);
    expect(again.text).toContain('confirmed already');

    // Tokens are stored as hashes only.
    const token = new URL(confirm, PUBLIC_URL).searchParams.get('token')!;
    const stored = await s.lookout.store.db.query<{ token_hash: string }>('SELECT token_hash FROM status_page_subscription_tokens WHERE subscription_id = $1', [id]);
    expect(stored).toHaveLength(2);
    expect(stored.map((t) => t.token_hash)).not.toContain(token);
    expect((await s.a.request('GET', subscriptionsOf(pageId))).text).not.toContain(token);
  });

  it('counts addresses the page has already as skipped, and an address sent twice once', async () => {
    const before = await count('status_page_subscriptions');
    const res = await s.a.request('POST', bulkOf(pageId), {
      subscriptions: [
        { type: 'EMAIL', config: 'ops@example.com' },
        { type: 'EMAIL', config: 'dev@example.com' },
        { type: 'EMAIL', config: 'DEV@example.com' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ created: 1, skipped: 1, status: 'PENDING', subscriptions: [{ address: 'dev@example.com', confirmation: 'SENT' }] });
    expect(await count('status_page_subscriptions')).toBe(before + 1);
    const all = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'EMAIL', config: 'dev@example.com' }] });
    expect(all.body).toEqual({ created: 0, skipped: 1, status: 'PENDING', subscriptions: [] });
  });

  it('subscribes without confirmation with autoVerify, mailing nothing', async () => {
    const sentBefore = mails.length;
    const res = await s.a.request('POST', bulkOf(pageId), { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'quiet@example.com' }] });
    expect(res.body).toMatchObject({ created: 1, status: 'VERIFIED', subscriptions: [{ status: 'VERIFIED', confirmation: 'NOT_NEEDED', confirmationError: null }] });
    expect(mails.length).toBe(sentBefore);
    expect((await list()).find((x) => x.address === 'quiet@example.com')).toMatchObject({ status: 'VERIFIED' });
  });

  it('reports a mail the SMTP server refuses, leaving the subscriber PENDING', async () => {
    const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'EMAIL', config: 'nobody@rejected.test' }, { type: 'EMAIL', config: 'fine@example.com' }] });
    expect(res.status).toBe(201);
    expect(res.body.subscriptions).toMatchObject([
      { address: 'nobody@rejected.test', status: 'PENDING', confirmation: 'FAILED', confirmationError: expect.stringContaining('no such user') },
      { address: 'fine@example.com', confirmation: 'SENT', confirmationError: null },
    ]);
  });

  it('posts a webhook subscriber its confirmation signed with the secret shown once', async () => {
    const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'WEBHOOK', config: `${hooks.url}/status-hook` }] });
    expect(res.status).toBe(201);
    const [created] = res.body.subscriptions;
    expect(created).toMatchObject({ type: 'WEBHOOK', address: `${hooks.url}/status-hook`, status: 'PENDING', confirmation: 'SENT', secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const [request] = await hooks.waitFor('/status-hook', 1);
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-lookout-signature']).toBe(webhookSignature(created.secret, request!.body));
    expect(request!.headers['x-checkly-signature']).toBe(webhookSignature(created.secret, request!.body));
    expect(request!.json).toEqual({
      type: 'subscriptionConfirmation', subscriptionId: created.id, statusPage: { id: pageId, name: 'Acme "status"', url: pageUrl },
      confirmUrl: expect.stringContaining(`${PUBLIC_URL}/status/${pageUrl}/subscriptions/confirm?token=`),
      unsubscribeUrl: expect.stringContaining(`${PUBLIC_URL}/status/${pageUrl}/subscriptions/unsubscribe?token=`),
    });
    expect((await s.raw('GET', linkIn(request!.body, 'confirm'))).status).toBe(200);
    expect((await list()).find((x) => x.id === created.id)).toMatchObject({ status: 'VERIFIED' });
    // The secret is never read back.
    expect((await s.a.request('GET', subscriptionsOf(pageId))).text).not.toContain(created.secret);
  });

  it('reports a webhook that refuses its confirmation by the reason class only, not what it answered', async () => {
    hooks.answer('/refusing', 500);
    const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'WEBHOOK', config: `${hooks.url}/refusing` }] });
    expect(res.body.subscriptions).toMatchObject([{ status: 'PENDING', confirmation: 'FAILED', confirmationError: 'http_error' }]);
    // Nothing but the reason class is said: no field carries the status or body it answered.
    const { id: _id, secret: _secret, address: _address, created_at: _createdAt, ...reported } = res.body.subscriptions[0];
    expect(reported).toEqual({ type: 'WEBHOOK', status: 'PENDING', updated_at: null, confirmation: 'FAILED', confirmationError: 'http_error' });
    expect(Object.keys(res.body)).toEqual(['created', 'skipped', 'status', 'subscriptions']);
  });

  it('asks before unsubscribing on GET and unsubscribes with a one-click POST (RFC 8058)', async () => {
    const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'EMAIL', config: 'leaving@example.com' }] });
    const id = res.body.subscriptions[0].id as string;
    const unsubscribe = linkIn(decoded(mails.at(-1)!.raw), 'unsubscribe');
    const asked = await s.raw('GET', unsubscribe);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('<form method="post"');
    expect(asked.text).toContain('leaving@example.com');
    expect((await list()).map((x) => x.id)).toContain(id);

    const done = await s.raw('POST', unsubscribe, { body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Unsubscribed');
    expect((await list()).map((x) => x.id)).not.toContain(id);
    expect((await s.raw('POST', unsubscribe, { body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(404);
    expect((await s.raw('GET', unsubscribe)).status).toBe(404);
    expect(await count(`status_page_subscription_tokens WHERE subscription_id = '${id}'`)).toBe(0);
  });

  it('issues further unsubscribe links for later messages, each working', async () => {
    const res = await s.a.request('POST', bulkOf(pageId), { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'later@example.com' }] });
    const id = res.body.subscriptions[0].id as string;
    const service = createStatusPageSubscriptionService({ store: s.lookout.store, publicUrl: `${PUBLIC_URL}/`, timeoutMs: 1000 });
    const first = await service.unsubscribeUrl(s.a.accountId, id);
    const second = await service.unsubscribeUrl(s.a.accountId, id);
    expect(first).not.toBe(second);
    await expect(service.unsubscribeUrl(s.b.accountId, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await s.raw('GET', linkIn(first, 'unsubscribe'))).status).toBe(200);
    expect((await s.raw('POST', linkIn(second, 'unsubscribe'))).status).toBe(200);
    expect((await list()).map((x) => x.id)).not.toContain(id);
  });

  it('answers unknown tokens, and tokens of another page, with a 404 page', async () => {
    const other = await newPage();
    const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'EMAIL', config: 'wrong-page@example.com' }] });
    expect(res.status).toBe(201);
    const confirm = linkIn(decoded(mails.at(-1)!.raw), 'confirm');
    for (const path of [
      `/status/${pageUrl}/subscriptions/confirm?token=unknown-token`,
      `/status/${pageUrl}/subscriptions/unsubscribe?token=unknown-token`,
      confirm.replace(`/status/${pageUrl}/`, `/status/${other.url}/`),
      confirm.replace(`/status/${pageUrl}/`, '/status/no-such-page/'),
    ]) {
      const page = await s.raw('GET', path);
      expect(page.status, path).toBe(404);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('Link not valid');
    }
    expect((await list()).find((x) => x.address === 'wrong-page@example.com')).toMatchObject({ status: 'PENDING' });
    expect((await s.raw('GET', `/status/${pageUrl}/subscriptions/confirm`)).status).toBe(400);
  });

  it('lists and deletes subscribers, each account only its own', async () => {
    const res = await s.a.request('POST', bulkOf(pageId), { autoVerify: true, subscriptions: [{ type: 'WEBHOOK', config: 'https://hooks.example/x' }] });
    const id = res.body.subscriptions[0].id as string;
    const listed = await s.a.request('GET', subscriptionsOf(pageId));
    expect(listed.status).toBe(200);
    expect(listed.body.find((x: { id: string }) => x.id === id)).toEqual({
      id, type: 'WEBHOOK', address: 'https://hooks.example/x', status: 'VERIFIED', created_at: expect.any(String), updated_at: null,
    });
    for (const [method, path, body] of [
      ['GET', subscriptionsOf(pageId)], ['POST', bulkOf(pageId), { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'x@example.com' }] }],
      ['DELETE', `${subscriptionsOf(pageId)}/${id}`],
    ] as [string, string, unknown?][]) {
      expect((await s.b.request(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    const theirPage = await newPage(() => s.b);
    expect((await s.b.request('DELETE', `${subscriptionsOf(theirPage.id)}/${id}`)).status).toBe(404);
    expect((await s.a.request('DELETE', `${subscriptionsOf(pageId)}/${UNKNOWN}`)).status).toBe(404);
    expect((await s.a.request('GET', subscriptionsOf(UNKNOWN))).status).toBe(404);

    expect((await s.a.request('DELETE', `${subscriptionsOf(pageId)}/${id}`)).status).toBe(204);
    expect((await s.a.request('DELETE', `${subscriptionsOf(pageId)}/${id}`)).status).toBe(404);
    expect((await list()).map((x) => x.id)).not.toContain(id);
  });

  it('removes the subscribers with their page', async () => {
    const page = await newPage();
    await s.a.request('POST', bulkOf(page.id), { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'gone@example.com' }] });
    const before = await count('status_page_subscriptions');
    expect((await s.a.request('DELETE', `/v1/status-pages/${page.id}`)).status).toBe(204);
    expect(await count('status_page_subscriptions')).toBe(before - 1);
  });

  it('moves the public content version on with each subscriber write and tells the bus', async () => {
    const version = () => s.lookout.store.publicContentVersions.get(s.a.accountId);
    const changes: { version: number; subject: string; subjectId: string }[] = [];
    const off = s.lookout.bus.subscribe('publicContentChanged', (e) => {
      if (e.accountId === s.a.accountId) changes.push({ version: e.version, subject: e.subject, subjectId: e.subjectId });
    });
    try {
      const start = await version();
      const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'EMAIL', config: 'events@example.com' }] });
      const text = decoded(mails.at(-1)!.raw);
      await s.raw('GET', linkIn(text, 'confirm'));
      await s.raw('GET', linkIn(text, 'confirm'));
      await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'EMAIL', config: 'events@example.com' }] });
      await s.raw('POST', linkIn(text, 'unsubscribe'));
      expect(res.status).toBe(201);
      // Created, confirmed, unsubscribed: a second confirm and a bulk that skips everything change nothing.
      expect(await version()).toBe(start + 3);
      await expect.poll(() => changes.slice(-3)).toEqual([1, 2, 3].map((n) => ({ version: start + n, subject: 'subscription', subjectId: pageId })));
    } finally {
      off();
    }
  });

  describe('bad input gets a 4xx naming the key and writes nothing', () => {
    const email = (config: string) => ({ type: 'EMAIL', config });
    it.each<[string, unknown, string[]]>([
      ['no subscriptions', { subscriptions: [] }, ['subscriptions']],
      ['subscriptions left out', { autoVerify: true }, ['subscriptions']],
      ['101 subscriptions', { subscriptions: Array.from({ length: 101 }, (_, i) => email(`u${i}@example.com`)) }, ['subscriptions']],
      ['an address without @', { subscriptions: [email('ops.example.com')] }, ['subscriptions.0.config']],
      ['an address without a domain dot', { subscriptions: [email('ok@example.com'), email('ops@localhost')] }, ['subscriptions.1.config']],
      ['an address with a display name', { subscriptions: [email('Ops <ops@example.com>')] }, ['subscriptions.0.config']],
      ['an address smuggling a second recipient', { subscriptions: [email('ops@example.com,boss@example.com')] }, ['subscriptions.0.config']],
      ['an address with a line break', { subscriptions: [email('ops@example.com\r\nBcc: x@example.com')] }, ['subscriptions.0.config']],
      ['an empty address', { subscriptions: [email('')] }, ['subscriptions.0.config']],
      ['a webhook that is no URL', { subscriptions: [{ type: 'WEBHOOK', config: 'hooks.example/x' }] }, ['subscriptions.0.config']],
      ['a webhook on ftp', { subscriptions: [{ type: 'WEBHOOK', config: 'ftp://hooks.example/x' }] }, ['subscriptions.0.config']],
      ['an email address as webhook', { subscriptions: [{ type: 'WEBHOOK', config: 'ops@example.com' }] }, ['subscriptions.0.config']],
      ['an unknown type', { subscriptions: [{ type: 'SMS', config: '+15550100' }] }, ['subscriptions.0.type']],
      ['a lower-case type', { subscriptions: [{ type: 'email', config: 'ops@example.com' }] }, ['subscriptions.0.type']],
      ['autoVerify as text', { autoVerify: 'yes', subscriptions: [email('ops@example.com')] }, ['autoVerify']],
      ['every bad address at once', { subscriptions: [email('a'), email('ok@example.com'), { type: 'WEBHOOK', config: 'b' }] }, ['subscriptions.0.config', 'subscriptions.2.config']],
    ])('%s', async (_name, body, keys) => {
      const before = await counts();
      const sentBefore = mails.length;
      const res = await s.a.request('POST', bulkOf(pageId), body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', validation: { source: 'payload' } });
      expect(res.body.validation.keys).toEqual(keys);
      expect(await counts()).toEqual(before);
      expect(mails.length).toBe(sentBefore);
    });

    it('answers malformed ids with a 400 naming them', async () => {
      const res = await s.a.request('DELETE', `${subscriptionsOf(pageId)}/nope`);
      expect(res.status).toBe(400);
      expect(res.body.validation).toMatchObject({ source: 'params', keys: ['subscriptionId'] });
    });
  });

  it('describes its API routes and leaves the subscriber links out of the document', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/status-pages/{statusPageId}/subscriptions/bulk'].post.operationId).toBe('createStatusPageSubscriptions');
    expect(doc.paths['/v1/status-pages/{statusPageId}/subscriptions/bulk'].post.responses['409']).toBeTruthy();
    expect(doc.paths['/v1/status-pages/{statusPageId}/subscriptions/{subscriptionId}'].delete.operationId).toBe('deleteStatusPageSubscription');
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/status/'))).toEqual([]);
  });
});

describe.each(BACKENDS)('status page subscribers without an SMTP server ($name)', (backend) => {
  let s: TestServer;
  let pageId: string;
  beforeAll(async () => {
    s = await startTestServer({ backend, config: { smtpUrl: undefined } });
    pageId = (await s.a.request('POST', '/v1/status-pages', { name: 'No mail', url: 'no-mail', cards: [] })).body.id;
  });
  afterAll(async () => s?.close());

  it('refuses EMAIL subscribers that need a confirmation with 409 naming SMTP_URL and autoVerify, writing nothing', async () => {
    const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'WEBHOOK', config: 'https://hooks.example/x' }, { type: 'EMAIL', config: 'ops@example.com' }] });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('SMTP_URL');
    expect(res.body.message).toContain('autoVerify');
    expect((await s.a.request('GET', subscriptionsOf(pageId))).body).toEqual([]);
    const version = await s.lookout.store.publicContentVersions.get(s.a.accountId);

    const verified = await s.a.request('POST', bulkOf(pageId), { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'ops@example.com' }] });
    expect(verified.status).toBe(201);
    expect(verified.body).toMatchObject({ created: 1, status: 'VERIFIED' });
    expect(await s.lookout.store.publicContentVersions.get(s.a.accountId)).toBe(version + 1);
  });
});

describe('webhook subscribers on private addresses, with LOOKOUT_ALLOW_PRIVATE_TARGETS unset', () => {
  let s: TestServer;
  let hooks: HttpReceiver;
  let pageId: string;
  beforeAll(async () => {
    hooks = await startHttpReceiver();
    s = await startTestServer({ config: { alertTimeoutMs: 5000 } });
    pageId = (await s.a.request('POST', '/v1/status-pages', { name: 'Private', url: 'private-targets', cards: [] })).body.id;
  });
  afterAll(async () => {
    await s?.close();
    await hooks?.close();
  });

  it.each([
    'http://127.0.0.1:9/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/hook',
    'http://192.168.0.10/hook', 'http://[::ffff:127.0.0.1]/hook', 'http://[fd00::1]/hook', 'http://localhost:8080/hook',
  ])('refuses %s at subscribe time with 400 naming the key and the setting, writing nothing', async (url) => {
    const res = await s.a.request('POST', bulkOf(pageId), { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'fine@example.com' }, { type: 'WEBHOOK', config: url }] });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toEqual(['subscriptions.1.config']);
    expect(res.body.message).toContain('LOOKOUT_ALLOW_PRIVATE_TARGETS');
    expect((await s.a.request('GET', subscriptionsOf(pageId))).body).toEqual([]);
  });

  // This machine's own name resolves to one of its addresses; skipped where that is a public one.
  it.skipIf(!OWN_NAME_IS_PRIVATE)('refuses to connect to a name that resolves to a loopback address: the confirmation fails as refused_target and nothing arrives', async () => {
    const url = `${hooks.url.replace('127.0.0.1', hostname())}/named`;
    const res = await s.a.request('POST', bulkOf(pageId), { subscriptions: [{ type: 'WEBHOOK', config: url }] });
    expect(res.status).toBe(201);
    expect(res.body.subscriptions).toMatchObject([{ status: 'PENDING', confirmation: 'FAILED', confirmationError: 'refused_target' }]);
    expect(hooks.to('/named')).toEqual([]);
  });
});
