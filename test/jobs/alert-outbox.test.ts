import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryEventBus } from '../../src/events/create-memory-event-bus.js';
import type { EventBus } from '../../src/events/event-bus.js';
import { createAlerting, type Alerting, type AlertingOptions } from '../../src/jobs/alerting/create-alerting.js';
import { createRunRecorder } from '../../src/runner/create-run-recorder.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { freePort, startRedis, stopRedis } from '../support/redis-server.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

const LOCATIONS = ['eu-west-1', 'us-east-1', 'ap-south-1', 'sa-east-1'];
const silent = pino({ level: 'silent' });

type Outcome = 'pass' | 'fail';

const probeOf = (outcome: Outcome, at: Date) => probe({
  at,
  hasFailures: outcome === 'fail',
  errors: outcome === 'fail' ? [{ code: 'ASSERTION_FAILED', message: 'STATUS_CODE EQUALS 200 failed: 503' }] : [],
});

/** A webhook channel on `receiver` and an API check alerting it on its first failed run. */
async function hookedCheck(client: TestClient, receiver: HttpReceiver, body: Record<string, unknown> = {}) {
  const path = `/hook/${randomUUID()}`;
  const channel = await client.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: `${receiver.url}${path}` } });
  expect(channel.status).toBe(201);
  const res = await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
    name: `Check ${randomUUID().slice(0, 8)}`,
    request: { url: 'https://shop.test/' },
    useGlobalAlertSettings: false,
    alertSettings: {
      escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 },
      parallelRunFailureThreshold: { enabled: false, percentage: 10 },
    },
    alertChannelSubscriptions: [{ alertChannelId: channel.body.id, activated: true }],
    ...body,
  });
  expect(res.status).toBe(201);
  return { check: res.body as Record<string, any>, path };
}

/** The alert types stored for a check, oldest first. */
async function storedAlerts(client: TestClient, checkId: string): Promise<string[]> {
  const res = await client.request('GET', `/v1/check-alerts/${checkId}?limit=100`);
  expect(res.status).toBe(200);
  return (res.body as Record<string, any>[]).map((a) => a.alertType as string).reverse();
}

