import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { cleanErrorMessage, errorHash } from '../domain/clean-error-message.js';
import type { ProbeResult, ResultType } from '../domain/check-result.js';
import { notFound } from '../domain/lookout-error.js';
import { checkHealth, nextCheckStatus, type CheckHealth } from '../domain/next-check-status.js';
import { resultMeasurements } from '../domain/result-measurements.js';
import { runErrorMessages } from '../domain/run-error-messages.js';
import type { EventBus } from '../events/event-bus.js';
import type { CheckResultCreatedEvent, CheckStatusChangedEvent } from '../events/lookout-event.js';
import type { RunnableCheck } from '../runner/executor.js';
import { statusStateOf } from '../store/check-statuses-repository.js';
import type { Store } from '../store/create-store.js';
import type { Repositories } from '../store/repositories.js';
import type { ResultRow } from '../store/results-repository.js';
import type { RunJobLease } from '../store/run-jobs-repository.js';
import { LeaseLostError } from '../domain/lease-lost-error.js';
import { toCheckStatusView } from './check-status-view.js';
import { toResultView } from './result-view.js';

/** What the recorder needs. */
export interface RunRecorderOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** Told of every result once it is committed (metrics); must not throw. */
  onRecorded?: (input: RecordRunInput) => void;
}

/** One attempt of one check, as an executor returned it. */
export interface RecordRunInput {
  check: RunnableCheck;
  /** Location (lane) the attempt ran in: the result's runLocation. */
  location: string;
  /** Shared by the attempts of one run and its FINAL result. */
  sequenceId: string;
  /** 1-based number of this attempt within the run. */
  attempts: number;
  resultType: ResultType;
  /** Secret values must already be scrubbed from it (executors do): it is stored as given. */
  probe: ProbeResult;
  /** Set for runs of a test session: kept out of the check's history, statuses and error groups. */
  testSessionId?: string | null;
  /** Maintenance windows in progress that cover the check (maintenance-effects.ts): the result is marked with them. */
  maintenanceWindowIds?: number[];
  /**
   * The queued job this run is (scheduled runs): the result is stored only while this process
   * still holds the job's lease, and a FINAL result is counted on the job in the same transaction
   * (refused once the job has one per location).
   */
  lease?: RunJobLease;
  /** Who ran it (default: this process, a runner). */
  ranOn?: RanOn;
}

/** Where a run really ran: a runner process (its host) or an agent of the location. */
export type RanOn = { kind: 'runner'; hostname: string } | { kind: 'agent'; agentId: string };

const THIS_RUNNER: RanOn = { kind: 'runner', hostname: os.hostname() };

/** Longest error message kept (stack traces can be huge); the hash is of the kept part. */
const MAX_MESSAGE = 10_000;

interface StatusChange {
  previous: CheckHealth | null;
  current: CheckHealth;
  status: Record<string, any>;
}

/** The log message of a status change: a check's first status, or the way it went. */
function statusChangeMessage(previous: CheckHealth | null, current: CheckHealth): string {
  if (current === 'PASSING') return previous === null ? 'check passing' : 'check recovered';
  return current === 'FAILING' ? 'check failing' : 'check degraded';
}

function isForeignKeyViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23503';
}

/**
 * Stores run results. `record` writes, in one transaction, the result, the error groups of its
 * errors and (for a FINAL result outside test sessions) the check's status and its alert outbox
 * row (alerting's durable queue); after commit it
 * publishes `checkResultCreated` and, when the check went between PASSING, DEGRADED and FAILING,
 * `checkStatusChanged`. It resolves to the result as the API shows it, and rejects with
 * NOT_FOUND when the check was deleted while it ran.
 */
