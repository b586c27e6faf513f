import type { Logger } from 'pino';
import { connectRedis, createRedisConnection } from './create-redis-connection.js';
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
 *
 * While Redis is away, publishing does not wait for it: events reach this process's subscribers
 * only (on a later tick, as the in-process bus does), and other processes again once it is back.
 */
export async function createRedisEventBus(options: RedisEventBusOptions): Promise<EventBus & { ready(): Promise<void> }> {
  const prefix = options.prefix ?? 'lookout:events:';
  const whileDown = 'events reach this process only';
  const pub = createRedisConnection({ url: options.url, role: 'event bus publisher', whileDown, logger: options.logger });
  // Resubscribing after a reconnect is done below: ioredis's own leaves its promise unhandled, which
  // rejects (an unhandled rejection) when the connection closes before Redis answers.
  const sub = createRedisConnection({ url: options.url, role: 'event bus subscriber', whileDown, logger: options.logger, subscriber: true });
  try {
    await Promise.all([connectRedis(pub), connectRedis(sub)]);
  } catch (err) {
    pub.disconnect();
    sub.disconnect();
    throw err;
  }

  const handlers = new Map<LookoutEventType, Set<StoredEventHandler>>();
  // Event types whose SUBSCRIBE Redis confirmed on the current connection: the others' events are
  // handed to this process's subscribers directly, or they would miss what this process publishes.
  const subscribed = new Set<LookoutEventType>();
  sub.on('close', () => subscribed.clear());
  const pending = new Set<Promise<unknown>>();
  let closed = false;

  /**
   * SUBSCRIBE of one event type. It fails when Redis is down long enough for ioredis to give up, or
   * when the bus closes first: logged, and asked again, with every other type, once the connection
   * is back (ready), so no event type stays deaf after an outage.
   */
  function subscribeChannel(type: LookoutEventType): void {
    const p = sub.subscribe(prefix + type).then(
      () => {
        subscribed.add(type);
      },
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

  const deliver = (type: LookoutEventType, event: LookoutEvent) => {
    for (const handler of handlers.get(type) ?? []) {
      try {
        handler(event);
      } catch (err) {
        options.logger?.error({ err, type }, 'event handler failed');
      }
    }
  };
  sub.on('message', (channel: string, message: string) => {
    let event: LookoutEvent;
    try {
      event = JSON.parse(message) as LookoutEvent;
    } catch (err) {
      options.logger?.warn({ err, channel }, 'ignoring a malformed event');
      return;
    }
    deliver(channel.slice(prefix.length) as LookoutEventType, event);
  });
  /** This process's subscribers get the event as Redis would hand it over (a JSON copy), on a later tick. */
  const deliverLocally = (event: LookoutEvent, json: string) => {
    const copy = JSON.parse(json) as LookoutEvent;
    queueMicrotask(() => deliver(event.type, copy));
  };

  return {
    async publish(event) {
      if (closed) return;
      const json = JSON.stringify(event);
      if (pub.status === 'ready') {
        try {
          await pub.publish(prefix + event.type, json);
          // Redis hands it back to this process too, once this process listens on its channel.
          if (!subscribed.has(event.type)) deliverLocally(event, json);
          return;
        } catch (err) {
          options.logger?.debug({ err, type: event.type }, 'publishing to Redis failed; delivered in this process only');
        }
      }
      deliverLocally(event, json);
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
