import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookSignature } from '../../src/domain/webhook-signature.js';
import { isPrivateAddress } from '../../src/domain/is-private-address.js';
import type { EventBus } from '../../src/events/event-bus.js';
import { createAlerting } from '../../src/jobs/alerting/create-alerting.js';
import { createSubscriberNotifier, type SubscriberNotifier } from '../../src/jobs/subscriber-notifications/create-subscriber-notifier.js';
import { smtpSendMails } from '../../src/service/status-page-subscription-mailer.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from '../support/http-receiver.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const PUBLIC_URL = 'https://status.lookout.test';
const SERVICES = '/v1/status-pages/services';
const INCIDENTS = '/v1/status-pages/incidents';
const DELIVERIES = '/v1/status-pages/subscriber-deliveries';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const RETRY_DELAYS = [1000, 5000];
const TIMEOUT = 5000;
/** The notifier's default lease: six times the time limit of an attempt. */
const LEASE = TIMEOUT * 6;
const SWEEP = 30_000;

interface Mail {
  to: string[];
  raw: string;
}

/** The text of a raw mail with quoted-printable soft breaks and escapes undone and folded headers unfolded. */
const decoded = (raw: string) => raw
  .replace(/=\r?\n/g, '')
  .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  .replace(/\r?\n[ \t]+/g, ' ');
const subjectOf = (mail: Mail) => /^Subject: (.*?)\r?$/m.exec(decoded(mail.raw))?.[1];

/** Whether this machine's name resolves to a private address (a name the connect-time guard must refuse). */
const OWN_NAME_IS_PRIVATE = isPrivateAddress((await lookup(hostname())).address);

