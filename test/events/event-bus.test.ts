import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventBus } from '../../src/events/event-bus.js';
import { createMemoryEventBus } from '../../src/events/create-memory-event-bus.js';
import { createRedisEventBus } from '../../src/events/create-redis-event-bus.js';
import type { EventOf, LookoutEvent } from '../../src/events/lookout-event.js';
import { freePort, startRedis, stopRedis } from '../support/redis-server.js';
import { until } from '../support/until.js';

interface BusFactory {
  name: string;
  /** Two handles on one bus: in-process they are the same object, with Redis two connections. */
  open(): Promise<{ publisher: EventBus; subscriber: EventBus; ready(): Promise<void> }>;
}

const factories: BusFactory[] = [
  {
    name: 'in-process',
    async open() {
      const bus = createMemoryEventBus();
      return { publisher: bus, subscriber: bus, ready: async () => {} };
    },
  },
];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  factories.push({
    name: 'redis',
    async open() {
      const prefix = `lookout-test-${randomBytes(4).toString('hex')}:`;
      const publisher = await createRedisEventBus({ url, prefix });
      const subscriber = await createRedisEventBus({ url, prefix });
      return { publisher, subscriber, ready: () => subscriber.ready() };
    },
  });
}

const result = (n: number): LookoutEvent => ({
  type: 'checkResultCreated', accountId: 'acc', checkId: `c${n}`, groupId: null, tags: [], result: { n },
});

describe.each(factories)('event bus ($name)', (factory) => {
  const opened: EventBus[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((b) => b.close()));
  });
  const open = async () => {
    const handles = await factory.open();
    opened.push(handles.publisher, handles.subscriber);
    return handles;
  };

  it('delivers events of a type to its subscribers in publish order', async () => {
    const { publisher, subscriber, ready } = await open();
    const got: number[] = [];
    const all = new Promise<void>((resolve) => {
      subscriber.subscribe('checkResultCreated', (e) => {
        got.push(e.result.n);
        if (got.length === 5) resolve();
      });
    });
    await ready();
    for (let i = 0; i < 5; i++) await publisher.publish(result(i));
    await all;
    expect(got).toEqual([0, 1, 2, 3, 4]);
  });

  it('does not deliver other event types, nor to handlers that unsubscribed', async () => {
    const { publisher, subscriber, ready } = await open();
    const statusEvents: EventOf<'checkStatusChanged'>[] = [];
    const off = subscriber.subscribe('checkStatusChanged', (e) => statusEvents.push(e));
    const results: LookoutEvent[] = [];
    const second = new Promise<void>((resolve) => subscriber.subscribe('checkResultCreated', (e) => {
      results.push(e);
      if (results.length === 2) resolve();
    }));
    await ready();
    off();
    await publisher.publish({ type: 'checkStatusChanged', accountId: 'a', checkId: 'c', previous: null, current: 'FAILING', status: {} });
    await publisher.publish(result(1));
    await publisher.publish(result(2));
    await second;
    expect(statusEvents).toEqual([]);
  });

  it('keeps delivering when a handler throws', async () => {
    const { publisher, subscriber, ready } = await open();
    subscriber.subscribe('checkResultCreated', () => {
      throw new Error('boom');
    });
    const got = new Promise<LookoutEvent>((resolve) => subscriber.subscribe('checkResultCreated', resolve));
    await ready();
    await publisher.publish(result(7));
    expect(await got).toMatchObject({ checkId: 'c7' });
  });
});

// Needs redis-server; runs where the Redis suites run, on a Redis of its own it can stop.
describe.skipIf(!process.env.TEST_REDIS_URL)('Redis event bus across an outage', () => {
  it('subscribes to an event type first asked for while Redis was down, once Redis is back, without an unhandled rejection', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const publisher = await createRedisEventBus({ url });
    const subscriber = await createRedisEventBus({ url });
    try {
      await stopRedis(redis);
      await expect(subscriber.ping!()).rejects.toThrow();
      const got: LookoutEvent[] = [];
      subscriber.subscribe('checkResultCreated', (e) => got.push(e));
      // ioredis gives the SUBSCRIBE up after its retries: ready() settles without subscribing.
      await subscriber.ready();
      redis = await startRedis(port);
      // Published until the subscriber, resubscribed after reconnecting, hears one.
      await until(async () => {
        await publisher.publish(result(1)).catch(() => {});
        return got.length > 0;
      }, 'the event type to be subscribed again after the outage');
      expect(got[0]).toEqual(result(1));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await Promise.all([publisher.close(), subscriber.close()]);
      await stopRedis(redis);
    }
  }, 60_000);
});
