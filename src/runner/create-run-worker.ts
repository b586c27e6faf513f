import type { Logger } from 'pino';
import { LeaseLostError } from '../domain/lease-lost-error.js';
import { isLookoutError } from '../domain/lookout-error.js';
import type { Store } from '../store/create-store.js';
import type { ClaimScope, RunJobLease, RunJobRow } from '../store/run-jobs-repository.js';

/** Options of createRunWorker. */
export interface RunWorkerOptions {
  store: Store;
  logger: Logger;
  /** This process's name on the leases it holds (unique per process start). */
  owner: string;
  /** Jobs run at once at most. */
  concurrency: number;
  /** Runs one claimed job until its FINAL result is stored (the lease goes with every result). */
  run(job: RunJobRow, lease: RunJobLease, signal: AbortSignal): Promise<RunJobEnd>;
  /** A lease lasts this long unless renewed; a dead worker's jobs are claimed again after it. Default 15 s. */
  leaseMs?: number;
  /** Leases are renewed this often (well inside leaseMs). Default 5 s. */
  renewMs?: number;
  /** Besides wake(), the queue is looked at this often (jobs queued by another process). Default 1 s. */
  pollMs?: number;
  /** Which jobs it claims (default: the runner processes' share, see ClaimScope). */
  scope?: ClaimScope;
}

/**
 * How a job's run ended: every FINAL result stored (storing the last one closed the job), ended
 * without them (the job is closed, not retried), or stopped before its slot came (the process is
 * stopping: the job goes back to the queue for another process to run on time).
 */
export type RunJobEnd = 'stored' | 'ended' | 'not-started';

/**
 * What is left to do with a job once its run ended: nothing when its last FINAL result closed it
 * (in the transaction that stored it), back to the queue when it never started, else closed (it
 * threw, or the check went away), never retried.
 */
async function settleJob(store: Store, logger: Logger, job: RunJobRow, lease: RunJobLease, end: RunJobEnd | 'lease-lost' | 'failed'): Promise<void> {
  if (end === 'stored') return;
  if (end === 'not-started') {
    await store.runJobs.release(lease.owner, [job.id]).catch((err: unknown) => logger.error({ err, jobId: job.id }, 'could not give a run job back'));
    return;
  }
  if (end === 'lease-lost') logger.warn({ jobId: job.id, checkId: job.check_id }, 'run dropped: its lease was lost to another process');
  await store.runJobs.close(lease).catch((err: unknown) => logger.error({ err, jobId: job.id }, 'could not close a run job'));
}

/** Marks queued slots whose check still runs an earlier one as skipped; now and then forgets old finished jobs. */
async function skipOverlapsAndPrune(store: Store, logger: Logger, prune: boolean): Promise<void> {
  for (const s of await store.runJobs.skipOverlapping()) {
    logger.warn({ checkId: s.check_id, slot: s.slot_at.toISOString() }, 'run skipped: the check was still running its previous slot');
  }
  if (prune) await store.runJobs.pruneFinished(new Date(Date.now() - FINISHED_KEPT_MS));
}

/** How long places freed by ending runs are gathered before the next claim. */
const CLAIM_GATHER_MS = 50;

/** The worker of one process: claims due run jobs, runs them under renewed leases. */
export interface RunWorker {
  start(): void;
  /** Looks at the queue now (this process just queued something). */
  wake(): void;
  stats(): { inFlight: number; claimed: number; leasesLost: number };
  /** Stops claiming and waits for the jobs it runs (graceful shutdown finishes them). */
  close(): Promise<void>;
}

/** How long finished jobs are kept: long enough that no leader re-plans their slots. */
const FINISHED_KEPT_MS = 24 * 3_600_000;

/**
 * Takes scheduled runs from the durable queue (run_jobs) and runs them, any number of processes
 * side by side: each claim is `FOR UPDATE SKIP LOCKED`, so a job goes to one worker. Leases are
 * renewed while the job runs; a worker that dies stops renewing, and its jobs are claimed again
 * once their leases expire (at most leaseMs + pollMs later). A run whose lease was lost is
 * aborted, and the recorder refuses its result (LeaseLostError), so a slot is stored once. A job
 * that ends without its FINAL result (the run threw) is closed rather than retried for ever.
 * Runs claimed ahead of their slot (the scheduler's lead) hold a place of `concurrency` too, so
 * what one process holds is bounded and the other runner processes get their share.
 */
