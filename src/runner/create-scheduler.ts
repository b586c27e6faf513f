import type { Logger } from 'pino';
import { UNIT_SECONDS, type TimeUnit } from '../domain/catalog.js';
import { heartbeatState } from '../domain/heartbeat-state.js';
import { idleReason } from '../domain/idle-reason.js';
import { cadenceOf, nextSlotAfter, resumeSchedule, type Cadence } from '../domain/schedule-slots.js';
import type { Store } from '../store/create-store.js';
import type { ScheduledCheckRow } from '../store/runner-repository.js';
import { DueQueue } from './due-queue.js';
import { toRunnable } from './prepare-run.js';

/** Why a run was started. */
export type RunReason = 'schedule' | 'catch-up' | 'heartbeat-deadline';

/** One scheduled run handed to the runner. */
export interface ScheduledRun {
  row: ScheduledCheckRow;
  /** The planned start (a slot, or a heartbeat deadline). */
  plannedMs: number;
  reason: RunReason;
}

/** Options of the scheduler. */
export interface SchedulerOptions {
  store: Store;
  logger: Logger;
  /** Executes one run; the scheduler never starts a check again while its run is in flight. */
  run: (job: ScheduledRun) => Promise<void>;
  /** Runs in flight at most (further due runs queue, first due first). */
  concurrency?: number;
  /** How often configuration changes are picked up from the store, in ms. */
  refreshMs?: number;
  now?: () => number;
  /**
   * Slots of checks with a cadence are handed to `run` this long (up to a quarter more) before they
   * come (plannedMs is still the slot), so that the run can be queued and prepared by then, those
   * of a quarter of the lead together. Heartbeat deadlines are never early. Default 0.
   */
  leadMs?: number;
  /** Called with (actual start − planned start) of every run: the scheduler's health metric. */
  onStartDelay?: (delayMs: number) => void;
}

interface Entry {
  row: ScheduledCheckRow;
  cadence: Cadence | null;
  nextMs: number;
  version: number;
  running: boolean;
  lastPingMs: number | null;
  lastEvaluatedMs: number | null;
}

const heartbeatPeriodMs = (hb: { period: number; periodUnit: TimeUnit }) => hb.period * UNIT_SECONDS[hb.periodUnit] * 1000;

/**
 * Plans and starts scheduled runs. Activated checks run on their epoch-aligned slots (see
 * schedule-slots.ts); the next slot of each is persisted, so a restart neither runs a slot twice
 * nor skips more than the slots it was down for (one catch-up run covers those). Heartbeat checks
 * are not probed: they are evaluated at their deadline (last ping + period + grace) and then once
 * per period while no ping arrives. A check with nowhere to run (idleReason) is not scheduled:
 * the scheduler logs it once (warn) while it stays idle, and its status says why.
 * Long by design: the plan (entries, due queue), the runs waiting and in flight, and the slots to persist change together in each tick; the slot arithmetic, heartbeat deadlines and due queue are their own files.
 */