describe.each(BACKENDS)('status page subscriber notifications ($name)', (backend) => {
  let s: TestServer;
  let smtp: SMTPServer;
  let smtpUrl: string;
  let hooks: HttpReceiver;
  const mails: Mail[] = [];
  let clock: ManualClock;
  let notifiers: SubscriberNotifier[];
  let notifier: SubscriberNotifier;
  let slugs = 0;
  let theirHook: string;
  let theirService: string;

  /** A notifier of this test; the webhook receiver listens on loopback, so private targets are allowed unless `guarded`. */
  const start = (bus: EventBus = s.lookout.bus, guarded = false): SubscriberNotifier => {
    const n = createSubscriberNotifier({
      allowPrivateTargets: !guarded,
      store: s.lookout.store,
      bus,
      logger: pino({ level: 'silent' }),
      publicUrl: PUBLIC_URL,
      sendMails: smtpSendMails({ smtpUrl, smtpFrom: 'Acme status <status@acme.test>', timeoutMs: TIMEOUT }),
      clock,
      retryDelaysMs: RETRY_DELAYS,
      timeoutMs: TIMEOUT,
      sweepIntervalMs: SWEEP,
    });
    notifiers.push(n);
    return n;
  };
  const idle = () => Promise.all(notifiers.map((n) => n.idle()));

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    hooks = await startHttpReceiver();
    s = await startTestServer({ backend, config: { publicUrl: PUBLIC_URL, allowPrivateTargets: true } });
    // Another account with a verified subscriber of a page showing its own service: it never hears of this account's incidents.
    theirService = await createService(s.b, 'Theirs');
    const theirPage = await createPage(s.b, 'Their status', [theirService]);
    theirHook = `/theirs/${backend.name}`;
    await subscribe(s.b, theirPage.id, [{ type: 'WEBHOOK', config: `${hooks.url}${theirHook}` }]);
  });
  afterAll(async () => {
    await s?.close();
    await hooks?.close();
    if (smtp) await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });
  beforeEach(async () => {
    clock = createManualClock(new Date());
    notifiers = [];
    notifier = start();
    await notifier.resume();
  });
  afterEach(async () => {
    for (const n of notifiers) await n.close();
  });

  async function createService(client: TestClient, name: string): Promise<string> {
    const res = await client.request('POST', SERVICES, { name });
    expect(res.status).toBe(201);
    return res.body.id;
  }
  async function createPage(client: TestClient, name: string, serviceIds: string[]): Promise<{ id: string; url: string }> {
    const res = await client.request('POST', '/v1/status-pages', {
      name, url: `notify-${backend.name}-${++slugs}`, cards: [{ name: 'Services', services: serviceIds.map((id) => ({ id })) }],
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  async function subscribe(client: TestClient, pageId: string, subscriptions: { type: string; config: string }[], autoVerify = true) {
    const res = await client.request('POST', `/v1/status-pages/${pageId}/subscriptions/bulk`, { autoVerify, subscriptions });
    expect(res.status).toBe(201);
    return res.body.subscriptions as { id: string; secret: string | null; status: string }[];
  }
  async function createIncident(client: TestClient, serviceId: string, updates: Record<string, unknown>[]) {
    const res = await client.request('POST', INCIDENTS, { name: 'Checkout is down', severity: 'MAJOR', services: [{ id: serviceId }], incidentUpdates: updates });
    expect(res.status).toBe(201);
    return res.body as { id: string; incidentUpdates: { id: string }[] };
  }
  async function postUpdate(incidentId: string, body: Record<string, unknown>) {
    const res = await s.a.request('POST', `${INCIDENTS}/${incidentId}/incident-updates`, body);
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }
  async function deliveries(client: TestClient, query: string) {
    const res = await client.request('GET', `${DELIVERIES}?limit=100&${query}`);
    expect(res.status).toBe(200);
    return res.body as Record<string, any>[];
  }
  const mailsTo = (address: string) => mails.filter((m) => m.to.includes(address.toLowerCase()));
  const notificationsOf = async (incidentId: string) =>
    (await s.lookout.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM subscriber_notifications WHERE subject_id = $1', [incidentId]))[0]!.n;
  const signed = (request: ReceivedRequest, secret: string) =>
    request.headers['x-lookout-signature'] === webhookSignature(secret, request.body) && request.headers['x-checkly-signature'] === webhookSignature(secret, request.body);

  /**
   * A service shown by pages A and B (and B also shows another service, which page C shows alone),
   * with subscribers: one email address verified on A and on B (in another case), a verified
   * webhook on B, a PENDING webhook on A and a verified email on C.
   */
  async function scene() {
    const tag = randomUUID().slice(0, 8);
    const service = await createService(s.a, `Checkout ${tag}`);
    const other = await createService(s.a, `Search ${tag}`);
    const pageA = await createPage(s.a, 'Acme A', [service]);
    const pageB = await createPage(s.a, 'Acme B', [other, service]);
    const pageC = await createPage(s.a, 'Acme C', [other]);
    const email = `ops-${tag}@example.test`;
    const hookPath = `/hook/${tag}`;
    const pendingPath = `/pending/${tag}`;
    const [emailOnA] = await subscribe(s.a, pageA.id, [{ type: 'EMAIL', config: email }]);
    const [emailOnB, hookOnB] = await subscribe(s.a, pageB.id, [{ type: 'EMAIL', config: email.toUpperCase() }, { type: 'WEBHOOK', config: `${hooks.url}${hookPath}` }]);
    const [pending] = await subscribe(s.a, pageA.id, [{ type: 'WEBHOOK', config: `${hooks.url}${pendingPath}` }], false);
    expect(pending!.status).toBe('PENDING');
    const otherEmail = `search-${tag}@example.test`;
    await subscribe(s.a, pageC.id, [{ type: 'EMAIL', config: otherEmail }]);
    return { tag, service, other, pageA, pageB, pageC, email, otherEmail, hookPath, pendingPath, emailOnA: emailOnA!, emailOnB: emailOnB!, hookOnB: hookOnB! };
  }

  it('sends an update posted with notifySubscribers once to every verified subscriber of every page showing an affected service', async () => {
    const sc = await scene();
    const theirsBefore = hooks.to(theirHook).length;
    const incident = await createIncident(s.a, sc.service, [{ description: 'Payments fail', status: 'INVESTIGATING', notifySubscribers: true }]);
    await idle();

    // One mail for the address on both pages, through its subscription on the older page.
    const [mail, ...more] = mailsTo(sc.email);
    expect(more).toEqual([]);
    const text = decoded(mail!.raw);
    expect(subjectOf(mail!)).toBe('[Acme A] Checkout is down: Investigating');
    expect(text).toContain('Payments fail');
    expect(text).toContain(`Affected services: Checkout ${sc.tag}`);
    expect(text).toContain(`${PUBLIC_URL}/status/${sc.pageA.url}/incidents/${incident.id}`);
    // Headers are read from the raw message, unfolded (RFC 5322): decoding quoted-printable over them
    // would turn a token starting with two hex digits ("token=E0…") into a character.
    const headers = mail!.raw.replace(/\r?\n(?=[ \t])/g, '');
    expect(headers).toMatch(new RegExp(`^List-Unsubscribe: <${PUBLIC_URL}/status/${sc.pageA.url}/subscriptions/unsubscribe\\?token=[A-Za-z0-9_-]+>\\r?$`, 'm'));
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

    const [hook, ...moreHooks] = hooks.to(sc.hookPath);
    expect(moreHooks).toEqual([]);
    expect(signed(hook!, sc.hookOnB.secret!)).toBe(true);
    expect(hook!.headers['x-lookout-event']).toBe('incidentUpdate');
    expect(hook!.json).toEqual({
      type: 'incidentUpdate',
      notificationId: expect.any(String),
      subscriptionId: sc.hookOnB.id,
      statusPage: { id: sc.pageB.id, name: 'Acme B', url: sc.pageB.url },
      incident: {
        id: incident.id, name: 'Checkout is down', severity: 'MAJOR', services: [{ id: sc.service, name: expect.stringMatching(/^Checkout /) }],
        url: `${PUBLIC_URL}/status/${sc.pageB.url}/incidents/${incident.id}`,
      },
      incidentUpdate: { id: incident.incidentUpdates[0]!.id, description: 'Payments fail', status: 'INVESTIGATING', publicIncidentUpdateDate: expect.any(String) },
      unsubscribeUrl: expect.stringContaining(`${PUBLIC_URL}/status/${sc.pageB.url}/subscriptions/unsubscribe?token=`),
    });

    // A PENDING subscriber got its confirmation only; a page without an affected service and another account nothing.
    expect(hooks.to(sc.pendingPath).map((r) => r.json.type)).toEqual(['subscriptionConfirmation']);
    expect(mailsTo(sc.otherEmail)).toEqual([]);
    expect(hooks.to(theirHook)).toHaveLength(theirsBefore);

    const listed = await deliveries(s.a, `incidentId=${incident.id}`);
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(expect.arrayContaining([
      {
        id: expect.any(String), notificationId: hook!.json.notificationId, subjectType: 'INCIDENT', kind: 'UPDATE', subjectId: incident.id,
        updateId: incident.incidentUpdates[0]!.id, statusPageId: sc.pageA.id, subscriptionId: sc.emailOnA.id, channel: 'EMAIL', address: sc.email,
        status: 'SENT', attempt: 1, error: null, responseStatus: null, nextAttemptAt: null, created_at: expect.any(String), updated_at: expect.any(String),
      },
      expect.objectContaining({ statusPageId: sc.pageB.id, subscriptionId: sc.hookOnB.id, channel: 'WEBHOOK', status: 'SENT', attempt: 1, responseStatus: null }),
    ]));

    // A further update is a further message; its own status, or the incident's when it has none.
    await postUpdate(incident.id, { description: 'Still on it', notifySubscribers: true });
    await idle();
    expect(mailsTo(sc.email).map(subjectOf)).toEqual(['[Acme A] Checkout is down: Investigating', '[Acme A] Checkout is down: Investigating']);
    await postUpdate(incident.id, { description: 'Fixed', status: 'RESOLVED', notifySubscribers: true });
    await idle();
    expect(mailsTo(sc.email).map(subjectOf).at(-1)).toBe('[Acme A] Checkout is down: Resolved');
    expect(hooks.to(sc.hookPath).map((r) => r.json.incidentUpdate.status)).toEqual(['INVESTIGATING', 'INVESTIGATING', 'RESOLVED']);
    expect(await deliveries(s.a, `incidentId=${incident.id}`)).toHaveLength(6);
  });

  it('sends nothing for an update posted without notifySubscribers, nor when an update is edited', async () => {
    const sc = await scene();
    const incident = await createIncident(s.a, sc.service, [{ description: 'Quiet', notifySubscribers: false }]);
    const quiet = await postUpdate(incident.id, { description: 'Also quiet' });
    const edited = await s.a.request('PUT', `${INCIDENTS}/${incident.id}/incident-updates/${quiet.id}`, { description: 'Now loud', notifySubscribers: true });
    expect(edited.status).toBe(200);
    expect(edited.body.notifySubscribers).toBe(true);
    const first = incident.incidentUpdates[0]!.id;
    expect((await s.a.request('PUT', `${INCIDENTS}/${incident.id}/incident-updates/${first}`, { notifySubscribers: true, description: 'Loud too' })).status).toBe(200);
    expect(await notificationsOf(incident.id)).toBe(0);
    await idle();
    expect(mailsTo(sc.email)).toEqual([]);
    expect(hooks.to(sc.hookPath)).toEqual([]);

    // Only the update posted with the flag, among several posted together, is sent.
    const mixed = await createIncident(s.a, sc.service, [
      { description: 'Backfilled', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-01-01T10:00:00Z' },
      { description: 'Announced', status: 'IDENTIFIED', notifySubscribers: true },
    ]);
    await idle();
    expect(await notificationsOf(mixed.id)).toBe(1);
    expect(hooks.to(sc.hookPath).map((r) => r.json.incidentUpdate.description)).toEqual(['Announced']);
    expect(mailsTo(sc.email).map(subjectOf)).toEqual(['[Acme A] Checkout is down: Identified']);
  });

  it('retries a webhook that answered 500 after the first delay, and lists both attempts', async () => {
    const sc = await scene();
    hooks.answer(sc.hookPath, 500);
    const incident = await createIncident(s.a, sc.service, [{ description: 'Payments fail', notifySubscribers: true }]);
    await idle();
    expect(hooks.to(sc.hookPath)).toHaveLength(1);
    const failed = await deliveries(s.a, `subscriptionId=${sc.hookOnB.id}`);
    expect(failed).toMatchObject([
      { status: 'PENDING', attempt: 2, error: null, responseStatus: null, nextAttemptAt: new Date(clock.now().getTime() + RETRY_DELAYS[0]!).toISOString(), updated_at: null },
      // The class of the failure only: what the webhook answered is not shown.
      { status: 'FAILED', attempt: 1, error: 'http_error', responseStatus: null, nextAttemptAt: null },
    ]);

    clock.advance(RETRY_DELAYS[0]!);
    await idle();
    const [first, second] = hooks.to(sc.hookPath);
    // The same message again, with a fresh unsubscribe link.
    expect({ ...second!.json, unsubscribeUrl: null }).toEqual({ ...first!.json, unsubscribeUrl: null });
    expect(signed(second!, sc.hookOnB.secret!)).toBe(true);
    expect(await deliveries(s.a, `subscriptionId=${sc.hookOnB.id}`)).toMatchObject([
      { status: 'SENT', attempt: 2, responseStatus: null, notificationId: failed[1]!.notificationId },
      { status: 'FAILED', attempt: 1 },
    ]);
    expect(await deliveries(s.a, `incidentId=${incident.id}&status=FAILED`)).toHaveLength(1);
    // The email went through at once: one attempt.
    expect(await deliveries(s.a, `subscriptionId=${sc.emailOnA.id}`)).toMatchObject([{ status: 'SENT', attempt: 1 }]);
  });

  it.each([
    ['gives up after the last retry of a webhook that keeps failing', [503, 503, 503], ['FAILED', 'FAILED', 'FAILED']],
    ['does not retry a webhook that refused with 404', [404], ['FAILED']],
  ])('%s', async (_name, answers, statuses) => {
    const sc = await scene();
    hooks.answer(sc.hookPath, ...answers);
    await createIncident(s.a, sc.service, [{ description: 'Payments fail', notifySubscribers: true }]);
    await idle();
    for (const delay of RETRY_DELAYS) {
      clock.advance(delay);
      await idle();
    }
    clock.advance(SWEEP);
    await idle();
    expect(hooks.to(sc.hookPath)).toHaveLength(answers.length);
    const listed = await deliveries(s.a, `subscriptionId=${sc.hookOnB.id}`);
    expect(listed.map((d) => d.status)).toEqual(statuses);
    expect(listed.map((d) => d.attempt)).toEqual(statuses.map((_, i) => statuses.length - i));
  });

  // This machine's own name resolves to one of its addresses; skipped where that is a public one.
  it.skipIf(!OWN_NAME_IS_PRIVATE)('refuses to deliver to a webhook whose name resolves to a loopback address without LOOKOUT_ALLOW_PRIVATE_TARGETS: FAILED as refused_target, not retried', async () => {
    await notifier.close();
    notifiers = [];
    notifier = start(s.lookout.bus, true);
    await notifier.resume();
    const service = await createService(s.a, `Guarded ${randomUUID().slice(0, 8)}`);
    const page = await createPage(s.a, 'Guarded', [service]);
    const hookPath = `/named/${randomUUID()}`;
    const [hook] = await subscribe(s.a, page.id, [{ type: 'WEBHOOK', config: `${hooks.url.replace('127.0.0.1', hostname())}${hookPath}` }]);
    await createIncident(s.a, service, [{ description: 'Down', notifySubscribers: true }]);
    await idle();
    expect(await deliveries(s.a, `subscriptionId=${hook!.id}`)).toMatchObject([{ status: 'FAILED', attempt: 1, error: 'refused_target', responseStatus: null }]);
    clock.advance(RETRY_DELAYS.reduce((a, b) => a + b, 0));
    await idle();
    expect(await deliveries(s.a, `subscriptionId=${hook!.id}`)).toHaveLength(1);
    expect(hooks.to(hookPath)).toEqual([]);
  });

  it('delivers exactly once what a worker fanned out before it stopped, and takes over an attempt whose lease ended', async () => {
    await notifier.close();
    const sc = await scene();
    const incident = await createIncident(s.a, sc.service, [{ description: 'Payments fail', notifySubscribers: true }]);
    expect(await notificationsOf(incident.id)).toBe(1);
    // A first worker fanned the notification out, took the webhook attempt and died before sending it.
    const store = s.lookout.store;
    const queued = await store.transaction(async (tx) => {
      const mine = (await tx.subscriberNotifications.claimPending(50)).filter((n) => n.subject_id === incident.id);
      return tx.subscriberNotifications.fanOut(mine[0]!, clock.now());
    });
    expect(queued).toHaveLength(2);
    const listed = await deliveries(s.a, `incidentId=${incident.id}`);
    const webhook = listed.find((d) => d.channel === 'WEBHOOK')!;
    const lostToken = randomUUID();
    expect(await store.subscriberDeliveries.claim(webhook.id, clock.now(), new Date(clock.now().getTime() + LEASE), lostToken)).toBeTruthy();

    const second = start();
    await second.resume();
    await idle();
    expect(mailsTo(sc.email)).toHaveLength(1);
    expect(hooks.to(sc.hookPath)).toEqual([]);

    clock.advance(LEASE);
    await idle();
    expect(hooks.to(sc.hookPath)).toHaveLength(1);
    // The first worker's late outcome is dropped; nothing runs twice.
    expect(await store.subscriberDeliveries.complete(webhook.id, lostToken, { status: 'FAILED', error: 'late', responseStatus: null, at: clock.now() })).toBe(false);
    clock.advance(SWEEP * 2);
    await idle();
    expect(mailsTo(sc.email)).toHaveLength(1);
    expect(hooks.to(sc.hookPath)).toHaveLength(1);
    expect((await deliveries(s.a, `incidentId=${incident.id}`)).map((d) => [d.channel, d.status, d.attempt]).sort())
      .toEqual([['EMAIL', 'SENT', 1], ['WEBHOOK', 'SENT', 1]]);
  });

  it('sends each message once when two workers share the store', async () => {
    start();
    const sc = await scene();
    await createIncident(s.a, sc.service, [{ description: 'Payments fail', notifySubscribers: true }]);
    await createIncident(s.a, sc.service, [{ description: 'Search fails', notifySubscribers: true }]);
    await idle();
    expect(mailsTo(sc.email)).toHaveLength(2);
    expect(hooks.to(sc.hookPath).map((r) => r.json.incidentUpdate.description).sort()).toEqual(['Payments fail', 'Search fails']);
    expect(await deliveries(s.a, `subscriptionId=${sc.hookOnB.id}`)).toHaveLength(2);
  });

  it('sends nothing to a subscriber removed after the fan-out, recording why', async () => {
    await notifier.close();
    const sc = await scene();
    const incident = await createIncident(s.a, sc.service, [{ description: 'Payments fail', notifySubscribers: true }]);
    await s.lookout.store.transaction(async (tx) => {
      const mine = (await tx.subscriberNotifications.claimPending(50)).filter((n) => n.subject_id === incident.id);
      return tx.subscriberNotifications.fanOut(mine[0]!, clock.now());
    });
    expect((await s.a.request('DELETE', `/v1/status-pages/${sc.pageB.id}/subscriptions/${sc.hookOnB.id}`)).status).toBe(204);
    const second = start();
    await second.resume();
    await idle();
    expect(hooks.to(sc.hookPath)).toEqual([]);
    expect(mailsTo(sc.email)).toHaveLength(1);
    expect(await deliveries(s.a, `incidentId=${incident.id}&statusPageId=${sc.pageB.id}`)).toMatchObject([{
      channel: 'WEBHOOK', subscriptionId: null, status: 'FAILED', attempt: 1, error: expect.stringContaining('removed'),
    }]);
  });

  it('lists deliveries newest first with filters and offset paging, each account only its own', async () => {
    const sc = await scene();
    const one = await createIncident(s.a, sc.service, [{ description: 'One', notifySubscribers: true }]);
    clock.advance(1000);
    const two = await createIncident(s.a, sc.service, [{ description: 'Two', notifySubscribers: true }]);
    await idle();
    expect((await deliveries(s.a, `incidentId=${one.id}`)).map((d) => d.subjectId)).toEqual([one.id, one.id]);
    expect((await deliveries(s.a, `statusPageId=${sc.pageB.id}`)).map((d) => [d.channel, d.subjectId])).toEqual([['WEBHOOK', two.id], ['WEBHOOK', one.id]]);
    expect((await deliveries(s.a, `subscriptionId=${sc.emailOnA.id}&status=SENT`)).map((d) => d.subjectId)).toEqual([two.id, one.id]);
    expect(await deliveries(s.a, `subscriptionId=${sc.emailOnB.id}`)).toEqual([]);
    expect(await deliveries(s.a, `statusPageId=${sc.pageC.id}`)).toEqual([]);
    expect(await deliveries(s.a, `incidentId=${one.id}&status=PENDING`)).toEqual([]);
    expect(await deliveries(s.a, `maintenanceId=${one.id}`)).toEqual([]);

    const paged = await s.a.request('GET', `${DELIVERIES}?subscriptionId=${sc.hookOnB.id}&limit=1&page=2`);
    expect(paged.status).toBe(200);
    expect(paged.headers.get('content-range')).toBe('1-1/2');
    expect(paged.body.map((d: { subjectId: string }) => d.subjectId)).toEqual([one.id]);
    const past = await s.a.request('GET', `${DELIVERIES}?subscriptionId=${sc.hookOnB.id}&page=3&limit=1`);
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')).toBe('*/2');

    for (const query of [`incidentId=${one.id}`, `statusPageId=${sc.pageB.id}`, `subscriptionId=${sc.hookOnB.id}`, `incidentId=${UNKNOWN}`]) {
      expect(await deliveries(s.b, query), query).toEqual([]);
    }
    const theirs = await createIncident(s.b, theirService, [{ description: 'Theirs', notifySubscribers: true }]);
    await idle();
    expect((await deliveries(s.b, '')).map((d) => [d.subjectId, d.status])).toEqual([[theirs.id, 'SENT']]);
    expect(await deliveries(s.a, `incidentId=${theirs.id}`)).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['incidentId=nope', 'incidentId'],
    ['maintenanceId=12', 'maintenanceId'],
    ['statusPageId=x', 'statusPageId'],
    ['subscriptionId=x', 'subscriptionId'],
    ['status=DONE', 'status'],
  ])('refuses ?%s with 400 naming %s', async (query, key) => {
    const res = await s.a.request('GET', `${DELIVERIES}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', validation: { source: 'query', keys: [key] } });
  });

  it('notifies once when a check whose triggerIncident has notifySubscribers opens an incident, and again when it resolves it', async () => {
    const sc = await scene();
    const recorder = testRecorder(s.lookout.store);
    const alerting = createAlerting({ store: s.lookout.store, bus: recorder.bus, logger: pino({ level: 'silent' }), clock });
    const onRecorderBus = start(recorder.bus);
    await onRecorderBus.resume();
    try {
      const created = await s.a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
        name: 'Checkout API',
        request: { url: 'https://shop.test/' },
        useGlobalAlertSettings: false,
        alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 } },
        triggerIncident: { serviceId: sc.service, name: 'Checkout API is down', description: 'Orders fail', severity: 'CRITICAL', notifySubscribers: true },
      });
      expect(created.status).toBe(201);
      const run = async (hasFailures: boolean) => {
        await recorder.record({
          check: runnable(s.a, created.body), probe: probe({ at: clock.now(), hasFailures, errors: hasFailures ? [{ code: 'ASSERTION_FAILED', message: 'status 503' }] : [] }),
        });
        await alerting.idle();
        await idle();
        clock.advance(60_000);
      };
      await run(false);
      expect(mailsTo(sc.email)).toEqual([]);
      await run(true);
      await run(true);
      expect(mailsTo(sc.email).map(subjectOf)).toEqual(['[Acme A] Checkout API is down: Investigating']);
      expect(hooks.to(sc.hookPath).map((r) => [r.json.incident.severity, r.json.incidentUpdate.description])).toEqual([['CRITICAL', 'Orders fail']]);
      await run(false);
      expect(mailsTo(sc.email).map(subjectOf)).toEqual(['[Acme A] Checkout API is down: Investigating', '[Acme A] Checkout API is down: Resolved']);
    } finally {
      await alerting.close();
    }
  });

  it('sends maintenance updates posted with notifySubscribers, and due reminders, to the subscribers of the window\'s pages', async () => {
    const sc = await scene();
    const startsAt = new Date(Date.now() + 48 * 3_600_000).toISOString();
    const endsAt = new Date(Date.now() + 50 * 3_600_000).toISOString();
    const window = await s.a.request('POST', '/v1/maintenance-windows', {
      name: 'Database upgrade', startsAt, endsAt,
      // Page C is linked too but shows none of the window's services: its subscribers are not told.
      statusPageVisibility: { enabled: true, statusPageIds: [sc.pageA.id, sc.pageC.id], serviceIds: [sc.service] },
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    const [maintenance] = (await s.a.request('GET', `/v1/maintenance-windows/${window.body.id}/maintenances`)).body as { id: string }[];
    const updates = `/v1/maintenance-windows/${window.body.id}/maintenances/${maintenance!.id}/updates`;
    expect((await s.a.request('POST', updates, { status: 'SCHEDULED', description: 'Quietly planned' })).status).toBe(201);
    const posted = await s.a.request('POST', updates, { status: 'SCHEDULED', description: 'Expect 2 hours of read-only mode', notifySubscribers: true });
    expect(posted.status).toBe(201);
    await idle();

    expect(mailsTo(sc.email).map(subjectOf)).toEqual(['[Acme A] Maintenance: Database upgrade: Scheduled']);
    expect(decoded(mailsTo(sc.email)[0]!.raw)).toContain(`${PUBLIC_URL}/status/${sc.pageA.url}/maintenances/${maintenance!.id}`);
    expect(mailsTo(sc.otherEmail)).toEqual([]);
    // Page B shows the service but does not show the window.
    expect(hooks.to(sc.hookPath)).toEqual([]);
    expect(await deliveries(s.a, `maintenanceId=${maintenance!.id}`)).toMatchObject([
      { subjectType: 'MAINTENANCE', kind: 'UPDATE', subjectId: maintenance!.id, updateId: posted.body.id, statusPageId: sc.pageA.id, channel: 'EMAIL', status: 'SENT' },
    ]);

    // A reminder the maintenance clock recorded is picked up by the next sweep.
    const recorded = await s.lookout.store.maintenanceUpdates.recordReminder(randomUUID(), {
      maintenanceId: maintenance!.id, accountId: s.a.accountId, windowId: window.body.id, minutesBefore: 60, startsAt: new Date(startsAt),
      dueAt: new Date(Date.parse(startsAt) - 3_600_000), superseded: false,
    });
    expect(recorded).toBe(true);
    clock.advance(SWEEP);
    await idle();
    expect(mailsTo(sc.email).map(subjectOf).at(-1)).toBe('[Acme A] Scheduled maintenance: Database upgrade starts in 1 hour');
    expect((await deliveries(s.a, `maintenanceId=${maintenance!.id}`)).map((d) => d.kind)).toEqual(['REMINDER', 'UPDATE']);
    clock.advance(SWEEP);
    await idle();
    expect(mailsTo(sc.email)).toHaveLength(2);

    // The clock's announcement of a reminder is enough: no sweep needed.
    expect(await s.lookout.store.maintenanceUpdates.recordReminder(randomUUID(), {
      maintenanceId: maintenance!.id, accountId: s.a.accountId, windowId: window.body.id, minutesBefore: 30, startsAt: new Date(startsAt),
      dueAt: new Date(Date.parse(startsAt) - 1_800_000), superseded: false,
    })).toBe(true);
    await s.lookout.bus.publish({ type: 'maintenanceReminderDue', accountId: s.a.accountId, maintenanceWindowId: window.body.id, maintenanceId: maintenance!.id });
    await expect.poll(async () => {
      await idle();
      return mailsTo(sc.email).map(subjectOf).at(-1);
    }).toBe('[Acme A] Scheduled maintenance: Database upgrade starts in 30 minutes');
  });
});