export function createRunWorker(options: RunWorkerOptions): RunWorker {
  const { store, logger, owner, concurrency } = options;
  const leaseMs = options.leaseMs ?? 15_000;
  const renewMs = options.renewMs ?? 5_000;
  const pollMs = options.pollMs ?? 1_000;
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let stopped = true;
  let claiming: Promise<void> | null = null;
  let again = false;
  let claimed = 0;
  // Whether the last claim took as many jobs as it could: more may wait for a free place.
  let saturated = false;
  let leasesLost = 0;
  let pollTimer: NodeJS.Timeout | undefined;
  let renewTimer: NodeJS.Timeout | undefined;
  let lastPrune = 0;
  // While the database is away the poll's claim is the only statement sent: it notices the return.
  let databaseAway = false;

  /** Logs the database going away or coming back (once per change); whether the error was that. */
  function noteDatabase(err: unknown): boolean {
    const away = isLookoutError(err) && err.code === 'DATABASE_UNAVAILABLE';
    if (away && !databaseAway) logger.info({ err: err.message }, 'database unavailable: claiming run jobs paused until it answers');
    else if (!away && databaseAway) logger.info('database reachable again: claiming run jobs resumed');
    databaseAway = away;
    return away;
  }

  async function runOne(job: RunJobRow): Promise<void> {
    const lease = { id: job.id, owner };
    const abort = new AbortController();
    const done = (async () => {
      let end: RunJobEnd | 'lease-lost' | 'failed';
      try {
        end = await options.run(job, lease, abort.signal);
      } catch (err) {
        end = err instanceof LeaseLostError ? 'lease-lost' : 'failed';
        if (end === 'failed') logger.error({ err, jobId: job.id, checkId: job.check_id }, 'run job failed');
      }
      if (end === 'lease-lost') leasesLost++;
      await settleJob(store, logger, job, lease, end);
    })().finally(() => {
      running.delete(job.id);
      // A place came free: worth a claim only when the last one found more than it could take,
      // and then for the places that free up meanwhile too.
      if (saturated) gatherThenClaim();
    });
    running.set(job.id, { abort, done });
  }

  async function claim(): Promise<void> {
    do {
      again = false;
      const free = concurrency - running.size;
      if (stopped) return;
      if (free <= 0) {
        saturated = true;
        return;
      }
      const jobs = await store.runJobs.claim(owner, free, leaseMs, options.scope);
      noteDatabase(undefined);
      claimed += jobs.length;
      for (const job of jobs) void runOne(job);
      // A full batch may mean more is waiting.
      saturated = jobs.length === free;
      if (saturated) again = true;
    } while (again && !stopped);
  }

  let gathering: NodeJS.Timeout | undefined;
  function gatherThenClaim(): void {
    gathering ??= setTimeout(() => {
      gathering = undefined;
      pump();
    }, CLAIM_GATHER_MS);
  }

  function pump(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claim()
      .catch((err: unknown) => {
        if (!noteDatabase(err)) logger.error({ err }, 'claiming run jobs failed');
      })
      .finally(() => {
        claiming = null;
        if (again) pump();
      });
  }

  async function housekeeping(): Promise<void> {
    const prune = Date.now() - lastPrune > 600_000;
    if (prune) lastPrune = Date.now();
    await skipOverlapsAndPrune(store, logger, prune);
  }

  async function renew(): Promise<void> {
    const lost = await store.runJobs.renew(owner, [...running.keys()], leaseMs);
    for (const id of lost) {
      leasesLost++;
      running.get(id)?.abort.abort();
      logger.warn({ jobId: id }, 'lease of a running job lost: the run is stopped, another process takes the slot');
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      const poll = () => {
        pollTimer = setTimeout(() => {
          pump();
          (databaseAway ? Promise.resolve() : housekeeping()).catch((err: unknown) => logger.error({ err }, 'run queue housekeeping failed')).finally(() => !stopped && poll());
        }, pollMs);
        pollTimer.unref?.();
      };
      const renewLoop = () => {
        renewTimer = setTimeout(() => {
          renew().catch((err: unknown) => {
            if (!noteDatabase(err)) logger.error({ err }, 'renewing run leases failed');
          }).finally(() => !stopped && renewLoop());
        }, renewMs);
        renewTimer.unref?.();
      };
      poll();
      renewLoop();
      pump();
    },
    wake: pump,
    stats: () => ({ inFlight: running.size, claimed, leasesLost }),
    async close() {
      stopped = true;
      if (pollTimer) clearTimeout(pollTimer);
      if (gathering) clearTimeout(gathering);
      await claiming;
      // Runs in flight keep their leases renewed until they end.
      const keepRenewing = setInterval(() => void renew().catch(() => {}), renewMs);
      try {
        await Promise.allSettled([...running.values()].map((r) => r.done));
      } finally {
        clearInterval(keepRenewing);
        if (renewTimer) clearTimeout(renewTimer);
      }
    },
  };
}
