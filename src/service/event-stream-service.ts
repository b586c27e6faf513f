import type { EventBus } from '../events/event-bus.js';
import type { LookoutEvent, LookoutEventType } from '../events/lookout-event.js';
import { LOOKOUT_EVENT_TYPES } from '../events/event-stream.js';

/** Opens account-scoped event streams over the bus (`GET /v1/events/stream`). */
export function createEventStreamService({ bus }: { bus: EventBus }) {
  return {
    /**
     * Calls `send` with every event of `accountId` whose type is in `types` (all types when empty),
     * from now on; returns the function that stops it. Subscribed before it returns, so nothing
     * published after the caller announced the stream is missed.
     */
    open(accountId: string, types: readonly LookoutEventType[], send: (event: LookoutEvent) => void): () => void {
      const wanted = types.length > 0 ? [...new Set(types)] : [...LOOKOUT_EVENT_TYPES];
      const offs = wanted.map((type) => bus.subscribe(type, (event: LookoutEvent) => {
        if (event.accountId === accountId) send(event);
      }));
      return () => {
        for (const off of offs) off();
      };
    },
  };
}
export type EventStreamService = ReturnType<typeof createEventStreamService>;
