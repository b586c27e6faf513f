import type { AlertClock, ClockTimer } from './alert-clock.js';

interface Batch<T> {
  items: T[];
  timer: ClockTimer;
}

/**
 * Collects the FINAL results of parallel runs, one batch per run (key), until every expected
 * location reported or `windowMs` passed since the first one arrived, whichever comes first.
 */
export function createParallelBatches<T>(options: { clock: AlertClock; windowMs: number; onTimeout(key: string, items: T[]): void }) {
  const batches = new Map<string, Batch<T>>();
  return {
    /** Adds one result; returns the whole batch when it is complete with this one, else null. */
    add(key: string, expected: number, item: T): T[] | null {
      let batch = batches.get(key);
      if (!batch) {
        const timer = options.clock.setTimer(() => {
          const open = batches.get(key);
          if (!open) return;
          batches.delete(key);
          options.onTimeout(key, open.items);
        }, options.windowMs);
        batch = { items: [], timer };
        batches.set(key, batch);
      }
      batch.items.push(item);
      if (batch.items.length < expected) return null;
      options.clock.clearTimer(batch.timer);
      batches.delete(key);
      return batch.items;
    },

    /** Closes every open batch and returns them, incomplete as they are. */
    drain(): { key: string; items: T[] }[] {
      const open = [...batches].map(([key, b]) => {
        options.clock.clearTimer(b.timer);
        return { key, items: b.items };
      });
      batches.clear();
      return open;
    },
  };
}
