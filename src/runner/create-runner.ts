import { heartbeatNotRunnable } from '../domain/heartbeat-not-runnable.js';
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { CheckType } from '../domain/catalog.js';
import { heartbeatState } from '../domain/heartbeat-state.js';
import { idleReason } from '../domain/idle-reason.js';
import { LookoutError, notFound } from '../domain/lookout-error.js';
import { withRunOverrides, type RunOverrides } from '../domain/run-overrides.js';
import { locationsForSlot, slotIndex, cadenceOf } from '../domain/schedule-slots.js';
import type { Store } from '../store/create-store.js';
import type { ScheduledCheckRow } from '../store/runner-repository.js';
import { createScheduler, type ScheduledRun } from './create-scheduler.js';
import { createRunWorker, type RunJobEnd } from './create-run-worker.js';
import type { NewRunJob, OnDemandRun, RunJobLease, RunJobRow } from '../store/run-jobs-repository.js';
import { toResultView } from '../contract/result-view.js';
import { randomUUID } from 'node:crypto';
import { AGENT_LIVE_MS, dataCenterLane, privateLocationLane } from '../domain/agent-lanes.js';
import type { Executor, RunnableCheck } from './executor.js';
import { prepareRun, toRunnable } from './prepare-run.js';
import { batchedRunReads } from './run-reads.js';
import { abortableSleep, runCheck, type RecordRun, type RunOutcome } from './run-check.js';
import os from 'node:os';
import { errorProbe, heartbeatPingProbe } from './special-probes.js';

/** Options of the in-process runner. */
export interface RunnerOptions {
  store: Store;
  logger: Logger;
  record: RecordRun;
  /** Executor per check type; HEARTBEAT is evaluated, not executed. */
  executors: Partial<Record<CheckType, Executor>>;
  /** Scheduled runs in flight at most. */
  concurrency?: number;
  /** Whether to run the schedule (false: only on-demand runs, e.g. a second API process). */
  schedule?: boolean;
  /** Lease, renewal and polling of the run queue (see createRunWorker); tests shorten them. */
  queue?: { leaseMs?: number; renewMs?: number; pollMs?: number; privateGraceMs?: number };
  refreshMs?: number;
  onStartDelay?: (delayMs: number) => void;
  /**
   * How long before its slot a scheduled run is queued, claimed and prepared (check, variables,
   * certificates read), so that its probe starts on a timer of its own when the slot comes instead
   * of behind whatever the storage is doing then. Default 2 s; 0 queues at the slot.
   */
  leadMs?: number;
  /** Whether maintenance in progress pauses the check: its scheduled runs (and heartbeat deadlines) are skipped. */
  isPaused?: (check: RunnableCheck) => boolean;
}

/** How often a caller of an on-demand run on an agent looks whether it is done. */
const AGENT_RUN_POLL_MS = 200;

/** Lanes of a check: its data-center locations, then its private locations. */
function lanes(check: RunnableCheck): { all: string[]; isPrivate: Set<string> } {
  const priv: string[] = check.data.privateLocations ?? [];
  return { all: [...(check.data.locations ?? []), ...priv], isPrivate: new Set(priv) };
}

/**
 * The runner: the scheduler plus run orchestration. A slot's runs in private locations, and in
 * data-center locations that have live agents, are queued in those locations' lanes for their
 * agents (`lookout agent`); the rest run in the runner processes. A private-location run no live
 * agent takes ends with a NO_AGENT error result instead of waiting for nobody, and so does an
 * on-demand run of a private location.
 * Long by design: the scheduler, agent lanes and on-demand runs share the runs in flight, the lane queue and the shutdown order; preparing, executing and recording a run are their own files.
 */
