import type { Logger } from 'pino';
import type { Store } from '../store/create-store.js';

/** How retention runs. */
export interface ResultRetentionOptions {
  store: Store;
  /** Results that started more than this many days ago are deleted; 0 keeps them for ever. */
  days: number;
  logger: Logger;
  /** Time between prunes; default 10 minutes. The first prune starts at once. */
  intervalMs?: number;
  /** Results deleted per statement, so no prune holds locks or memory for long; default 1,000. */
  batchSize?: number;
  now?: () => Date;
}

/** The background job that keeps the result store to its retention window. */
export interface ResultRetention {
  /** Prunes everything past the window now (joining a prune in progress); resolves to how many results were deleted. */
  pruneNow(): Promise<number>;
  /** Stops the timer and waits for a prune in progress to finish. */
  close(): Promise<void>;
}

/**
 * Deletes results older than `days` in bounded batches, account by account, on an interval. The
 * timer is unref'd so it never keeps the process alive; prunes never overlap.
 */
export function createResultRetention({
  store, days, logger, intervalMs = 600_000, batchSize = 1_000, now = () => new Date(),
}: ResultRetentionOptions): ResultRetention {
  let running: Promise<number> | null = null;
  let closed = false;

  async function prune(): Promise<number> {
    if (days <= 0) return 0;
    const before = new Date(now().getTime() - days * 86_400_000);
    let deleted = 0;
    for (const accountId of await store.results.accountsWithResultsBefore(before)) {
      for (;;) {
        if (closed) return deleted;
        const n = await store.results.deleteOlderThan(accountId, before, batchSize);
        deleted += n;
        if (n < batchSize) break;
      }
    }
    if (deleted > 0) logger.info({ deleted, before: before.toISOString() }, 'pruned old check results');
    return deleted;
  }

  function pruneNow(): Promise<number> {
    if (closed) return Promise.resolve(0);
    running ??= prune().finally(() => {
      running = null;
    });
    return running;
  }

  const tick = () => {
    pruneNow().catch((err) => logger.error({ err }, 'pruning check results failed'));
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();

  return {
    pruneNow,
    async close() {
      closed = true;
      clearTimeout(first);
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
