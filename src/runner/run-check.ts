import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { attemptTimeoutMs } from '../domain/attempt-timeout.js';
import { nextRetry, type RetryStrategy } from '../domain/retry-schedule.js';
import { scrubDeep, type Scrubber } from '../domain/scrub-secrets.js';
import type { RecordRunInput } from './record-run-input.js';
import type { Executor, RunClientCertificate, RunnableCheck, RunVariable } from './executor.js';
import { runScrubber } from './run-scrubber.js';
import { scrubbingLogger } from './scrubbing-logger.js';

/** What is recorded for one attempt: the recorder's input. */
export type RecordInput = RecordRunInput;

/** Stores one attempt's result and returns its REST view. */
export type RecordRun = (input: RecordInput) => Promise<Record<string, any>>;

/** Options of one run of one check. */
export interface RunCheckOptions {
  check: RunnableCheck;
  variables: RunVariable[];
  /** The account's client certificates, handed to every attempt. */
  clientCertificates?: readonly RunClientCertificate[];
  /** Where this run goes: one location, or all of them when the check runs in parallel. */
  locations: string[];
  /** Every location the check may use (retries with sameRegion false move through them). */
  allLocations: string[];
  executor: Executor;
  record: RecordRun;
  signal: AbortSignal;
  logger: Logger;
  testSessionId?: string | null;
  /** The run's sequence id (default: a new one); an agent uses the one its lease came with. */
  sequenceId?: string;
  /** Waits between attempts; replaced in tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** The FINAL result of each location of a run. */
export interface RunOutcome {
  sequenceId: string;
  finals: Record<string, any>[];
  /** Set when the run was stopped while it waited for its slot: nothing of it ran. */
  notStarted?: true;
}

/** Resolves after `ms`, or early when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs a check once in each of `locations`, retrying failed attempts under its retry strategy:
 * every attempt but the last is stored as an ATTEMPT result, the last as the FINAL one, all with
 * the run's sequenceId. A parallel run shares one sequenceId across its locations, so alerting
 * can count it once.
 *
 * Whatever an executor left of the run's secret variables is scrubbed before a result is stored,
 * from what executors log and from the errors a run throws (the caller logs them).
 */
export async function runCheck(options: RunCheckOptions): Promise<RunOutcome> {
  const { check, executor, record, signal } = options;
  const scrub = runScrubber(options.variables);
  const logger = scrubbingLogger(options.logger, scrub);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const sequenceId = options.sequenceId ?? randomUUID();
  const strategy = (check.data.retryStrategy ?? null) as RetryStrategy | null;
  const timeoutMs = attemptTimeoutMs(check.checkType, check.data);

  const runIn = async (firstLocation: string): Promise<Record<string, any>> => {
    const startedAt = now();
    let location = firstLocation;
    for (let attempt = 1; ; attempt++) {
      const probe = scrubDeep(await executor(check, { location, variables: options.variables, clientCertificates: options.clientCertificates, timeoutMs, signal, logger }), scrub);
      const decision = signal.aborted
        ? ({ retry: false } as const)
        : nextRetry(strategy, {
            attempt,
            elapsedMs: now() - startedAt,
            lastResult: { networkError: probe.networkError, hasFailures: probe.hasFailures },
            lastLocation: location,
            locations: options.allLocations,
          });
      const input = { check, location, sequenceId, attempts: attempt, probe, testSessionId: options.testSessionId ?? null };
      if (!decision.retry) return record({ ...input, resultType: 'FINAL' });
      await record({ ...input, resultType: 'ATTEMPT' });
      logger.debug({ checkId: check.id, attempt, delayMs: decision.delayMs }, 'retrying check');
      await sleep(decision.delayMs, signal);
      location = decision.location;
    }
  };

  const finals = await Promise.all(options.locations.map((l) => runIn(l).catch((err: unknown) => {
    throw scrubbedInPlace(err, scrub);
  })));
  return { sequenceId, finals };
}

/** `err` with its message and stack scrubbed; in place, so its class and fields stay for the caller. */
function scrubbedInPlace(err: unknown, scrub: Scrubber): unknown {
  if (err instanceof Error) {
    err.message = scrub(err.message);
    if (typeof err.stack === 'string') err.stack = scrub(err.stack);
  }
  return err;
}
