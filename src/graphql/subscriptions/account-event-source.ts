import type { EventHandler } from '../../events/event-bus.js';
import type { LookoutEventType } from '../../events/lookout-event.js';

/** The events of one account, whatever carries them (the in-process bus or a remote service's stream). */
export interface AccountEvents {
  /** Calls `handler` for every event of `type` of the account; returns the unsubscribe function. */
  subscribe<T extends LookoutEventType>(type: T, handler: EventHandler<T>): () => void;
}

/** A lease on an account's events, held for as long as one socket is connected. */
export interface AccountEventsLease {
  events: AccountEvents;
  /** Resolves once events flow (a remote stream is live); rejects when the credentials are refused. */
  ready?: Promise<void>;
  /** Gives the lease back; the last one closes the underlying stream. */
  release(): void;
}

/**
 * Where subscriptions get events from. `headers` are the caller's own credentials: a remote source
 * opens the service's event stream with them, so the layer needs no privileged key. `onRevoked` is
 * called when the source stops for good because the credentials were refused.
 */
export interface AccountEventSources {
  acquire(accountId: string, headers: Record<string, string>, onRevoked: () => void): AccountEventsLease;
  close(): Promise<void>;
}
