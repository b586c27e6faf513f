import type { Logger } from 'pino';
import type { EventBus } from '../events/event-bus.js';
import { maintenanceEffects, type ActiveMaintenance } from '../domain/maintenance-effects.js';
import type { Store } from '../store/create-store.js';
import type { RunnableCheck } from '../runner/executor.js';

/** Options of createMaintenancePauses. */
export interface MaintenancePausesOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** How often the snapshot is read again even without events (default 5 s, as the scheduler's refresh). */
  refreshMs?: number;
  now?: () => Date;
}

/**
 * Which checks maintenance pauses, for the scheduler: a snapshot of every maintenance in progress,
 * read again on each `maintenanceUpdated` event and every `refreshMs` (events are at-most-once, and
 * the maintenance clock may run in another process). Pausing is decided per run from the snapshot,
 * so the schedule's hot path costs no query.
 */
export function createMaintenancePauses(options: MaintenancePausesOptions) {
  const { store, bus, logger } = options;
  const now = options.now ?? (() => new Date());
  let byAccount = new Map<string, ActiveMaintenance[]>();
  let pausedWindows = new Set<number>();
  let closed = false;
  let reading: Promise<void> | null = null;

  async function read(): Promise<void> {
    const rows = await store.activeMaintenances.all(now());
    const next = new Map<string, ActiveMaintenance[]>();
    for (const row of rows) next.set(row.accountId, [...(next.get(row.accountId) ?? []), row]);
    const pausing = new Set(rows.filter((r) => r.pauseAllChecks).map((r) => r.windowId));
    for (const id of pausing) if (!pausedWindows.has(id)) logger.info({ maintenanceWindowId: id }, 'maintenance: pausing the checks of a window in progress');
    for (const id of pausedWindows) if (!pausing.has(id)) logger.info({ maintenanceWindowId: id }, 'maintenance: checks of a window resume');
    byAccount = next;
    pausedWindows = pausing;
  }

  /** Reads the snapshot again (one read at a time; a request during a read waits for the next one). */
  function refresh(): Promise<void> {
    if (closed) return Promise.resolve();
    const run = (reading ?? Promise.resolve()).then(read).catch((err) => logger.error({ err }, 'maintenance: could not read maintenances in progress'));
    reading = run;
    void run.finally(() => {
      if (reading === run) reading = null;
    });
    return run;
  }

  const timer = setInterval(() => void refresh(), options.refreshMs ?? 5_000);
  timer.unref();
  const unsubscribe = bus.subscribe('maintenanceUpdated', () => void refresh());

  return {
    /** Reads the first snapshot; call before the scheduler starts. */
    start: refresh,
    refresh,
    isPaused(check: RunnableCheck): boolean {
      const windows = byAccount.get(check.accountId);
      return windows ? maintenanceEffects(windows, check.data.tags ?? []).paused : false;
    },
    /** The windows in progress that cover the check (its results are marked with them). */
    coveringWindows(check: RunnableCheck): number[] {
      const windows = byAccount.get(check.accountId);
      return windows ? maintenanceEffects(windows, check.data.tags ?? []).windowIds : [];
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(timer);
      unsubscribe();
      await reading;
    },
  };
}
export type MaintenancePauses = ReturnType<typeof createMaintenancePauses>;
