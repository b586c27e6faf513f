import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { cleanErrorMessage, errorHash } from '../domain/clean-error-message.js';
import { notFound } from '../domain/lookout-error.js';
import type { CheckHealth } from '../domain/next-check-status.js';
import { resultMeasurements } from '../domain/result-measurements.js';
import { runErrorMessages } from '../domain/run-error-messages.js';
import type { EventBus } from '../events/event-bus.js';
import type { CheckResultCreatedEvent, CheckStatusChangedEvent } from '../events/lookout-event.js';
import { toResultView } from '../contract/result-view.js';
import type { Store } from '../store/create-store.js';
import type { RanOn, RecordRunInput } from './record-run-input.js';
import { writeRunBatch, type PreparedRun, type RunOutcome } from './write-run-batch.js';
import { runAsSystem } from '../store/audit-actor-scope.js';

export type { RanOn, RecordRunInput } from './record-run-input.js';

/** What the recorder needs. */
export interface RunRecorderOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** Told of every result once it is committed (metrics); must not throw. */
  onRecorded?: (input: RecordRunInput) => void;
  /** Most runs written by one transaction (default 256); more wait for the next. */
  maxBatch?: number;
  /**
   * How long a scheduled run (one with a job lease) waits for others to share its transaction
   * (default 0: those of the same turn of the event loop). Scheduled probes end spread over time,
   * one every few milliseconds on a busy server: a short wait turns a transaction per run into one
   * per dozen. A run somebody waits on (on demand, a test session, a heartbeat ping) never waits.
   */
  windowMs?: number;
}

const THIS_RUNNER: RanOn = { kind: 'runner', hostname: os.hostname() };

/** Longest error message kept (stack traces can be huge); the hash is of the kept part. */
const MAX_MESSAGE = 10_000;

/** The log message of a status change: a check's first status, or the way it went. */
function statusChangeMessage(previous: CheckHealth | null, current: CheckHealth): string {
  if (current === 'PASSING') return previous === null ? 'check passing' : 'check recovered';
  return current === 'FAILING' ? 'check failing' : 'check degraded';
}

function isForeignKeyViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23503';
}

/** The rows and error occurrences a run stores, derived from its input. */
function prepare(input: RecordRunInput): PreparedRun {
  const { check, probe } = input;
  const testSessionId = input.testSessionId ?? null;
  const m = resultMeasurements(probe);
  const details = probe.details || probe.assertions.length > 0
    ? { ...(probe.details ?? {}), assertions: probe.details?.assertions ?? probe.assertions }
    : null;
  const occurrences = testSessionId !== null ? [] : runErrorMessages(input.probe).map((message) => {
    const raw = message.slice(0, MAX_MESSAGE);
    const cleaned = cleanErrorMessage(raw).slice(0, MAX_MESSAGE);
    return { id: randomUUID(), hash: errorHash(cleaned), raw, cleaned, seenAt: probe.startedAt };
  });
  return {
    input,
    occurrences,
    monitored: input.resultType === 'FINAL' && testSessionId === null,
    sslDaysRemaining: m.sslDaysRemaining,
    result: {
      id: randomUUID(),
      checkId: check.id,
      sequenceId: input.sequenceId,
      resultType: input.resultType,
      attempts: input.attempts,
      name: check.name,
      checkType: check.checkType,
      runLocation: input.location,
      hasFailures: probe.hasFailures,
      hasErrors: probe.hasErrors,
      isDegraded: probe.isDegraded,
      isCancelled: probe.errors.some((e) => e.code === 'CANCELLED'),
      overMaxResponseTime: probe.overMaxResponseTime,
      startedAt: probe.startedAt,
      stoppedAt: probe.stoppedAt,
      responseTime: probe.responseTime,
      statusCode: m.statusCode,
      dns: m.dns,
      tcp: m.tcp,
      tls: m.tls,
      firstByte: m.firstByte,
      download: m.download,
      wait: m.wait,
      testSessionId,
      detail: {
        apiCheckResult: probe.apiCheckResult ?? null,
        browserCheckResult: probe.browserCheckResult ?? null,
        multiStepCheckResult: probe.multiStepCheckResult ?? null,
        agenticCheckResult: probe.agenticCheckResult ?? null,
        details,
        errors: probe.errors.map((e) => ({ code: e.code, message: e.message })),
        ...(input.maintenanceWindowIds?.length ? { maintenanceWindowIds: input.maintenanceWindowIds } : {}),
        ranOn: input.ranOn ?? THIS_RUNNER,
      },
    },
  };
}

interface Waiting {
  run: PreparedRun;
  resolve(result: Record<string, any>): void;
  reject(err: unknown): void;
}

/**
 * Stores run results with group commit. `record` queues a run; the runs queued within one
 * event-loop turn (at most `maxBatch`) are written by one transaction — the result, the error
 * groups of its errors and, for a FINAL result outside test sessions, the check's status and its
 * alert outbox row (alerting's durable queue) — while the next batch fills (one transaction at a
 * time). A run that fails alone (its check deleted, its lease lost) is dropped alone
 * (write-run-batch.ts); a failed commit drops the whole batch. After the commit each stored run,
 * in order, publishes `checkResultCreated` and, when the check went between PASSING, DEGRADED and
 * FAILING, `checkStatusChanged`; only then does its `record` resolve, to the result as the API
 * shows it. It rejects with NOT_FOUND when the check was deleted while it ran, LEASE_LOST when
 * its job's lease was lost.
 */
