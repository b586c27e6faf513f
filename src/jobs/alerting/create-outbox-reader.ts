import type { Logger } from 'pino';
import type { EventBus } from '../../events/event-bus.js';
import type { AlertOutboxRow } from '../../store/alert-outbox-repository.js';
import type { Store } from '../../store/create-store.js';
import type { CheckQueues } from './check-queues.js';

/** Outbox rows read at once: a backlog (after an outage) is evaluated a page at a time, not held in memory whole. */
const OUTBOX_PAGE = 200;

/** Options of createOutboxReader. */
export interface OutboxReaderOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  queues: CheckQueues;
  /** How often the outbox is read besides the bus's wake-ups, which may be lost. */
  pollMs: number;
  /** Evaluates one row, in its check's queue; the row stays held until `release` is called for it. */
  onRow(row: AlertOutboxRow): Promise<void>;
}

/** The consumer of the alert outbox. */
export interface OutboxReader {
  /** Lets a row be read again: it was evaluated (and removed), or its evaluation failed. */
  release(id: string): void;
  /** Stops reading; rows not handed on stay in the outbox. */
  close(): void;
}

/**
 * Reads the alert outbox the recorder fills in each FINAL result's transaction: at once, on every
 * `checkResultCreated` (a wake-up hint only) and every `pollMs`, so a lost bus event delays a run
 * but never loses it. Each row goes to its check's queue in id order and is not read again while
 * it is held (evaluated, or waiting in a parallel batch).
 */
export function createOutboxReader(options: OutboxReaderOptions): OutboxReader {
  const { store, bus, logger, queues } = options;
  const held = new Set<string>();
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let closed = false;

  /** Reads the outbox until nothing new waits. */
  async function drain(): Promise<void> {
    for (;;) {
      const rows = await store.alertOutbox.waiting(OUTBOX_PAGE, [...held]);
      if (closed) return;
      const handed = rows.map((row) => {
        held.add(row.id);
        return queues.serial(row.check_id, 'handling a FINAL result', () => options.onRow(row));
      });
      if (rows.length < OUTBOX_PAGE) return;
      await Promise.all(handed);
    }
  }

  // The results of one recorder batch arrive together: one read of the outbox for all of them.
  let soon: NodeJS.Immediate | null = null;
  function wakeSoon(): void {
    if (soon) return;
    // Counted by idle(): a result recorded is one alerting is busy with.
    queues.track(new Promise<void>((resolve) => {
      soon = setImmediate(() => {
        soon = null;
        wake();
        resolve();
      });
    }));
  }

  /** Reads the outbox soon: at once, or right after the read in progress (which may have missed the new row). */
  function wake(): void {
    if (closed) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    const pump = (async () => {
      try {
        do {
          pumpAgain = false;
          await drain();
        } while (pumpAgain && !closed);
      } catch (err) {
        logger.error({ err }, 'alerting: reading the alert outbox failed');
      } finally {
        pumping = null;
      }
    })();
    pumping = pump;
    queues.track(pump);
  }

  // The bus only makes alerting look sooner; the poll is what guarantees it looks.
  const unsubscribe = bus.subscribe('checkResultCreated', (event) => {
    if (event.result?.resultType === 'FINAL') wakeSoon();
  });
  const poll = setInterval(wake, options.pollMs);
  poll.unref();
  wake();

  return {
    release: (id) => void held.delete(id),
    close() {
      closed = true;
      unsubscribe();
      clearInterval(poll);
      // A wake-up not yet begun is one fewer read: wake() does nothing once closed.
    },
  };
}