export function createScheduler(options: SchedulerOptions) {
  const { store, logger } = options;
  const now = options.now ?? Date.now;
  const concurrency = options.concurrency ?? 100;
  const refreshMs = options.refreshMs ?? 5_000;
  const leadMs = options.leadMs ?? 0;
  // With a lead, the slots of the next quarter of it go together: one tick (and so one queue
  // statement) per window instead of one per slot, the phases being spread over the period.
  const windowMs = Math.floor(leadMs / 4);
  const entries = new Map<string, Entry>();
  let queue = new DueQueue();
  const waiting: ScheduledRun[] = [];
  const dirty = new Map<string, { nextRunAt: Date; startedAt: Date | null }>();
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let refreshTimer: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let lastSync: string | null = null;
  // Not scheduling until start(); stop() returns here (a process that loses the leadership).
  let stopped = true;
  let overlapsSkipped = 0;
  // Idle checks (idleReason) already logged: each is said once while it stays idle.
  const idleLogged = new Set<string>();

  const isActive = (row: ScheduledCheckRow) => toRunnable(row).data.activated !== false;

  function schedule(entry: Entry, nextMs: number, startedAt: Date | null = null) {
    entry.nextMs = nextMs;
    entry.version++;
    queue.push(entry.cadence && leadMs > 0
      ? { dueMs: nextMs - leadMs, slotMs: nextMs, checkId: entry.row.id, version: entry.version }
      : { dueMs: nextMs, checkId: entry.row.id, version: entry.version });
    if (entry.cadence) dirty.set(entry.row.id, { nextRunAt: new Date(nextMs), startedAt });
  }

  async function heartbeatDue(entry: Entry): Promise<number> {
    const hb = toRunnable(entry.row).data.heartbeat;
    const ping = await store.runner.lastPing(entry.row.id);
    entry.lastPingMs = ping ? ping.received_at.getTime() : null;
    const evaluation = heartbeatState(hb, ping?.received_at ?? null, entry.row.created_at, new Date(now()), entry.lastEvaluatedMs ? new Date(entry.lastEvaluatedMs) : null);
    const deadline = evaluation.nextDeadline.getTime();
    // Past the deadline: evaluate again one period after the last evaluation (FAILING runs).
    if (deadline <= now() && entry.lastEvaluatedMs != null && entry.lastEvaluatedMs >= deadline) return entry.lastEvaluatedMs + heartbeatPeriodMs(hb);
    return deadline;
  }

  function unschedule(checkId: string) {
    const existing = entries.get(checkId);
    if (existing) existing.version++;
    entries.delete(checkId);
  }

  /** Whether the check has nowhere to run; said once in the log while it stays so (not at every refresh). */
  function isIdle(row: ScheduledCheckRow, runnable: ReturnType<typeof toRunnable>): boolean {
    const idle = idleReason({ ...runnable.data, checkType: row.check_type, groupId: row.group_id }, null);
    if (!idle) {
      idleLogged.delete(row.id);
      return false;
    }
    if (!idleLogged.has(row.id)) {
      idleLogged.add(row.id);
      logger.warn({ checkId: row.id, accountId: row.account_id, idle }, `check "${row.name}" is not scheduled: ${idle.message}`);
    }
    return true;
  }

  async function upsert(row: ScheduledCheckRow, atStart: boolean): Promise<void> {
    const existing = entries.get(row.id);
    if (!isActive(row)) {
      idleLogged.delete(row.id);
      unschedule(row.id);
      return;
    }
    const runnable = toRunnable(row);
    if (isIdle(row, runnable)) {
      unschedule(row.id);
      return;
    }
    if (row.check_type === 'HEARTBEAT') {
      const entry: Entry = existing ?? { row, cadence: null, nextMs: 0, version: 0, running: false, lastPingMs: null, lastEvaluatedMs: null };
      entry.row = row;
      entry.cadence = null;
      entries.set(row.id, entry);
      schedule(entry, await heartbeatDue(entry));
      return;
    }
    const cadence = cadenceOf({ id: row.id, frequency: runnable.data.frequency, frequencyOffset: runnable.data.frequencyOffset });
    if (existing && existing.cadence && existing.cadence.periodMs === cadence.periodMs && existing.cadence.phaseMs === cadence.phaseMs) {
      existing.row = row;
      return;
    }
    const entry: Entry = existing ?? { row, cadence, nextMs: 0, version: 0, running: false, lastPingMs: null, lastEvaluatedMs: null };
    entry.row = row;
    entry.cadence = cadence;
    entries.set(row.id, entry);
    if (atStart) {
      const resume = resumeSchedule(cadence, row.next_run_at ? row.next_run_at.getTime() : null, now());
      if (resume.runNow) enqueue({ row, plannedMs: row.next_run_at!.getTime(), reason: 'catch-up' }, entry);
      schedule(entry, resume.nextMs);
    } else {
      schedule(entry, nextSlotAfter(cadence, now()));
    }
  }

  function enqueue(job: ScheduledRun, entry: Entry) {
    if (entry.running || waiting.some((w) => w.row.id === job.row.id)) {
      overlapsSkipped++;
      logger.warn({ checkId: job.row.id, plannedAt: new Date(job.plannedMs).toISOString() }, 'previous run still in flight: slot skipped');
      return;
    }
    waiting.push(job);
  }

  function drain() {
    while (inFlight < concurrency && waiting.length > 0) {
      const job = waiting.shift()!;
      const entry = entries.get(job.row.id);
      if (!entry || stopped) continue;
      entry.running = true;
      inFlight++;
      const startedAt = now();
      options.onStartDelay?.(startedAt - job.plannedMs);
      if (entry.cadence) dirty.set(entry.row.id, { nextRunAt: new Date(entry.nextMs), startedAt: new Date(startedAt) });
      const p = options
        .run({ ...job, row: entry.row })
        .catch((err) => logger.error({ err, checkId: job.row.id }, 'run failed'))
        .finally(() => {
          entry.running = false;
          inFlight--;
          running.delete(p);
          if (job.reason === 'heartbeat-deadline' && entries.get(entry.row.id) === entry) {
            // The next evaluation is one period after this one, never a replay of missed periods.
            entry.lastEvaluatedMs = Math.max(job.plannedMs, now());
            void heartbeatDue(entry).then((due) => schedule(entry, due)).then(arm, (err) => logger.error({ err }, 'heartbeat reschedule failed'));
          }
          drain();
        });
      running.add(p);
    }
  }

  function tick() {
    timer = undefined;
    if (stopped) return;
    const t = now();
    for (let head = queue.peek(); head && head.dueMs <= t + windowMs; head = queue.peek()) {
      // Only slots handed over ahead (slotMs) may go early; a heartbeat deadline waits for its time.
      if (head.slotMs === undefined && head.dueMs > t) break;
      queue.pop();
      const entry = entries.get(head.checkId);
      if (!entry || entry.version !== head.version) continue;
      if (entry.cadence) {
        const slotMs = head.slotMs ?? head.dueMs;
        enqueue({ row: entry.row, plannedMs: slotMs, reason: 'schedule' }, entry);
        // A process that fell far behind plans from now instead of replaying every slot.
        schedule(entry, nextSlotAfter(entry.cadence, Math.max(slotMs, t - entry.cadence.periodMs)));
      } else {
        enqueue({ row: entry.row, plannedMs: head.dueMs, reason: 'heartbeat-deadline' }, entry);
      }
    }
    drain();
    arm();
  }

  function arm() {
    if (stopped) return;
    const head = queue.peek();
    if (!head) return;
    const delay = Math.max(0, head.dueMs - now());
    if (timer) clearTimeout(timer);
    // Long timers are capped so clock jumps and added checks are noticed.
    timer = setTimeout(tick, Math.min(delay, 60_000));
  }

  // Flushes run one after another: stop() must not return while the timer's flush is still writing
  // (it took the dirty entries already), or the next leader would read the schedule before it.
  let flushing: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (dirty.size === 0) return;
      const batch = [...dirty].map(([checkId, v]) => ({ checkId, ...v }));
      dirty.clear();
      try {
        await store.runner.saveNextRuns(batch);
      } catch (err) {
        logger.error({ err }, 'could not persist the schedule');
      }
    });
    return flushing;
  }

  async function refresh(): Promise<void> {
    // The horizon is taken before the read: a write committed after it (even by a transaction that
    // began long before) has an id at or above it and is read next time.
    const horizon = await store.runner.changeHorizon();
    const changed = await store.runner.checks(lastSync ?? undefined);
    const ids = new Set(await store.runner.checkIds());
    for (const [id, entry] of entries) {
      if (!ids.has(id)) {
        entry.version++;
        entries.delete(id);
      }
    }
    for (const id of idleLogged) if (!ids.has(id)) idleLogged.delete(id);
    for (const row of changed) await upsert(row, lastSync === null);
    lastSync = horizon;
    drain();
    arm();
  }

  async function stop(): Promise<void> {
    if (!stopped) logger.info({ checks: entries.size }, 'scheduler stopped');
    stopped = true;
    for (const t of [timer, refreshTimer, flushTimer]) if (t) clearTimeout(t);
    await Promise.allSettled([...running]);
    await flush();
    for (const entry of entries.values()) entry.version++;
    entries.clear();
    queue = new DueQueue();
    waiting.length = 0;
    lastSync = null;
    idleLogged.clear();
  }

  return {
    /** Loads every check, resumes the persisted schedule and starts the clock; again after stop(). */
    async start(): Promise<void> {
      if (!stopped) return;
      stopped = false;
      await refresh();
      const loop = () => {
        refreshTimer = setTimeout(() => {
          refresh().catch((err) => logger.error({ err }, 'schedule refresh failed')).finally(() => !stopped && loop());
        }, refreshMs);
        refreshTimer.unref?.();
      };
      loop();
      const flushLoop = () => {
        flushTimer = setTimeout(() => void flush().finally(() => !stopped && flushLoop()), 1_000);
        flushTimer.unref?.();
      };
      flushLoop();
      logger.info({ checks: entries.size }, 'scheduler started');
    },

    /** Re-reads one check now (after a heartbeat ping or a configuration change in this process). */
    async refreshCheck(checkId: string): Promise<void> {
      const row = await store.runner.check(checkId);
      if (!row) {
        const gone = entries.get(checkId);
        if (gone) gone.version++;
        entries.delete(checkId);
        return;
      }
      const entry = entries.get(checkId);
      if (entry && row.check_type === 'HEARTBEAT') entry.lastEvaluatedMs = null;
      await upsert(row, false);
      arm();
    },

    /** Picks up configuration changes now instead of at the next refresh. */
    refresh,

    stats() {
      return { scheduled: entries.size, inFlight, waiting: waiting.length, overlapsSkipped };
    },

    /** Whether it is scheduling (started and not stopped). */
    isRunning: () => !stopped,

    /**
     * Stops planning, waits for runs in flight and persists the schedule, then forgets its plan:
     * start() later resumes from what is persisted, as a new leader would.
     */
    stop,

    /** Stops for good (shutdown): the same as stop(). */
    close: stop,
  };
}
export type Scheduler = ReturnType<typeof createScheduler>;