export function createRunRecorder({ store, bus, logger, onRecorded, maxBatch = 256, windowMs = 0 }: RunRecorderOptions) {
  let waiting: Waiting[] = [];
  let tick: { cancel(): void } | null = null;
  /** Whether a queued run is one somebody waits on: it goes in the next transaction, window or not. */
  const isAwaited = (w: Waiting) => w.run.input.lease === undefined;

  /** Flushes after the window (or on the next turn without one, or when a queued run is awaited). */
  function later(): { cancel(): void } {
    if (windowMs <= 0 || waiting.some(isAwaited)) {
      const immediate = setImmediate(flush);
      return { cancel: () => clearImmediate(immediate) };
    }
    const timer = setTimeout(flush, windowMs);
    return { cancel: () => clearTimeout(timer) };
  }
  let flushing: Promise<void> | null = null;
  // Batches settle one after the other, so events keep the order of the commits.
  let settling: Promise<void> = Promise.resolve();

  async function publish(event: CheckResultCreatedEvent | CheckStatusChangedEvent): Promise<void> {
    try {
      await bus.publish(event);
    } catch (err) {
      // The result is stored; a bus failure must not make the runner think it was lost.
      logger.error({ err, type: event.type, checkId: event.checkId }, 'publishing a run event failed');
    }
  }

  /**
   * A status page service built from this check shows its state: move the account's public content
   * version on so cached pages are rebuilt on their next request, and tell open pages to refresh.
   */
  async function refreshPublicPages(accountId: string, checkId: string): Promise<void> {
    try {
      const version = await store.publicContentVersions.bumpIfCheckShown(accountId, checkId);
      if (version !== null) await bus.publish({ type: 'publicContentChanged', accountId, version, subject: 'check', subjectId: checkId });
    } catch (err) {
      // The result is stored; pages catch up within the minute their model is cached for.
      logger.error({ err, accountId, checkId }, 'refreshing status pages after a check status change failed');
    }
  }

  async function settle(batch: Waiting[], outcomes: RunOutcome[]): Promise<void> {
    for (let i = 0; i < batch.length; i++) {
      const { run: { input }, resolve, reject } = batch[i]!;
      const { check } = input;
      const outcome = outcomes[i]!;
      if ('error' in outcome) {
        reject(isForeignKeyViolation(outcome.error) ? notFound('Check', check.id) : outcome.error);
        continue;
      }
      // A throw here goes to this run's caller alone: the chain of later batches must go on.
      try {
        const result = toResultView(outcome.row);
        onRecorded?.(input);
        await publish({
          type: 'checkResultCreated', accountId: check.accountId, checkId: check.id, groupId: check.groupId,
          tags: check.data.tags ?? [], result,
        });
        if (outcome.change) {
          const { previous, current } = outcome.change;
          logger.info({ accountId: check.accountId, checkId: check.id, checkType: check.checkType, from: previous, to: current }, statusChangeMessage(previous, current));
          await publish({ type: 'checkStatusChanged', accountId: check.accountId, checkId: check.id, ...outcome.change });
          await refreshPublicPages(check.accountId, check.id);
        }
        resolve(result);
      } catch (err) {
        reject(err);
      }
    }
  }

  async function write(batch: Waiting[]): Promise<void> {
    let outcomes: RunOutcome[];
    try {
      outcomes = await writeRunBatch(store.db, batch.map((w) => w.run));
    } catch (error) {
      // Nothing of the batch is stored: no run of it may be acknowledged.
      outcomes = batch.map(() => ({ error }));
    }
    settling = settling.then(() => settle(batch, outcomes));
  }

  function flush(): void {
    tick = null;
    if (flushing || waiting.length === 0) return;
    const batch = waiting.slice(0, maxBatch);
    waiting = waiting.slice(batch.length);
    // The runner's own writes, and what follows from them (alerts, incidents): a batch holds runs of many
    // callers, and a check's state change is the system's even when somebody asked for the run.
    flushing = runAsSystem(() => write(batch)).finally(() => {
      flushing = null;
      // What queued while this batch committed has waited a turn (a window) already.
      if (windowMs <= 0 || waiting.length >= maxBatch || waiting.some(isAwaited)) flush();
      else if (waiting.length > 0) tick ??= later();
    });
  }

  return {
    /** Queues one run; resolves to its result (API view) once committed and published. */
    record(input: RecordRunInput): Promise<Record<string, any>> {
      return new Promise((resolve, reject) => {
        const queued: Waiting = { run: prepare(input), resolve, reject };
        waiting.push(queued);
        if (flushing) return;
        if (waiting.length >= maxBatch) {
          tick?.cancel();
          flush();
        } else if (tick && isAwaited(queued)) {
          // Scheduled runs waiting out the window go now, with it.
          tick.cancel();
          tick = later();
        } else tick ??= later();
      });
    },

    /** Writes what is queued and waits until every run recorded so far is settled. */
    async close(): Promise<void> {
      while (tick || flushing || waiting.length > 0) {
        tick?.cancel();
        flush();
        if (flushing) await flushing;
      }
      await settling;
    },
  };
}
export type RunRecorder = ReturnType<typeof createRunRecorder>;
