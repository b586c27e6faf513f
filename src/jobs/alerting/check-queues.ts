import type { Logger } from 'pino';

/**
 * The work of one alerting: every task it started (so close() can wait for them), and one queue per
 * check, so one check's results, reminders and parallel runs are never judged at once.
 */
export interface CheckQueues {
  /** Counts `work` among the tasks idle() waits for. */
  track(work: Promise<void>): void;
  /** Runs `fn` after every earlier task of the same check. Never rejects: a failure is logged as `what`. */
  serial(checkId: string, what: string, fn: () => Promise<void>): Promise<void>;
  /** Resolves once no task is left, including tasks started while waiting. */
  idle(): Promise<void>;
}

/** Per-check queues of one alerting; `logger` hears of each task that failed. */
export function createCheckQueues(logger: Logger): CheckQueues {
  const tasks = new Set<Promise<void>>();
  const chains = new Map<string, Promise<void>>();

  const track = (work: Promise<void>) => {
    tasks.add(work);
    void work.finally(() => tasks.delete(work));
  };

  return {
    track,
    serial(checkId, what, fn) {
      const previous = chains.get(checkId) ?? Promise.resolve();
      const next = previous.then(fn).catch((err) => logger.error({ err, checkId }, `alerting: ${what} failed`));
      chains.set(checkId, next);
      void next.finally(() => {
        if (chains.get(checkId) === next) chains.delete(checkId);
      });
      track(next);
      return next;
    },
    async idle() {
      while (tasks.size > 0) await Promise.allSettled([...tasks]);
    },
  };
}