export function createRunner(options: RunnerOptions) {
  const { store, logger, record } = options;
  const leadMs = options.leadMs ?? 2_000;
  // Claimed runs come by the hundred: their reads share statements.
  const reads = batchedRunReads(store);
  // Scheduled runs go through the durable queue; any runner process's worker may take them.
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomUUID()}`;
  const shutdown = new AbortController();
  // Every run in flight listens on the shutdown signal: hundreds at once are expected.
  setMaxListeners(0, shutdown.signal);

  /**
   * Runs `check` in `runLocations` and records every attempt. With `job`, each result carries the
   * job's lease (the recorder stores it only while the lease holds) and the run stops when the
   * job's signal aborts (the lease was lost).
   */
  async function execute(
    check: RunnableCheck, runLocations: string[], testSessionId: string | null = null,
    job?: { lease: RunJobLease; signal: AbortSignal },
    how: { onDemand?: { overrides: RunOverrides | undefined }; sequenceId?: string; notBefore?: number } = {},
  ): Promise<RunOutcome> {
    const record: RecordRun = job ? (input) => options.record({ ...input, lease: job.lease }) : options.record;
    const signal = job ? AbortSignal.any([shutdown.signal, job.signal]) : shutdown.signal;
    const { all, isPrivate } = lanes(check);
    const outcome: RunOutcome = { sequenceId: how.sequenceId ?? '', finals: [] };
    const onDemand = how.onDemand;
    // On demand (not a queued job): the locations agents serve now are queued for them and waited on.
    if (onDemand) {
      const live = await liveAgentLanes();
      const laneOf = (l: string) => (isPrivate.has(l) ? privateLocationLane(check.accountId, l) : dataCenterLane(l));
      const forAgents = runLocations.filter((l) => live.has(laneOf(l)));
      if (forAgents.length > 0) {
        outcome.sequenceId = randomUUID();
        const local = runLocations.filter((l) => !forAgents.includes(l));
        const [here, ...there] = await Promise.all([
          local.length > 0 ? execute(check, local, testSessionId, job, { sequenceId: outcome.sequenceId }) : Promise.resolve(null),
          ...forAgents.map((l) => runOnAgent(check, l, laneOf(l), { sequenceId: outcome.sequenceId, testSessionId, overrides: (onDemand.overrides ?? null) as Record<string, unknown> | null })),
        ]);
        outcome.finals.push(...(here?.finals ?? []), ...there);
        return outcome;
      }
    }
    const prepared = await prepareRun(reads, check);
    if (how.notBefore !== undefined) {
      // Prepared ahead of its slot: the probe starts on its own timer, not behind storage work.
      await abortableSleep(how.notBefore - Date.now(), signal);
      if (signal.aborted) return { ...outcome, notStarted: true };
      // Maintenance that began while it waited pauses it as it would have at its slot.
      if (options.isPaused?.(check)) return outcome;
      options.onStartDelay?.(Date.now() - how.notBefore);
    }
    const executor = options.executors[check.checkType];
    const dataCenter = runLocations.filter((l) => !isPrivate.has(l));
    if (dataCenter.length > 0) {
      if (!executor) {
        const r = await record({
          check, location: dataCenter[0]!, sequenceId: crypto.randomUUID(), attempts: 1, resultType: 'FINAL', testSessionId,
          probe: errorProbe('NOT_SUPPORTED', `${check.checkType} checks are not supported by this runner`),
        });
        return { sequenceId: String(r.sequenceId), finals: [r] };
      }
      const run = await runCheck({
        check: prepared.check, variables: prepared.variables, locations: dataCenter, allLocations: all.filter((l) => !isPrivate.has(l)),
        executor, record, signal, logger, testSessionId,
        clientCertificates: prepared.clientCertificates, sequenceId: outcome.sequenceId || undefined,
      });
      outcome.sequenceId = run.sequenceId;
      outcome.finals.push(...run.finals);
    }
    for (const slug of runLocations.filter((l) => isPrivate.has(l))) {
      const sequenceId = outcome.sequenceId || crypto.randomUUID();
      outcome.sequenceId = sequenceId;
      outcome.finals.push(await record({
        check, location: slug, sequenceId, attempts: 1, resultType: 'FINAL', testSessionId,
        probe: errorProbe('NO_AGENT', `No agent of private location "${slug}" is connected to take the run`),
      }));
    }
    return outcome;
  }

  /**
   * An on-demand run of one location an agent serves: queued in its lane and waited on until its
   * job is done (re-leased if its agent dies; a private location left without agents ends with
   * NO_AGENT from a runner process). Resolves to its FINAL result.
   */
  async function runOnAgent(check: RunnableCheck, location: string, lane: string, run: OnDemandRun): Promise<Record<string, any>> {
    const id = await store.runJobs.enqueueOnDemand(check.id, location, lane, run);
    if (id === null) throw notFound('Check', check.id);
    for (;;) {
      const state = await store.runJobs.stateOf(id);
      if (state === 'done' || state === 'skipped' || state === undefined) break;
      if (shutdown.signal.aborted) break;
      await abortableSleep(AGENT_RUN_POLL_MS, shutdown.signal);
    }
    const row = await store.results.finalOfRun(check.accountId, check.id, run.sequenceId, location);
    if (row) return toResultView(row);
    // The job ended without its result (the run failed on the agent, or this process is stopping).
    return options.record({
      check, location, sequenceId: run.sequenceId, attempts: 1, resultType: 'FINAL', testSessionId: run.testSessionId,
      probe: errorProbe('NO_RESULT', `The run in "${location}" ended without a result${shutdown.signal.aborted ? ' (the service is stopping)' : ''}`),
    });
  }

  async function evaluateHeartbeat(row: ScheduledCheckRow, plannedMs: number): Promise<void> {
    const check = toRunnable(row);
    const ping = await store.runner.lastPing(row.id);
    const state = heartbeatState(check.data.heartbeat, ping?.received_at ?? null, row.created_at, new Date(Math.max(Date.now(), plannedMs)), null);
    if (state.state !== 'LATE' && state.state !== 'FAILING') return;
    const location = check.data.locations?.[0] ?? 'heartbeat';
    const lastFailed = ping?.kind === 'fail';
    await record({
      check, location, sequenceId: crypto.randomUUID(), attempts: 1, resultType: 'FINAL',
      probe: errorProbe(
        'HEARTBEAT_MISSED',
        `No ping received by ${state.nextDeadline.toISOString()} (period plus grace after ${ping ? `the last ${lastFailed ? 'failure report' : 'ping'} at ${ping.received_at.toISOString()}` : 'creation'})`,
        new Date(),
        { failure: true },
      ),
    });
  }

  /** The schedule's part: a due slot becomes a queued job (with the locations it runs in); heartbeat deadlines are judged here. */
  async function runScheduled(job: ScheduledRun): Promise<void> {
    if (options.isPaused?.(toRunnable(job.row))) return;
    if (job.row.check_type === 'HEARTBEAT') return evaluateHeartbeat(job.row, job.plannedMs);
    const check = toRunnable(job.row);
    const { all, isPrivate } = lanes(check);
    const cadence = cadenceOf({ id: check.id, frequency: check.data.frequency, frequencyOffset: check.data.frequencyOffset });
    const locations = locationsForSlot(all, check.data.runParallel === true, slotIndex(cadence, job.plannedMs));
    if (locations.length === 0) return;
    const live = await liveAgentLanes();
    const slotAt = new Date(job.plannedMs);
    const own = locations.filter((l) => !isPrivate.has(l) && !live.has(dataCenterLane(l)));
    const queued = [
      ...(own.length > 0 ? [enqueueSoon({ checkId: check.id, slotAt, locations: own })] : []),
      ...locations.filter((l) => !own.includes(l)).map((l) => enqueueSoon({
        checkId: check.id, slotAt, locations: [l], lane: isPrivate.has(l) ? privateLocationLane(check.accountId, l) : dataCenterLane(l),
      })),
    ];
    await Promise.all(queued);
  }

  // Which lanes have live agents, looked up at most every 2 s (slots come in thousands).
  let lanesCache: { at: number; lanes: Promise<Set<string>> } | null = null;
  function liveAgentLanes(): Promise<Set<string>> {
    if (!lanesCache || Date.now() - lanesCache.at > 2_000) {
      const lanes = store.agents.liveLanes(AGENT_LIVE_MS).catch((err: unknown) => {
        logger.error({ err }, 'looking up live agents failed; data-center runs stay in the runner processes');
        return new Set<string>();
      });
      lanesCache = { at: Date.now(), lanes };
    }
    return lanesCache.lanes;
  }

  // Slots falling due together (thousands at a minute boundary) are queued in one statement.
  let pending: NewRunJob[] = [];
  let flushing: Promise<void> | null = null;
  function enqueueSoon(job: NewRunJob): Promise<void> {
    pending.push(job);
    flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const batch = pending;
      pending = [];
      flushing = null;
      await store.runJobs.enqueue(batch);
      worker.wake();
    });
    return flushing;
  }

  /** The worker's part: one queued job, run with the check as it is now. */
  async function runJob(job: RunJobRow, lease: RunJobLease, signal: AbortSignal): Promise<RunJobEnd> {
    const row = await reads.check(job.check_id);
    // Deleted, turned off or paused since it was queued: nothing to run (the worker closes the job).
    if (!row) return 'ended';
    const check = toRunnable(row);
    if (job.run) {
      // An on-demand run an agent did not take (its agents are gone): run here, as it was asked for.
      const asked = { ...check, data: withRunOverrides(check.data, (job.run.overrides ?? undefined) as RunOverrides | undefined) };
      return endOf(job, await execute(asked, job.locations, job.run.testSessionId, { lease, signal }, { sequenceId: job.run.sequenceId }));
    }
    if (check.data.activated === false || options.isPaused?.(check)) return 'ended';
    return endOf(job, await execute(check, job.locations, null, { lease, signal }, { notBefore: job.slot_at.getTime() }));
  }

  function endOf(job: RunJobRow, outcome: RunOutcome): RunJobEnd {
    if (outcome.notStarted) return 'not-started';
    return outcome.finals.length >= job.locations.length ? 'stored' : 'ended';
  }

  const { privateGraceMs = AGENT_LIVE_MS, ...queue } = options.queue ?? {};
  const worker = createRunWorker({
    store, logger, owner, concurrency: options.concurrency ?? 100, run: runJob,
    scope: { runner: { agentLiveMs: AGENT_LIVE_MS, privateGraceMs } },
    ...queue,
  });

  const scheduler = createScheduler({
    store, logger, run: runScheduled, concurrency: options.concurrency, refreshMs: options.refreshMs, leadMs,
  });

  return {
    scheduler,
    /** Starts scheduling: this process leads the schedule (see createLeaderElection). A process with `schedule: false` never does. */
    async startScheduling(): Promise<void> {
      if (options.schedule !== false) await scheduler.start();
    },
    /** Stops scheduling (leadership lost): the schedule is persisted for the next leader; queued runs stay queued. */
    async stopScheduling(): Promise<void> {
      await scheduler.stop();
    },
    /** Starts taking queued runs (every runner process, leader or not). */
    startWorking(): void {
      if (options.schedule !== false) worker.start();
    },
    worker,

    /**
     * Runs a check now, in one location (round-robin start: its first) or all for parallel checks;
     * resolves with the FINAL results once the run (with its retries) is over. A check with
     * nowhere to run (idleReason) and no location given is refused with CONFLICT (409).
     */
    /** Runs a check now; a heartbeat check (nothing to run) is a CONFLICT with code HEARTBEAT_NOT_RUNNABLE. */
    async runNow(accountId: string, checkId: string, opts: { testSessionId?: string | null; location?: string; overrides?: RunOverrides } = {}): Promise<RunOutcome> {
      const row = await store.runner.check(checkId);
      if (!row || row.account_id !== accountId) throw notFound('Check', checkId);
      const runnable = toRunnable(row);
      const check = { ...runnable, data: withRunOverrides(runnable.data, opts.overrides) };
      const { all } = lanes(check);
      // Nothing to run: recording a failed result would page on-call for a healthy heartbeat.
      if (check.checkType === 'HEARTBEAT') throw heartbeatNotRunnable(checkId);
      if (!opts.location) {
        // Nowhere to run: answering 200 with no results would hide why nothing happened.
        const idle = idleReason({ ...check.data, checkType: check.checkType, groupId: check.groupId }, null);
        if (idle) throw new LookoutError('CONFLICT', `Check ${checkId} cannot run: ${idle.message}`, { attributes: { idle } });
      }
      const locations = opts.location ? [opts.location] : check.data.runParallel ? all : all.slice(0, 1);
      return execute(check, locations, opts.testSessionId ?? null, undefined, { onDemand: { overrides: opts.overrides } });
    },

    /** Records a heartbeat ping as a passing (or, for /fail, failing) result and moves the deadline. */
    async recordPing(row: ScheduledCheckRow, kind: 'ping' | 'fail', at: Date): Promise<void> {
      const check = toRunnable(row);
      const location = check.data.locations?.[0] ?? 'heartbeat';
      const probe = kind === 'ping'
        ? heartbeatPingProbe(at, { heartbeat: { event: 'ping' } })
        : errorProbe('HEARTBEAT_FAILED', 'The job reported a failure through /ping/{token}/fail', at, { failure: true });
      await record({ check, location, sequenceId: crypto.randomUUID(), attempts: 1, resultType: 'FINAL', probe });
      // Only the scheduling process evaluates deadlines: another arming its own would record a second
      // missed-heartbeat result beside the leader's. The leader reads the ping at its deadline.
      if (scheduler.isRunning()) await scheduler.refreshCheck(row.id);
    },

    async close(): Promise<void> {
      shutdown.abort();
      await scheduler.close();
      await worker.close();
    },
  };
}
export type Runner = ReturnType<typeof createRunner>;
