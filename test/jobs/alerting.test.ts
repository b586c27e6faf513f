import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import type { AlertNotifiedEvent } from '../../src/events/lookout-event.js';
import { createAlerting, type Alerting, type AlertingOptions } from '../../src/jobs/alerting/create-alerting.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LOCATIONS = ['eu-west-1', 'us-east-1', 'ap-south-1', 'sa-east-1'];

type Outcome = 'pass' | 'fail' | 'degraded';

/** Alert settings of a check with its own settings; the rest as conventions.md defaults them. */
function settings(overrides: Record<string, unknown> = {}) {
  return {
    escalationType: 'RUN_BASED',
    runBasedEscalation: { failedRunThreshold: 1 },
    reminders: { amount: 0, interval: 5 },
    parallelRunFailureThreshold: { enabled: false, percentage: 10 },
    ...overrides,
  };
}

describe.each(BACKENDS)('alerting on $name', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;
  let receiver: HttpReceiver;
  let clock: ManualClock;
  let recorder: ReturnType<typeof testRecorder>;
  let alerting: Alerting;
  let notified: AlertNotifiedEvent[];

  const start = (overrides: Partial<AlertingOptions> = {}): Alerting => createAlerting({
    store: server.lookout.store,
    bus: recorder.bus,
    logger: pino({ level: 'silent' }),
    clock,
    retryDelaysMs: [1000, 5000, 20_000],
    timeoutMs: 5000,
    parallelWindowMs: 2 * MINUTE,
    ...overrides,
  });

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ a, b } = server);
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });
  beforeEach(() => {
    clock = createManualClock(new Date());
    recorder = testRecorder(server.lookout.store);
    notified = [];
    recorder.bus.subscribe('alertNotified', (e) => notified.push(e));
    alerting = start();
  });
  afterEach(async () => alerting?.close());

  /** A webhook channel posting the default JSON body to a path of its own on the receiver. */
  const webhook = async (client: TestClient, flags: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => {
    const path = `/hook/${randomUUID()}`;
    const res = await client.request('POST', '/v1/alert-channels', {
      type: 'WEBHOOK', config: { name: 'Hook', url: `${receiver.url}${path}`, ...config }, ...flags,
    });
    expect(res.status).toBe(201);
    return { id: res.body.id as number, path };
  };
  const apiCheck = async (client: TestClient, body: Record<string, unknown>, channelIds: number[] = []) => {
    const res = await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name: `Check ${randomUUID().slice(0, 8)}`,
      request: { url: 'https://shop.test/' },
      useGlobalAlertSettings: false,
      alertSettings: settings(),
      alertChannelSubscriptions: channelIds.map((alertChannelId) => ({ alertChannelId, activated: true })),
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  const probeOf = (outcome: Outcome, overrides: Partial<ProbeResult> = {}) => probe({
    at: clock.now(),
    hasFailures: outcome === 'fail',
    isDegraded: outcome === 'degraded',
    errors: outcome === 'fail' ? [{ code: 'ASSERTION_FAILED', message: 'STATUS_CODE EQUALS 200 failed: 503' }] : [],
    ...overrides,
  });
  /** Records one FINAL result of `check` (as the runner does) and waits until alerting handled it. */
  const run = async (client: TestClient, check: Record<string, any>, outcome: Outcome, extra: { location?: string; sequenceId?: string; probe?: Partial<ProbeResult>; testSessionId?: string; resultType?: 'FINAL' | 'ATTEMPT' } = {}) => {
    const { probe: probeOverrides, ...input } = extra;
    await recorder.record({ check: runnable(client, check), probe: probeOf(outcome, probeOverrides), ...input });
    await alerting.idle();
  };
  const advance = async (ms: number) => {
    clock.advance(ms);
    await alerting.idle();
  };
  /** The alert types a receiver path got, in order. */
  const received = (path: string) => receiver.to(path).map((r) => r.json.alertType as string);
  const notifications = async (client: TestClient, query: string) => {
    const res = await client.request('GET', `/v1/alert-notifications?limit=100&${query}`);
    expect(res.status).toBe(200);
    return res.body as Record<string, any>[];
  };
  const checkAlerts = async (client: TestClient, checkId: string) => {
    const res = await client.request('GET', `/v1/check-alerts/${checkId}?limit=100`);
    expect(res.status).toBe(200);
    return res.body as Record<string, any>[];
  };

  describe('the state machine', () => {
    it('alerts once the failed-run threshold is reached and not again while the check keeps failing', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, { alertSettings: settings({ runBasedEscalation: { failedRunThreshold: 2 } }) }, [hook.id]);
      await run(a, check, 'fail');
      expect(received(hook.path)).toEqual([]);
      await run(a, check, 'fail');
      expect(received(hook.path)).toEqual(['ALERT_FAILURE_REMAIN']);
      await run(a, check, 'fail');
      await run(a, check, 'fail');
      expect(received(hook.path)).toEqual(['ALERT_FAILURE_REMAIN']);

      const [body] = receiver.to(hook.path).map((r) => r.json);
      expect(body).toMatchObject({
        checkId: check.id, checkName: check.name, checkType: 'API', runLocation: 'eu-west-1', isReminder: false,
        checkErrorMessage: 'STATUS_CODE EQUALS 200 failed: 503', checkResultId: expect.any(String),
      });
      const alerts = await checkAlerts(a, check.id);
      expect(alerts).toEqual([expect.objectContaining({
        checkId: check.id, name: check.name, alertType: 'ALERT_FAILURE_REMAIN', checkType: 'API', runLocation: 'eu-west-1',
        checkResultId: body.checkResultId, error: 'STATUS_CODE EQUALS 200 failed: 503', isReminder: false,
      })]);
      const sent = await notifications(a, `checkId=${check.id}`);
      expect(sent).toEqual([expect.objectContaining({
        status: 'SENT', attempt: 1, type: 'WEBHOOK', alertChannelId: hook.id, alertType: 'ALERT_FAILURE_REMAIN', checkAlertId: alerts[0]!.id,
        responseStatus: 200, error: null, timestamp: expect.any(String), nextAttemptAt: null,
      })]);
      expect(notified.map((e) => [e.accountId, e.checkId, e.notification.id])).toEqual([[a.accountId, check.id, sent[0]!.id]]);
    });

    it('sends the first failure at once with the default threshold, and a recovery only after a notified failure', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, {}, [hook.id]);
      await run(a, check, 'pass');
      await run(a, check, 'fail');
      await run(a, check, 'pass');
      expect(received(hook.path)).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY']);

      const quiet = await webhook(a);
      const slow = await apiCheck(a, { alertSettings: settings({ runBasedEscalation: { failedRunThreshold: 3 } }) }, [quiet.id]);
      await run(a, slow, 'fail');
      await run(a, slow, 'pass');
      expect(received(quiet.path)).toEqual([]);
    });

    it('notifies each move between degraded and failing, and a recovery from degraded only after a degraded alert', async () => {
      const hook = await webhook(a, { sendDegraded: true });
      const check = await apiCheck(a, {}, [hook.id]);
      for (const outcome of ['degraded', 'degraded', 'fail', 'degraded', 'pass'] as const) await run(a, check, outcome);
      expect(received(hook.path)).toEqual(['ALERT_DEGRADED', 'ALERT_DEGRADED_FAILURE', 'ALERT_FAILURE_DEGRADED', 'ALERT_DEGRADED_RECOVERY']);
    });

    it('escalates TIME_BASED once the check has failed for the configured minutes', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, { alertSettings: settings({ escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 10 } }) }, [hook.id]);
      await run(a, check, 'fail');
      clock.advance(5 * MINUTE);
      await run(a, check, 'fail');
      expect(received(hook.path)).toEqual([]);
      clock.advance(5 * MINUTE);
      await run(a, check, 'fail');
      expect(received(hook.path)).toEqual(['ALERT_FAILURE_REMAIN']);
    });

    it('delivers only the alert kinds each channel asks for, and nothing to deactivated subscriptions', async () => {
      const failures = await webhook(a, { sendFailure: true, sendRecovery: false, sendDegraded: false });
      const recoveries = await webhook(a, { sendFailure: false, sendRecovery: true, sendDegraded: false });
      const degradations = await webhook(a, { sendFailure: false, sendRecovery: false, sendDegraded: true });
      const off = await webhook(a);
      const check = await apiCheck(a, {
        alertChannelSubscriptions: [
          ...[failures, recoveries, degradations].map((h) => ({ alertChannelId: h.id, activated: true })),
          { alertChannelId: off.id, activated: false },
        ],
      });
      for (const outcome of ['fail', 'pass', 'degraded', 'pass'] as const) await run(a, check, outcome);
      expect(received(failures.path)).toEqual(['ALERT_FAILURE']);
      expect(received(recoveries.path)).toEqual(['ALERT_RECOVERY', 'ALERT_DEGRADED_RECOVERY']);
      expect(received(degradations.path)).toEqual(['ALERT_DEGRADED']);
      expect(received(off.path)).toEqual([]);
      expect((await checkAlerts(a, check.id)).map((x) => x.alertType)).toEqual(['ALERT_DEGRADED_RECOVERY', 'ALERT_DEGRADED', 'ALERT_RECOVERY', 'ALERT_FAILURE']);
    });

    it('sends nothing for a muted check but keeps its state, so unmuting does not replay the failure', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, { muted: true }, [hook.id]);
      await run(a, check, 'fail');
      await run(a, check, 'fail');
      expect(received(hook.path)).toEqual([]);
      expect(await checkAlerts(a, check.id)).toEqual([]);
      expect(await notifications(a, `checkId=${check.id}`)).toEqual([]);
      const [state] = await server.lookout.store.db.query<{ state: { status: string } }>('SELECT state FROM check_alert_states WHERE check_id = $1', [check.id]);
      expect(state!.state.status).toBe('FAILING');

      const res = await a.request('PUT', `/v1/checks/api/${check.id}`, { muted: false });
      expect(res.status).toBe(200);
      await run(a, { ...check, muted: false }, 'fail');
      expect(received(hook.path)).toEqual([]);
    });

    it('applies the account alert settings to checks with useGlobalAlertSettings, and their own to the others', async () => {
      const put = await b.request('PUT', '/v1/accounts/me', { alertSettings: { runBasedEscalation: { failedRunThreshold: 2 } } });
      expect(put.status).toBe(200);
      try {
        const hook = await webhook(b);
        const global = await apiCheck(b, { useGlobalAlertSettings: true, alertSettings: settings({ runBasedEscalation: { failedRunThreshold: 1 } }) }, [hook.id]);
        const own = await apiCheck(b, { useGlobalAlertSettings: false, alertSettings: settings({ runBasedEscalation: { failedRunThreshold: 1 } }) }, [hook.id]);
        await run(b, global, 'fail');
        await run(b, own, 'fail');
        expect(receiver.to(hook.path).map((r) => [r.json.checkId, r.json.alertType])).toEqual([[own.id, 'ALERT_FAILURE']]);
        await run(b, global, 'fail');
        expect(receiver.to(hook.path).map((r) => [r.json.checkId, r.json.alertType])).toEqual([[own.id, 'ALERT_FAILURE'], [global.id, 'ALERT_FAILURE_REMAIN']]);
      } finally {
        await b.request('PUT', '/v1/accounts/me', { alertSettings: { runBasedEscalation: { failedRunThreshold: 1 } } });
      }
    });

    it('uses the group alert settings and subscriptions for a check in a group', async () => {
      const groupHook = await webhook(a);
      const ownHook = await webhook(a);
      const group = await a.request('POST', '/v1/check-groups?autoAssignAlerts=false', {
        name: `Group ${randomUUID().slice(0, 8)}`,
        useGlobalAlertSettings: false,
        alertSettings: settings({ runBasedEscalation: { failedRunThreshold: 2 } }),
        alertChannelSubscriptions: [{ alertChannelId: groupHook.id, activated: true }],
      });
      expect(group.status).toBe(201);
      const check = await apiCheck(a, { groupId: group.body.id, locations: ['eu-west-1'] }, [ownHook.id]);
      await run(a, check, 'fail');
      expect(received(groupHook.path)).toEqual([]);
      await run(a, check, 'fail');
      expect(received(groupHook.path)).toEqual(['ALERT_FAILURE_REMAIN']);
      expect(receiver.to(groupHook.path)[0]!.json.groupName).toBe(group.body.name);
      expect(received(ownHook.path)).toEqual([]);
    });

    it('stores no alert state for a check that keeps passing', async () => {
      const check = await apiCheck(a, {}, []);
      await run(a, check, 'pass');
      await run(a, check, 'pass');
      expect(await server.lookout.store.db.query('SELECT 1 FROM check_alert_states WHERE check_id = $1', [check.id])).toEqual([]);
    });

    it('ignores ATTEMPT results and the runs of test sessions', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, {}, [hook.id]);
      await run(a, check, 'fail', { resultType: 'ATTEMPT' });
      await run(a, check, 'fail', { testSessionId: randomUUID() });
      expect(received(hook.path)).toEqual([]);
      expect(await checkAlerts(a, check.id)).toEqual([]);
    });
  });

  describe('reminders', () => {
    it('sends the configured number of reminders at the configured interval after a failure alert', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, { alertSettings: settings({ reminders: { amount: 2, interval: 5 } }) }, [hook.id]);
      await run(a, check, 'fail');
      await advance(4 * MINUTE);
      expect(received(hook.path)).toEqual(['ALERT_FAILURE']);
      await advance(1 * MINUTE);
      await advance(5 * MINUTE);
      await advance(30 * MINUTE);
      expect(received(hook.path)).toEqual(['ALERT_FAILURE', 'ALERT_FAILURE_REMAIN', 'ALERT_FAILURE_REMAIN']);
      expect(receiver.to(hook.path).map((r) => [r.json.isReminder, r.json.reminderSequence])).toEqual([[false, 0], [true, 1], [true, 2]]);
      const alerts = await checkAlerts(a, check.id);
      expect(alerts.map((x) => [x.alertType, x.isReminder, x.reminderSequence])).toEqual([
        ['ALERT_FAILURE_REMAIN', true, 2], ['ALERT_FAILURE_REMAIN', true, 1], ['ALERT_FAILURE', false, null],
      ]);
    });

    it('stops reminding when the check recovers', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, { alertSettings: settings({ reminders: { amount: 100000, interval: 10 } }) }, [hook.id]);
      await run(a, check, 'fail');
      await advance(10 * MINUTE);
      await run(a, check, 'pass');
      await advance(60 * MINUTE);
      expect(received(hook.path)).toEqual(['ALERT_FAILURE', 'ALERT_FAILURE_REMAIN', 'ALERT_RECOVERY']);
    });

    it('reschedules stored reminders when a new alerting process resumes', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, { alertSettings: settings({ reminders: { amount: 1, interval: 5 } }) }, [hook.id]);
      await run(a, check, 'fail');
      await alerting.close();
      alerting = start();
      await alerting.resume();
      await advance(5 * MINUTE);
      expect(received(hook.path)).toEqual(['ALERT_FAILURE', 'ALERT_FAILURE_REMAIN']);
    });
  });

  describe('parallel runs', () => {
    const parallelRun = async (check: Record<string, any>, failedLocations: number, opts: { locations?: string[] } = {}) => {
      const sequenceId = randomUUID();
      const locations = opts.locations ?? LOCATIONS;
      for (const [i, location] of locations.entries()) await run(a, check, i < failedLocations ? 'fail' : 'pass', { location, sequenceId });
    };

    it('judges a parallel run once, failing it only when parallelRunFailureThreshold of its locations failed', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, {
        runParallel: true, locations: LOCATIONS,
        alertSettings: settings({ parallelRunFailureThreshold: { enabled: true, percentage: 50 } }),
      }, [hook.id]);
      await parallelRun(check, 1);
      expect(received(hook.path)).toEqual([]);
      await parallelRun(check, 2);
      expect(received(hook.path)).toEqual(['ALERT_FAILURE']);
      expect(receiver.to(hook.path)[0]!.json.runLocation).toBe('eu-west-1');
      await parallelRun(check, 4);
      await parallelRun(check, 0);
      expect(received(hook.path)).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY']);
    });

    it('counts a parallel run with failed locations as one failed run toward failedRunThreshold', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, { runParallel: true, locations: LOCATIONS, alertSettings: settings({ runBasedEscalation: { failedRunThreshold: 2 } }) }, [hook.id]);
      await parallelRun(check, 3);
      expect(received(hook.path)).toEqual([]);
      await parallelRun(check, 1);
      expect(received(hook.path)).toEqual(['ALERT_FAILURE_REMAIN']);
    });

    it('judges a parallel run on the locations that reported when the others do not within the window', async () => {
      const hook = await webhook(a);
      const check = await apiCheck(a, { runParallel: true, locations: LOCATIONS }, [hook.id]);
      await parallelRun(check, 1, { locations: LOCATIONS.slice(0, 2) });
      expect(received(hook.path)).toEqual([]);
      await advance(2 * MINUTE);
      expect(received(hook.path)).toEqual(['ALERT_FAILURE']);
    });
  });

  describe('deliveries', () => {
    it('links every alert to its check and its result in the console under LOOKOUT_PUBLIC_URL, in the default body and as template variables', async () => {
      await alerting.close();
      alerting = start({ publicUrl: 'https://lookout.example.test/' });
      const hook = await webhook(a);
      const templated = await webhook(a, {}, { template: '{"test":{{IS_TEST}},"check":"{{CHECK_URL}}","result":"{{RESULT_URL}}"}' });
      const check = await apiCheck(a, {}, [hook.id, templated.id]);
      await run(a, check, 'fail');
      const [sent] = receiver.to(hook.path);
      const checkUrl = `https://lookout.example.test/checks/${check.id}`;
      expect(sent!.json).toMatchObject({ alertType: 'ALERT_FAILURE', checkUrl, resultUrl: `${checkUrl}?result=${sent!.json.checkResultId}` });
      expect(sent!.json.checkResultId).toEqual(expect.any(String));
      expect(sent!.json).not.toHaveProperty('isTest');
      expect(receiver.to(templated.path)[0]!.json).toEqual({ check: checkUrl, result: `${checkUrl}?result=${sent!.json.checkResultId}`, test: false });
    });

    it('retries a failing receiver with backoff, recording every attempt, until it accepts', async () => {
      const hook = await webhook(a);
      receiver.answer(hook.path, 500, 502);
      const check = await apiCheck(a, {}, [hook.id]);
      await run(a, check, 'fail');
      let attempts = await notifications(a, `alertChannelId=${hook.id}`);
      expect(attempts.map((n) => [n.attempt, n.status, n.responseStatus])).toEqual([[2, 'PENDING', null], [1, 'FAILED', 500]]);
      expect(attempts[1]!.error).toContain('HTTP 500');
      expect(attempts[0]!.nextAttemptAt).toBe(new Date(clock.now().getTime() + 1000).toISOString());

      await advance(999);
      expect(receiver.to(hook.path)).toHaveLength(1);
      await advance(1);
      expect(receiver.to(hook.path)).toHaveLength(2);
      await advance(5000);
      attempts = await notifications(a, `alertChannelId=${hook.id}`);
      expect(attempts.map((n) => [n.attempt, n.status, n.responseStatus])).toEqual([[3, 'SENT', 200], [2, 'FAILED', 502], [1, 'FAILED', 500]]);
      expect(new Set(attempts.map((n) => n.checkAlertId)).size).toBe(1);
      expect(notified.map((e) => e.notification.status)).toEqual(['FAILED', 'FAILED', 'SENT']);
      expect(await notifications(a, `alertChannelId=${hook.id}&status=FAILED`)).toHaveLength(2);
      expect(await notifications(a, `alertChannelId=${hook.id}&hasFailures=false`)).toHaveLength(1);
    });

    it('gives up after the last retry', async () => {
      const hook = await webhook(a);
      receiver.answer(hook.path, 500, 500, 500, 500, 500);
      const check = await apiCheck(a, {}, [hook.id]);
      await run(a, check, 'fail');
      for (const wait of [1000, 5000, 20_000, 60_000]) await advance(wait);
      const attempts = await notifications(a, `alertChannelId=${hook.id}`);
      expect(attempts.map((n) => [n.attempt, n.status])).toEqual([[4, 'FAILED'], [3, 'FAILED'], [2, 'FAILED'], [1, 'FAILED']]);
      expect(receiver.to(hook.path)).toHaveLength(4);
    });

    it('does not retry answers that cannot change, nor channels that are not configured', async () => {
      const gone = await webhook(a);
      receiver.answer(gone.path, 404);
      const email = await a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'ops@example.test' } });
      const check = await apiCheck(a, {}, [gone.id, email.body.id]);
      await run(a, check, 'fail');
      await advance(60_000);
      expect((await notifications(a, `alertChannelId=${gone.id}`)).map((n) => [n.attempt, n.status, n.responseStatus])).toEqual([[1, 'FAILED', 404]]);
      const [mail] = await notifications(a, `alertChannelId=${email.body.id}`);
      expect(mail).toMatchObject({ attempt: 1, status: 'FAILED', type: 'EMAIL', error: expect.stringContaining('SMTP_URL not configured') });
    });

    it('keeps pending retries across a restart and delivers them when the next process resumes', async () => {
      const hook = await webhook(a);
      receiver.answer(hook.path, 503);
      const check = await apiCheck(a, {}, [hook.id]);
      await run(a, check, 'fail');
      await alerting.close();
      await advance(10_000);
      expect(receiver.to(hook.path)).toHaveLength(1);

      alerting = start();
      await alerting.resume();
      await alerting.idle();
      const attempts = await notifications(a, `alertChannelId=${hook.id}`);
      expect(attempts.map((n) => [n.attempt, n.status])).toEqual([[2, 'SENT'], [1, 'FAILED']]);
    });

    it('waits on close for a delivery in flight, records it, and leaves its retry stored with no timer running', async () => {
      await alerting.close();
      alerting = start({ timeoutMs: 300 });
      const hook = await webhook(a);
      receiver.hang(hook.path);
      const check = await apiCheck(a, {}, [hook.id]);
      await recorder.record({ check: runnable(a, check), probe: probeOf('fail') });
      await receiver.waitFor(hook.path, 1);
      await alerting.close();
      const attempts = await notifications(a, `alertChannelId=${hook.id}`);
      expect(attempts.map((n) => [n.attempt, n.status])).toEqual([[2, 'PENDING'], [1, 'FAILED']]);
      expect(attempts[1]!.error).toContain('within 300 ms');
      expect(clock.pending()).toBe(0);
    });

    it('fails a pending retry whose channel was deleted and keeps the attempts readable', async () => {
      const hook = await webhook(a);
      receiver.answer(hook.path, 500);
      const check = await apiCheck(a, {}, [hook.id]);
      await run(a, check, 'fail');
      expect((await a.request('DELETE', `/v1/alert-channels/${hook.id}`)).status).toBe(204);
      await advance(1000);
      const attempts = await notifications(a, `checkId=${check.id}`);
      expect(attempts.map((n) => [n.attempt, n.status, n.alertChannelId, n.error])).toEqual([
        [2, 'FAILED', null, 'the alert channel was deleted'], [1, 'FAILED', null, expect.stringContaining('HTTP 500')],
      ]);
    });
  });

  describe('SSL certificate alerts', () => {
    const sslProbe = (daysRemaining: number): Partial<ProbeResult> => ({ details: { ssl: { daysRemaining, subject: 'CN=shop.test', authorized: true } } });

    it('alerts channels with sslExpiry once a day while the certificate is under their threshold', async () => {
      const ssl = await webhook(a, { sslExpiry: true, sslExpiryThreshold: 14, sendFailure: false, sendRecovery: false });
      const strict = await webhook(a, { sslExpiry: true, sslExpiryThreshold: 5 });
      const noSsl = await webhook(a, { sslExpiry: false });
      const check = await apiCheck(a, {}, [ssl.id, strict.id, noSsl.id]);
      await run(a, check, 'pass', { probe: sslProbe(10) });
      expect(received(ssl.path)).toEqual(['ALERT_SSL']);
      expect(receiver.to(ssl.path)[0]!.json).toMatchObject({ sslDaysRemaining: 10, sslDomain: 'shop.test', alertTitle: expect.stringContaining('expires in 10 days') });
      await advance(12 * 60 * MINUTE);
      await run(a, check, 'pass', { probe: sslProbe(10) });
      expect(received(ssl.path)).toEqual(['ALERT_SSL']);
      await advance(12 * 60 * MINUTE);
      await run(a, check, 'pass', { probe: sslProbe(9) });
      expect(received(ssl.path)).toEqual(['ALERT_SSL', 'ALERT_SSL']);
      expect(received(strict.path)).toEqual([]);
      expect(received(noSsl.path)).toEqual([]);
      expect((await checkAlerts(a, check.id)).map((x) => [x.alertType, x.sslDaysRemaining])).toEqual([['ALERT_SSL', 9], ['ALERT_SSL', 10]]);
    });

    it('does not alert about certificates of muted checks', async () => {
      const ssl = await webhook(a, { sslExpiry: true });
      const check = await apiCheck(a, { muted: true }, [ssl.id]);
      await run(a, check, 'pass', { probe: sslProbe(2) });
      expect(received(ssl.path)).toEqual([]);
    });

    it('reads the certificate of sslCheckDomain when the check names one', async () => {
      const now = Date.now();
      const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
        keyType: 'ec', algorithm: 'sha256', notBeforeDate: new Date(now - DAY), notAfterDate: new Date(now + 3 * DAY + 3_600_000),
      });
      const tlsServer = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('ok'));
      tlsServer.listen(0, '127.0.0.1');
      await once(tlsServer, 'listening');
      try {
        const ssl = await webhook(a, { sslExpiry: true, sslExpiryThreshold: 7 });
        const domain = `127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
        const check = await apiCheck(a, { sslCheckDomain: domain }, [ssl.id]);
        await run(a, check, 'pass');
        expect(receiver.to(ssl.path).map((r) => [r.json.alertType, r.json.sslDaysRemaining, r.json.sslDomain])).toEqual([['ALERT_SSL', 3, '127.0.0.1']]);
      } finally {
        await new Promise((resolve) => tlsServer.close(resolve));
      }
    });
  });

  describe('accounts', () => {
    it('never delivers an account\'s alerts to another account\'s channels, even through a forged subscription', async () => {
      const hookA = await webhook(a);
      const hookB = await webhook(b);
      const checkA = await apiCheck(a, {}, [hookA.id]);
      await server.lookout.store.db.query(
        'INSERT INTO alert_channel_subscriptions (account_id, alert_channel_id, check_id, activated) VALUES ($1, $2, $3, true)',
        [a.accountId, hookB.id, checkA.id],
      );
      await run(a, checkA, 'fail');
      expect(received(hookA.path)).toEqual(['ALERT_FAILURE']);
      expect(received(hookB.path)).toEqual([]);
      expect(await notifications(b, `checkId=${checkA.id}`)).toEqual([]);
      expect(await notifications(b, `alertChannelId=${hookB.id}`)).toEqual([]);
      const res = await b.request('GET', `/v1/check-alerts/${checkA.id}`);
      expect(res.status).toBe(404);
      expect(notified.every((e) => e.accountId === a.accountId)).toBe(true);
    });
  });
});
