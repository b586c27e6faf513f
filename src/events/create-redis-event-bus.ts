import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { EventBus, StoredEventHandler } from './event-bus.js';
import type { LookoutEvent, LookoutEventType } from './lookout-event.js';

/** Options of the Redis event bus. */
export interface RedisEventBusOptions {
  url: string;
  /** Channel prefix, so several installations can share one Redis. */
  prefix?: string;
  logger?: Logger;
}

/**
 * The multi-process event bus: events go through Redis pub/sub (one channel per event type), so
 * a runner in one process and GraphQL subscribers in another see the same stream. Like the
 * in-process bus, delivery is at-most-once; subscribing happens before `subscribe` returns
 * only locally — the Redis SUBSCRIBE of a new event type is awaited by `ready()`.
 */
export async function createRedisEventBus(options: RedisEventBusOptions): Promise<EventBus & { ready(): Promise<void> }> {
  const prefix = options.prefix ?? 'lookout:events:';
  const pub = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  // Resubscribing after a reconnect is done below: ioredis's own leaves its promise unhandled, which
  // rejects (an unhandled rejection) when the connection closes before Redis answers.
  const sub = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3, autoResubscribe: false });
  for (const client of [pub, sub]) client.on('error', (err) => options.logger?.error({ err }, 'redis event bus connection error'));
  await Promise.all([pub.connect(), sub.connect()]);

  const handlers = new Map<LookoutEventType, Set<StoredEventHandler>>();
  const pending = new Set<Promise<unknown>>();
  let closed = false;

  /**
   * SUBSCRIBE of one event type. It fails when Redis is down long enough for ioredis to give up, or
   * when the bus closes first: logged, and asked again, with every other type, once the connection
   * is back (ready), so no event type stays deaf after an outage.
   */
  function subscribeChannel(type: LookoutEventType): void {
    const p = sub.subscribe(prefix + type).then(
      () => {},
      (err: unknown) => {
        if (!closed) options.logger?.warn({ err, type }, 'subscribing to an event type failed; retried once Redis is back');
      },
    ).finally(() => pending.delete(p));
    pending.add(p);
  }
  // Attached after the first connect: every ready is a reconnect.
  sub.on('ready', () => {
    for (const type of handlers.keys()) subscribeChannel(type);
  });

  sub.on('message', (channel: string, message: string) => {
    const type = channel.slice(prefix.length) as LookoutEventType;
    let event: LookoutEvent;
    try {
      event = JSON.parse(message) as LookoutEvent;
    } catch (err) {
      options.logger?.warn({ err, channel }, 'ignoring a malformed event');
      return;
    }
    for (const handler of handlers.get(type) ?? []) {
      try {
        handler(event);
      } catch (err) {
        options.logger?.error({ err, type }, 'event handler failed');
      }
    }
  });

  return {
    async publish(event) {
      if (closed) return;
      await pub.publish(prefix + event.type, JSON.stringify(event));
    },
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) {
        handlers.set(type, (set = new Set()));
        subscribeChannel(type);
      }
      set.add(handler as StoredEventHandler);
      return () => {
        set.delete(handler as StoredEventHandler);
      };
    },
    async ready() {
      await Promise.all([...pending]);
    },
    async ping() {
      await pub.ping();
    },
    async close() {
      closed = true;
      handlers.clear();
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}