describe.each(BACKENDS)('alert evaluation from the outbox on $name', (backend) => {
  let server: TestServer;
  let receiver: HttpReceiver;
  let clock: ManualClock;
  let store: Store;
  const running: Alerting[] = [];

  /** An alerting over the server's store; closed after the test. */
  const start = (bus: EventBus, overrides: Partial<AlertingOptions> = {}): Alerting => {
    const alerting = createAlerting({ store, bus, logger: silent, clock, retryDelaysMs: [1000], timeoutMs: 5000, parallelWindowMs: 120_000, ...overrides });
    running.push(alerting);
    return alerting;
  };
  const stop = async (alerting: Alerting) => {
    running.splice(running.indexOf(alerting), 1);
    await alerting.close();
  };
  const received = (path: string) => receiver.to(path).map((r) => r.json.alertType as string);

  beforeAll(async () => {
    server = await startTestServer({ backend });
    store = server.lookout.store;
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });
  beforeEach(() => {
    clock = createManualClock(new Date());
  });
  afterEach(async () => {
    for (const alerting of running.splice(0)) await alerting.close();
  });

  it('keeps a FINAL result of a check in the outbox until alerting evaluates it, and never one of a test session or an attempt', async () => {
    const recorder = testRecorder(store);
    const { check } = await hookedCheck(server.a, receiver);
    const before = await store.alertOutbox.count();
    await recorder.record({ check: runnable(server.a, check), probe: probeOf('fail', clock.now()), resultType: 'ATTEMPT' });
    await recorder.record({ check: runnable(server.a, check), probe: probeOf('fail', clock.now()), testSessionId: randomUUID() });
    expect(await store.alertOutbox.count()).toBe(before);
    const result = await recorder.record({ check: runnable(server.a, check), probe: probeOf('fail', clock.now()) });
    const waiting = await store.alertOutbox.waiting(100);
    expect(waiting.filter((r) => r.check_id === check.id)).toEqual([
      expect.objectContaining({ account_id: server.a.accountId, check_id: check.id, result_id: result.id, sequence_id: result.sequenceId }),
    ]);
    const alerting = start(recorder.bus);
    await alerting.idle();
    expect((await store.alertOutbox.waiting(100)).filter((r) => r.check_id === check.id)).toEqual([]);
  });

  describe('a FINAL failing result whose bus event never reaches alerting still raises its alert exactly once', () => {
    it.each([
      {
        when: 'the bus drops the event, so only the poll finds the result',
        async raise(record: () => Promise<void>, path: string) {
          // Alerting listens on a bus nobody publishes to: the recorder's events go nowhere.
          const alerting = start(createMemoryEventBus(), { outboxPollMs: 20 });
          await record();
          await receiver.waitFor(path, 1);
          await alerting.idle();
          return alerting;
        },
      },
      {
        when: 'alerting starts only after the result was committed',
        async raise(record: () => Promise<void>) {
          await record();
          const alerting = start(createMemoryEventBus(), { outboxPollMs: 60_000 });
          await alerting.idle();
          return alerting;
        },
      },
    ])('when $when', async ({ raise }) => {
      const recorder = testRecorder(store);
      const { check, path } = await hookedCheck(server.a, receiver);
      const record = async () => void (await recorder.record({ check: runnable(server.a, check), probe: probeOf('fail', clock.now()) }));
      const alerting = await raise(record, path);
      expect(received(path)).toEqual(['ALERT_FAILURE']);
      // Later runs read the outbox again: the evaluated row is gone, so it raises nothing twice.
      await record();
      await stop(alerting);
      await start(createMemoryEventBus()).idle();
      expect(received(path)).toEqual(['ALERT_FAILURE']);
      expect(await storedAlerts(server.a, check.id)).toEqual(['ALERT_FAILURE']);
      expect((await store.alertOutbox.waiting(100)).filter((r) => r.check_id === check.id)).toEqual([]);
    });
  });

  describe('no row is evaluated twice', () => {
    it('raises each alert once when two alerting instances read the same outbox and wake on the same events', async () => {
      const recorder = testRecorder(store);
      const first = start(recorder.bus, { outboxPollMs: 10 });
      const second = start(recorder.bus, { outboxPollMs: 10 });
      const checks = await Promise.all([0, 1, 2].map(() => hookedCheck(server.a, receiver)));
      const outcomes: Outcome[] = ['fail', 'fail', 'pass', 'fail', 'pass', 'pass'];
      // Recorded back to back without waiting, so both instances hold the same rows at once.
      await Promise.all(checks.map(async ({ check }) => {
        for (const outcome of outcomes) await recorder.record({ check: runnable(server.a, check), probe: probeOf(outcome, clock.now()) });
      }));
      await Promise.all([first.idle(), second.idle()]);
      for (const { check, path } of checks) {
        await receiver.waitFor(path, 4);
        expect(received(path)).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY', 'ALERT_FAILURE', 'ALERT_RECOVERY']);
        expect(await storedAlerts(server.a, check.id)).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY', 'ALERT_FAILURE', 'ALERT_RECOVERY']);
      }
    });

    it('leaves a row whose evaluation died before its commit to the next alerting, which raises the alert once', async () => {
      const recorder = testRecorder(store);
      const { check, path } = await hookedCheck(server.a, receiver);
      // A leader whose every transaction fails: it evaluates, but nothing it decides is stored.
      const dying = start(recorder.bus, { store: { ...store, transaction: () => Promise.reject(new Error('the process died')) } });
      await recorder.record({ check: runnable(server.a, check), probe: probeOf('fail', clock.now()) });
      await dying.idle();
      expect(received(path)).toEqual([]);
      await stop(dying);
      await start(recorder.bus).idle();
      await receiver.waitFor(path, 1);
      expect(received(path)).toEqual(['ALERT_FAILURE']);
      expect(await storedAlerts(server.a, check.id)).toEqual(['ALERT_FAILURE']);
    });

    it('gathers again the rows of a parallel run left incomplete by a restart, and judges the run once', async () => {
      const recorder = testRecorder(store);
      const { check, path } = await hookedCheck(server.a, receiver, { runParallel: true, locations: LOCATIONS });
      const sequenceId = randomUUID();
      const report = (location: string, outcome: Outcome) =>
        recorder.record({ check: runnable(server.a, check), probe: probeOf(outcome, clock.now()), location, sequenceId });
      const before = start(recorder.bus);
      await report(LOCATIONS[0]!, 'fail');
      await report(LOCATIONS[1]!, 'pass');
      await before.idle();
      await stop(before);
      expect((await store.alertOutbox.waiting(100)).filter((r) => r.check_id === check.id)).toHaveLength(2);

      const after = start(recorder.bus);
      await after.idle();
      expect(received(path)).toEqual([]);
      await report(LOCATIONS[2]!, 'pass');
      await report(LOCATIONS[3]!, 'pass');
      await after.idle();
      await receiver.waitFor(path, 1);
      expect(receiver.to(path).map((r) => r.json)).toEqual([expect.objectContaining({ alertType: 'ALERT_FAILURE' })]);
      expect(await storedAlerts(server.a, check.id)).toEqual(['ALERT_FAILURE']);
      expect((await store.alertOutbox.waiting(100)).filter((r) => r.check_id === check.id)).toEqual([]);
    });
  });
});

