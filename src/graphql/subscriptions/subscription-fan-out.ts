import type { ExecutionResult } from 'graphql';
import { createPushIterator, type PushIterator } from './push-iterator.js';

/** One execution result, serialized once and sent as is to every subscriber sharing it. */
export class SharedResult {
  /** Whole `next` messages by envelope: subscribers using the same subscription id share one buffer. */
  private messages: Map<string, Buffer> | null = null;

  constructor(readonly json: string) {}

  /**
   * The message `<envelope>"payload":<json>}` as UTF-8, built once per distinct envelope (graphql-ws's
   * `{"id":…,"type":"next",` of the subscription id), so a delivery costs no string building,
   * encoding or copy of its own.
   */
  message(envelope: string): Buffer {
    this.messages ??= new Map();
    let bytes = this.messages.get(envelope);
    if (!bytes) {
      bytes = Buffer.from(`${envelope}"payload":${this.json}}`);
      // Client-chosen ids are usually few ("1", a counter); a fleet of distinct ones is not worth keeping.
      if (this.messages.size < 64) this.messages.set(envelope, bytes);
    }
    return bytes;
  }
}

/** The per-socket budget a subscriber's messages count against. */
export interface SubscriberQueue {
  /** Counts a message of `bytes` as queued; false when the socket is over budget (and being closed). */
  admit(bytes: number): boolean;
  /** Uncounts a message admitted and then dropped unsent (its subscriber stopped). */
  release(bytes: number): void;
  /**
   * Writes an admitted result to the subscriber's socket at once, instead of pushing it to the
   * subscriber's iterator (which then only carries the end of the subscription). Saves graphql-ws's
   * per-message path (promises, envelope serialization) on every delivery of a broadcast.
   */
  deliver?(result: SharedResult): void;
}

/** Options of the fan-out. */
export interface FanOutOptions {
  /** Called after each shared execution, with the number of subscribers it goes to (instrumentation). */
  onExecute?: (key: string, subscribers: number) => void;
  /** Called when a shared source fails; its subscribers are completed. */
  onError?: (err: unknown, key: string) => void;
  /**
   * Deliveries made in one event-loop turn, over every shared subscription, before the fan-out yields
   * (setImmediate) so I/O and timers run between slices of a burst; default 256 (about 5 to 10 ms of
   * socket writes). Each shared subscription still delivers its events one after the other, so a
   * subscriber receives them in the order they happened.
   */
  deliveriesPerTurn?: number;
}

interface Entry {
  subscribers: Set<{ it: PushIterator<SharedResult>; queue: SubscriberQueue }>;
  source: AsyncIterable<ExecutionResult> | null;
  started: Promise<AsyncIterable<ExecutionResult> | ExecutionResult>;
}

/**
 * Shares subscriptions: every subscriber joining with the same key (account, normalized document,
 * operation name and variables) reads from ONE source subscription, whose events are executed and
 * serialized once and pushed to each subscriber's own iterator.
 */
export function createSubscriptionFanOut(options: FanOutOptions = {}) {
  const entries = new Map<string, Entry>();
  const perTurn = Math.max(1, options.deliveriesPerTurn ?? 256);
  let executions = 0;
  // One budget for the whole process: a hundred subscriptions each delivering a little in the same
  // turn stall the loop as much as one delivering a lot.
  let spent = 0;
  const newTurn = () => {
    spent = 0;
  };
  let turn: Promise<void> | null = null;
  const nextTurn = () => (turn ??= new Promise<void>((resolve) => setImmediate(() => {
    turn = null;
    resolve();
  })));

  const stop = (key: string, entry: Entry) => {
    if (entries.get(key) === entry) entries.delete(key);
    const source = entry.source as AsyncIterator<unknown> | null;
    void source?.return?.();
  };

  async function pump(key: string, entry: Entry, source: AsyncIterable<ExecutionResult>) {
    try {
      for await (const result of source) {
        executions++;
        const shared = new SharedResult(JSON.stringify(result));
        options.onExecute?.(key, entry.subscribers.size);
        // A slice of deliveries (socket writes, or pushes whose writes follow in the microtasks after),
        // then the rest of the loop's work, then the next slice. Subscribers joining meanwhile get this
        // event too; leaving ones don't. The next event waits for this one's last slice: order is kept.
        for (const sub of entry.subscribers) {
          if (spent >= perTurn) await nextTurn();
          if (!entry.subscribers.has(sub)) continue;
          // The first delivery of a turn marks its end: the budget is whole again in the next one.
          if (spent++ === 0) setImmediate(newTurn);
          if (!sub.queue.admit(shared.json.length)) continue;
          if (sub.queue.deliver) sub.queue.deliver(shared);
          else sub.it.push(shared);
        }
      }
    } catch (err) {
      options.onError?.(err, key);
    }
    stop(key, entry);
    for (const sub of entry.subscribers) sub.it.end();
  }

  return {
    /**
     * Subscribes through the shared source of `key`, starting it with `start` when none runs. Resolves
     * to the subscriber's iterator, or to the execution result when the operation could not start
     * (validation or resolver errors), which then goes to that subscriber alone.
     */
    async join(
      key: string,
      start: () => Promise<AsyncIterable<ExecutionResult> | ExecutionResult>,
      queue: SubscriberQueue,
    ): Promise<AsyncIterableIterator<SharedResult> | ExecutionResult> {
      let entry = entries.get(key);
      if (!entry) {
        const created: Entry = { subscribers: new Set(), source: null, started: start() };
        entries.set(key, created);
        entry = created;
        void created.started.then((started) => {
          if (!(Symbol.asyncIterator in started)) {
            if (entries.get(key) === created) entries.delete(key);
            return;
          }
          created.source = started;
          if (created.subscribers.size === 0 || entries.get(key) !== created) return stop(key, created);
          void pump(key, created, started);
        }, (err) => {
          if (entries.get(key) === created) entries.delete(key);
          options.onError?.(err, key);
        });
      }
      const current = entry;
      // Joined before waiting for the start, so a source that starts meanwhile finds its subscriber.
      const sub = {
        it: createPushIterator<SharedResult>((discarded) => {
          for (const result of discarded) queue.release(result.json.length);
          current.subscribers.delete(sub);
          if (current.subscribers.size === 0) stop(key, current);
        }),
        queue,
      };
      current.subscribers.add(sub);
      let started: AsyncIterable<ExecutionResult> | ExecutionResult;
      try {
        started = await current.started;
      } catch (err) {
        current.subscribers.delete(sub);
        throw err;
      }
      if (Symbol.asyncIterator in started) return sub.it;
      current.subscribers.delete(sub);
      return started;
    },
    /** Shared sources running, subscribers reading them and executions so far. */
    stats() {
      let subscribers = 0;
      for (const e of entries.values()) subscribers += e.subscribers.size;
      return { sharedSubscriptions: entries.size, subscribers, executions };
    },
  };
}
export type SubscriptionFanOut = ReturnType<typeof createSubscriptionFanOut>;
