import type { Logger } from 'pino';
import type { EventBus, StoredEventHandler } from './event-bus.js';
import type { LookoutEvent, LookoutEventType } from './lookout-event.js';

/** The in-process event bus: handlers run on a later tick, so publishers never wait on them. */
export function createMemoryEventBus(options: { logger?: Logger } = {}): EventBus {
  const handlers = new Map<LookoutEventType, Set<StoredEventHandler>>();
  let closed = false;
  const deliver = (event: LookoutEvent) => {
    for (const handler of handlers.get(event.type) ?? []) {
      try {
        handler(event);
      } catch (err) {
        options.logger?.error({ err, type: event.type }, 'event handler failed');
      }
    }
  };
  return {
    async publish(event) {
      if (closed) return;
      // Events are values: a handler mutating one must not change what the next handler sees.
      const frozen = structuredClone(event);
      queueMicrotask(() => deliver(frozen));
    },
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) handlers.set(type, (set = new Set()));
      set.add(handler as StoredEventHandler);
      return () => {
        set.delete(handler as StoredEventHandler);
      };
    },
    async close() {
      closed = true;
      handlers.clear();
    },
  };
}