// Needs redis-server; runs where the Redis suites run (TEST_REDIS_URL set), on a Redis of its own it can stop.
describe.skipIf(!process.env.TEST_REDIS_URL).each(BACKENDS)('alert evaluation across a Redis restart on $name', (backend) => {
  let redis: ChildProcess | undefined;
  let server: TestServer | undefined;
  let receiver: HttpReceiver;
  let alerting: Alerting | undefined;

  afterEach(async () => {
    await alerting?.close();
    // Redis up again, so the server's bus closes cleanly.
    await server?.close();
    if (redis) await stopRedis(redis);
    await receiver?.close();
  });

  it('raises the alert of a check that turned failing while Redis was down, once, and its recovery after Redis came back', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    receiver = await startHttpReceiver();
    server = await startTestServer({ backend, config: { redisUrl: `redis://127.0.0.1:${port}` } });
    const { store, bus } = server.lookout;
    // As the leader runs them: recorder and alerting on the process's Redis bus.
    const recorder = createRunRecorder({ store, bus, logger: silent });
    alerting = createAlerting({ store, bus, logger: silent, retryDelaysMs: [1000], timeoutMs: 5000, outboxPollMs: 20 });
    const { check, path } = await hookedCheck(server.a, receiver);
    const record = (outcome: Outcome) => recorder.record({
      check: runnable(server!.a, check), probe: probeOf(outcome, new Date()), location: 'eu-west-1', sequenceId: randomUUID(), attempts: 1, resultType: 'FINAL',
    });

    await record('pass');
    await stopRedis(redis);
    await expect(bus.ping!()).rejects.toThrow();
    // The check turns failing while no event can cross processes (the bus delivers it in this
    // process only): the result is committed with its outbox row, and the alert comes either way.
    const recording = record('fail');
    await receiver.waitFor(path, 1);
    expect(received()).toEqual(['ALERT_FAILURE']);

    redis = await startRedis(port);
    await recording;
    // The bus reconnects by itself; until then its commands fail at once (no offline queue).
    await until(() => bus.ping!().then(() => true, () => false), 'the bus to reconnect to Redis');
    await record('fail');
    await record('pass');
    await receiver.waitFor(path, 2);
    await alerting.idle();
    expect(received()).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY']);
    expect(await storedAlerts(server.a, check.id)).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY']);
    expect(await store.alertOutbox.count()).toBe(0);

    function received() {
      return receiver.to(path).map((r) => r.json.alertType as string);
    }
  }, 60_000);
});
