import type { EventOf, LookoutEvent, LookoutEventType } from './lookout-event.js';

/** Handler of one event type. */
export type EventHandler<T extends LookoutEventType> = (event: EventOf<T>) => void;

/**
 * A handler as a bus keeps it, in a set under its event type: it is only ever called with events of
 * that type, so `handler as StoredEventHandler` narrows nothing it will see.
 */
export type StoredEventHandler = (event: LookoutEvent) => void;

/**
 * Typed publish/subscribe between the runner, the API and the GraphQL layer. Implementations:
 * in-process (one machine) and Redis (several processes); the same contract suite runs on both.
 * Delivery is at-most-once and asynchronous: a slow or failing handler never blocks `publish`.
 */
export interface EventBus {
  publish(event: LookoutEvent): Promise<void>;
  /** Calls `handler` for every event of `type`, in publish order; returns the unsubscribe function. */
  subscribe<T extends LookoutEventType>(type: T, handler: EventHandler<T>): () => void;
  /** Rejects when the bus cannot deliver between processes now (Redis unreachable); absent on the in-process bus. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}