export function createRunRecorder({ store, bus, logger, onRecorded }: RunRecorderOptions) {
  async function publish(event: CheckResultCreatedEvent | CheckStatusChangedEvent): Promise<void> {
    try {
      await bus.publish(event);
    } catch (err) {
      // The result is stored; a bus failure must not make the runner think it was lost.
      logger.error({ err, type: event.type, checkId: event.checkId }, 'publishing a run event failed');
    }
  }

  async function errorGroupIds(repos: Repositories, input: RecordRunInput): Promise<string[]> {
    const ids: string[] = [];
    for (const message of runErrorMessages(input.probe)) {
      const raw = message.slice(0, MAX_MESSAGE);
      const cleaned = cleanErrorMessage(raw).slice(0, MAX_MESSAGE);
      const id = await repos.errorGroups.recordOccurrence(input.check.accountId, input.check.id, {
        id: randomUUID(), hash: errorHash(cleaned), raw, cleaned, seenAt: input.probe.startedAt,
      });
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  async function updateStatus(repos: Repositories, input: RecordRunInput, row: ResultRow, sslDaysRemaining: number | null): Promise<StatusChange | null> {
    const { check } = input;
    const locations = [...(check.data.locations ?? []), ...(check.data.privateLocations ?? [])];
    const run = {
      hasFailures: row.has_failures, hasErrors: row.has_errors, isDegraded: row.is_degraded, responseTime: row.response_time,
      location: row.run_location, checkRunId: row.check_run_id, startedAt: row.started_at, sslDaysRemaining,
    };
    // Two first results of a check can race to create its status: the loser locks the winner's row.
    for (let tries = 0; tries < 2; tries++) {
      const stored = await repos.checkStatuses.getForUpdate(check.accountId, check.id);
      const previous = stored ? statusStateOf(stored) : null;
      const next = nextCheckStatus(previous, run, locations);
      if (stored) await repos.checkStatuses.update(check.accountId, check.id, check.name, next);
      else if (!(await repos.checkStatuses.insertIfAbsent(check.accountId, check.id, check.name, next))) continue;
      const before = previous ? checkHealth(previous) : null;
      const after = checkHealth(next);
      if (before === after) return null;
      const status = await repos.checkStatuses.get(check.accountId, check.id);
      return { previous: before, current: after, status: toCheckStatusView(status!) };
    }
    throw new Error(`the status of check ${check.id} could be neither created nor locked`);
  }

  return {
    async record(input: RecordRunInput): Promise<Record<string, any>> {
      const { check, probe } = input;
      const testSessionId = input.testSessionId ?? null;
      const m = resultMeasurements(probe);
      const details = probe.details || probe.assertions.length > 0
        ? { ...(probe.details ?? {}), assertions: probe.details?.assertions ?? probe.assertions }
        : null;
      let outcome: { row: ResultRow; change: StatusChange | null };
      try {
        outcome = await store.transaction(async (repos) => {
          if (input.lease) {
            const held = input.resultType === 'FINAL' ? await repos.runJobs.countFinal(input.lease) : await repos.runJobs.holds(input.lease);
            if (!held) throw new LeaseLostError(input.lease.id);
          }
          const groupIds = testSessionId === null ? await errorGroupIds(repos, input) : [];
          const row = await repos.results.insert(check.accountId, {
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
            errorGroupIds: groupIds,
            testSessionId,
            detail: {
              apiCheckResult: probe.apiCheckResult ?? null,
              browserCheckResult: probe.browserCheckResult ?? null,
              multiStepCheckResult: probe.multiStepCheckResult ?? null,
              details,
              errors: probe.errors.map((e) => ({ code: e.code, message: e.message })),
              ...(input.maintenanceWindowIds?.length ? { maintenanceWindowIds: input.maintenanceWindowIds } : {}),
              ranOn: input.ranOn ?? THIS_RUNNER,
            },
          });
          const monitored = input.resultType === 'FINAL' && testSessionId === null;
          const change = monitored ? await updateStatus(repos, input, row, m.sslDaysRemaining) : null;
          // Alerting reads the outbox, not the bus: committed with the result, the run cannot be lost to it.
          if (monitored) await repos.alertOutbox.add({ accountId: check.accountId, checkId: check.id, resultId: row.id, sequenceId: input.sequenceId });
          return { row, change };
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw notFound('Check', check.id);
        throw err;
      }
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
      }
      return result;
    },
  };
}
export type RunRecorder = ReturnType<typeof createRunRecorder>;
