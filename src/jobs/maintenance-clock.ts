import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { PLAN_EXTEND_BELOW_DAYS } from '../domain/maintenance-plan.js';
import { dueReminders } from '../domain/maintenance-reminders.js';
import type { EventBus } from '../events/event-bus.js';
import { planWindow } from '../service/maintenance-planner.js';
import { readWindowView, toMaintenanceView } from '../service/maintenance-window-view.js';
import { createMaintenanceWrite, type MaintenanceChange } from '../service/maintenance-write.js';
import type { Store } from '../store/create-store.js';
import type { ClaimedMaintenance } from '../store/maintenance-occurrences-repository.js';
import type { Repositories } from '../store/repositories.js';
import { systemClock, type AlertClock, type ClockTimer } from './alerting/alert-clock.js';

/** What the maintenance clock needs; `clock` defaults to the system clock (tests pass a manual one). */
export interface MaintenanceClockOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  clock?: AlertClock;
  /** The longest wait between two looks at the store, whatever is due (default 60 s). */
  safetyNetMs?: number;
  /** Rows handled per query (default 100). */
  batchSize?: number;
}

/** The running maintenance clock of one process. */
export interface MaintenanceClock {
  /** Resolves once no pass is running or asked for. */
  idle(): Promise<void>;
  /** Stops the timer and the subscription, then waits for the pass in flight. */
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;
/** Batches one pass handles per kind of work at most: a pass always ends, the next one goes on. */
const MAX_BATCHES = 50;

const START_TEXT = 'Maintenance started (automatic start).';
const END_TEXT = 'Maintenance completed (automatic end).';

/**
 * The maintenance clock: moves maintenances on time and records reminders, exactly once across
 * processes (each move is a conditional UPDATE on the status, so of two clocks, or a clock and a
 * caller posting an update, one wins and only the winner writes an update row).
 *
 * Each pass, at the clock's `now`:
 * - SCHEDULED → IN_PROGRESS at startsAt when the window has autoStart, or is hidden (status pages do
 *   not show it: then it always starts and ends on time); the automatic update notifies subscribers
 *   when the window is shown with notifyOnStart (not when the clock catches up past the end too);
 * - IN_PROGRESS or VERIFYING → COMPLETED at endsAt when the window has autoEnd, or is hidden; the
 *   update notifies with notifyOnEnd;
 * - reminders of shown windows, `reminderMinutesBefore` each start (maintenance-reminders.ts), one
 *   row each, for delivery by whoever sends subscriber notifications;
 * - rolling plans (recurring windows without repeatEndsAt) are extended to 400 days ahead.
 * Then a timer waits for the next due instant, at most `safetyNetMs`; every `maintenanceUpdated`
 * event (a window or maintenance written by any process) starts a pass at once.
 * Long by design: one pass and its timer: the pass, the wake-ups and the shutdown share the in-flight pass and the next due instant; the transitions themselves are domain rules.
 */
export function createMaintenanceClock(options: MaintenanceClockOptions): MaintenanceClock {
  const { store, bus, logger } = options;
  const clock = options.clock ?? systemClock();
  const safetyNetMs = options.safetyNetMs ?? 60_000;
  const batch = options.batchSize ?? 100;
  const write = createMaintenanceWrite({ store, bus, logger });
  let timer: ClockTimer | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

  /** Runs one item's work; a failure is logged and skipped (the next pass retries it), never the whole pass's end. */
  async function isolated<T>(about: Record<string, unknown>, work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (err) {
      logger.error({ err, ...about }, 'maintenance clock: could not move a maintenance on; the next pass retries');
      return null;
    }
  }

  /** Writes the automatic update of a claimed move and tells what changed. */
  async function recordMove(tx: Repositories, claimed: ClaimedMaintenance, status: 'IN_PROGRESS' | 'COMPLETED', notify: boolean): Promise<MaintenanceChange> {
    await tx.maintenanceUpdates.insert(claimed.account_id, claimed.window_id, claimed.id, randomUUID(), {
      status,
      previousStatus: claimed.previous_status,
      description: status === 'IN_PROGRESS' ? START_TEXT : END_TEXT,
      notifySubscribers: notify,
      dateAdjustment: null,
      automatic: true,
    });
    const view = toMaintenanceView(claimed);
    return { accountId: claimed.account_id, maintenanceWindowId: claimed.window_id, maintenanceId: claimed.id, maintenance: view };
  }

  /**
   * Claims every due maintenance with `claim`, batch by batch, until a batch comes back short or
   * claims nothing; each claim runs in a transaction holding the window first (see `hold`).
   */
  async function drain(
    due: () => Promise<{ id: string; window_id: number }[]>,
    claim: (tx: Repositories, id: string) => Promise<MaintenanceChange>,
  ): Promise<void> {
    for (let n = 0; n < MAX_BATCHES && !closed; n++) {
      const rows = await due();
      let claimed = 0;
      for (const row of rows) {
        const change = await isolated({ maintenanceId: row.id }, () =>
          write(async (tx) => ((await tx.maintenanceWindows.hold(row.window_id)) ? claim(tx, row.id) : null), (c) => c));
        if (change) claimed++;
      }
      if (rows.length < batch || claimed === 0) return;
    }
  }

  async function extendPlans(now: Date): Promise<void> {
    const before = new Date(now.getTime() + PLAN_EXTEND_BELOW_DAYS * DAY_MS);
    for (let n = 0; n < MAX_BATCHES && !closed; n++) {
      const windows = await store.maintenanceWindows.rollingPlansEndingBefore(before, batch);
      let extended = 0;
      for (const w of windows) {
        const done = await isolated({ maintenanceWindowId: w.id }, async () => {
          await write(async (tx) => {
            const row = await tx.maintenanceWindows.get(w.account_id, w.id, true);
            // Another process may have extended it meanwhile: planning again is then a no-op.
            if (!row || !(await planWindow(tx, row, now))) return null;
            return { accountId: row.account_id, maintenanceWindowId: row.id, maintenanceId: null, maintenance: await readWindowView(tx, row) };
          }, (change) => change);
          return true;
        });
        if (done) extended++;
      }
      if (windows.length < batch || extended === 0) return;
    }
  }

  async function recordReminders(now: Date): Promise<void> {
    for (let n = 0; n < MAX_BATCHES && !closed; n++) {
      const candidates = await store.maintenanceOccurrences.reminderCandidates(now, batch);
      let recorded = 0;
      for (const c of candidates) {
        for (const r of dueReminders(c.starts_at, c.reminder_minutes, new Set(c.recorded), now)) {
          const fresh = await isolated({ maintenanceId: c.id }, () => store.maintenanceUpdates.recordReminder(randomUUID(), {
            maintenanceId: c.id, accountId: c.account_id, windowId: c.window_id, minutesBefore: r.minutesBefore, startsAt: c.starts_at,
            dueAt: r.dueAt, superseded: r.superseded,
          }));
          if (fresh) {
            recorded++;
            // Tells the subscriber notifier (maybe in another process) now rather than at its next sweep.
            if (!r.superseded) {
              await bus.publish({ type: 'maintenanceReminderDue', accountId: c.account_id, maintenanceWindowId: c.window_id, maintenanceId: c.id })
                .catch((err) => logger.warn({ err, maintenanceId: c.id }, 'maintenance clock: could not publish a reminder'));
            }
          }
        }
      }
      if (candidates.length < batch || recorded === 0) return;
    }
  }

  /** Does everything due at the clock's now; answers that instant. */
  async function pass(): Promise<Date> {
    const now = clock.now();
    await extendPlans(now);
    await drain(() => store.maintenanceOccurrences.dueStarts(now, batch), async (tx, id) => {
      const claimed = await tx.maintenanceOccurrences.claimStart(id, now);
      if (!claimed) return null;
      // Catching up past the end too: the start is history by now, only the end is news.
      return recordMove(tx, claimed, 'IN_PROGRESS', claimed.visible && claimed.notify_on_start && claimed.ends_at.getTime() > now.getTime());
    });
    await drain(() => store.maintenanceOccurrences.dueEnds(now, batch), async (tx, id) => {
      const claimed = await tx.maintenanceOccurrences.claimEnd(id, now);
      return claimed ? recordMove(tx, claimed, 'COMPLETED', claimed.visible && claimed.notify_on_end) : null;
    });
    await recordReminders(now);
    return now;
  }

  /**
   * Arms the timer for the next instant after the pass at `since` at which something falls due, or
   * the safety net. Something that fell due while the pass ran is due now: the timer fires at once.
   */
  async function arm(since: Date): Promise<void> {
    const now = clock.now();
    const next = await store.maintenanceOccurrences.nextDue(since, new Date(now.getTime() + safetyNetMs)).catch((err) => {
      logger.error({ err }, 'maintenance clock: could not read the next due instant');
      return null;
    });
    if (closed) return;
    if (timer) clock.clearTimer(timer);
    const at = next ? next.getTime() : now.getTime() + safetyNetMs;
    timer = clock.setTimer(() => {
      timer = null;
      request();
    }, Math.max(0, at - clock.now().getTime()));
  }

  async function drive(): Promise<void> {
    try {
      // A request while the timer is armed (an event) asks for one more pass: nothing is lost.
      do {
        again = false;
        let since = clock.now();
        try {
          since = await pass();
        } catch (err) {
          logger.error({ err }, 'maintenance clock: a pass failed; the next one retries');
        }
        if (!closed && !again) await arm(since);
      } while (again && !closed);
    } finally {
      running = null;
    }
  }

  /** Starts a pass now, or right after the one running. */
  function request(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = drive();
  }

  const unsubscribe = bus.subscribe('maintenanceUpdated', () => request());
  request();

  return {
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      unsubscribe();
      if (timer) clock.clearTimer(timer);
      timer = null;
      while (running) await running;
    },
  };
}
