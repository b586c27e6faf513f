import type { EventBus, StoredEventHandler } from '../../events/event-bus.js';
import type { LookoutEvent, LookoutEventType } from '../../events/lookout-event.js';
import type { AccountEventSources } from './account-event-source.js';

/**
 * Event sources over the in-process (or Redis) bus: each account sees only events carrying its id.
 * One bus subscription per event type dispatches by account, so an event costs the same with ten
 * subscribed accounts as with ten thousand.
 */
export function createBusEventSources(bus: EventBus): AccountEventSources {
  const byType = new Map<LookoutEventType, { byAccount: Map<string, Set<StoredEventHandler>>; unsubscribe: () => void }>();

  const route = (type: LookoutEventType) => {
    let entry = byType.get(type);
    if (!entry) {
      const byAccount = new Map<string, Set<StoredEventHandler>>();
      const unsubscribe = bus.subscribe(type, (event: LookoutEvent) => {
        if (event.accountId === null) return; // access changes concern no account's stream
        for (const handler of byAccount.get(event.accountId) ?? []) handler(event);
      });
      byType.set(type, (entry = { byAccount, unsubscribe }));
    }
    return entry;
  };

  return {
    acquire(accountId) {
      return {
        events: {
          subscribe(type, handler) {
            const { byAccount } = route(type);
            let handlers = byAccount.get(accountId);
            if (!handlers) byAccount.set(accountId, (handlers = new Set()));
            handlers.add(handler as StoredEventHandler);
            return () => {
              handlers.delete(handler as StoredEventHandler);
              if (handlers.size === 0 && byAccount.get(accountId) === handlers) byAccount.delete(accountId);
            };
          },
        },
        release() {},
      };
    },
    async close() {
      for (const { unsubscribe } of byType.values()) unsubscribe();
      byType.clear();
    },
  };
}
