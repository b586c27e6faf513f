import type { Logger } from 'pino';
import { Agent, type Dispatcher } from 'undici';
import type { Config } from '../../config.js';
import type { EventBus } from '../../events/event-bus.js';
import type { AlertOutboxRow } from '../../store/alert-outbox-repository.js';
import type { Store } from '../../store/create-store.js';
import { loadAlertCheck } from './alert-check.js';
import { systemClock, type AlertClock } from './alert-clock.js';
import { createCheckQueues } from './check-queues.js';
import { createAlertDeliveries } from './create-alert-deliveries.js';
import { createCertificateAlerts } from './create-certificate-alerts.js';
import { batchedAlertStore } from './batched-alert-store.js';
import { createOutboxReader } from './create-outbox-reader.js';
import { createParallelBatches } from './create-parallel-batches.js';
import { createReminders } from './create-reminders.js';
import { createRunJudge } from './create-run-judge.js';
import { receivedRunOf, type ReceivedRun } from './received-run.js';

/** How alerting is set up; everything but store, bus and logger has a default (see alertingOptionsFromConfig). */
export interface AlertingOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** undici dispatcher for HTTP deliveries; by default one of alerting's own, closed by close(). */
  http?: Dispatcher;
  clock?: AlertClock;
  smtpUrl?: string;
  smtpFrom?: string;
  pagerDutyEventsUrl?: string;
  opsgenieApiUrlUs?: string;
  opsgenieApiUrlEu?: string;
  smsProviderUrl?: string;
  callProviderUrl?: string;
  /** LOOKOUT_PUBLIC_URL: alerts link to the check and the result in the console under it (absent: no links). */
  publicUrl?: string;
  /** Wait before each retry of a failed delivery (default 10 s, 60 s, 300 s: up to 4 attempts). */
  retryDelaysMs?: number[];
  /** Time limit of one delivery attempt and of a certificate probe (default 10 s). */
  timeoutMs?: number;
  /** How long the FINAL results of one parallel run are collected before the run is judged on those that came (default 5 min). */
  parallelWindowMs?: number;
  /** How often the alert outbox is read besides the bus's wake-ups, which may be lost (default 1 s; real time, not `clock`). */
  outboxPollMs?: number;
  /** How often stored due deliveries nobody scheduled are looked for (default 60 s). */
  sweepIntervalMs?: number;
  /** How long the certificate of an sslCheckDomain is trusted before it is read again (default 1 h). */
  certificateCacheMs?: number;
  /** Told of every completed delivery attempt (metrics); must not throw. */
  onDeliveryAttempt?: (attempt: { channelType: string; ok: boolean }) => void;
}

/** The running alerting of one process. */
export interface Alerting {
  /** Reschedules stored reminders and pending delivery retries; call once on start. */
  resume(): Promise<void>;
  /** Resolves once every outbox row read so far is evaluated (or waits in a parallel run) and every delivery started is done. */
  idle(): Promise<void>;
  /**
   * Stops reading the outbox and stops timers, then waits for in-flight evaluations and
   * deliveries. Rows of parallel runs still incomplete stay in the outbox for the next alerting.
   */
  close(): Promise<void>;
}

/** The alerting options the configuration sets (README: alerting variables). */
export function alertingOptionsFromConfig(config: Config): Omit<AlertingOptions, 'store' | 'bus' | 'logger'> {
  return {
    smtpUrl: config.smtpUrl,
    smtpFrom: config.smtpFrom,
    pagerDutyEventsUrl: config.pagerDutyEventsUrl,
    opsgenieApiUrlUs: config.opsgenieApiUrlUs,
    opsgenieApiUrlEu: config.opsgenieApiUrlEu,
    smsProviderUrl: config.smsProviderUrl,
    callProviderUrl: config.callProviderUrl,
    publicUrl: config.publicUrl,
    retryDelaysMs: config.alertRetryDelaysSeconds.map((s) => s * 1000),
    timeoutMs: config.alertTimeoutMs,
  };
}

/** Delivery leases outlast the slowest attempt (an SMTP exchange has several timed steps). */
const LEASE_FACTOR = 6;

/**
 * Alerting: turns FINAL results into alerts and delivers them. It composes its parts, one file each:
 * the outbox reader (create-outbox-reader), per-check queues (check-queues), the run judge and its
 * state machine (create-run-judge), parallel batches, certificate alerts, reminders and deliveries.
 *
 * - Each FINAL result (test-session runs excepted) comes from the alert outbox the recorder fills in
 *   the result's transaction: read on start, on every `checkResultCreated` (a wake-up hint only)
 *   and every `outboxPollMs`, so a lost bus event delays a run but never loses it. It moves the
 *   check's alert state machine (nextAlertState) under its effective settings (alertProfile: own,
 *   group's, or the account's with useGlobalAlertSettings). Results of one check are handled one
 *   at a time, in outbox order; the state is stored and locked while it changes, and the row is
 *   removed in that transaction (or alone when the run changes nothing), so each is evaluated once
 *   even across crashes, restarts and a second alerting.
 * - A runParallel check's FINAL results share the run's sequenceId: they are collected until each
 *   of its locations reported (or `parallelWindowMs` passed) and counted as one run, failed per
 *   parallelRunFailureThreshold.
 * - Each alert is stored as a check alert, with one PENDING notification per subscribed,
 *   activated channel whose flags want its type (channelWants), in the transaction that stores
 *   the new state; muted checks keep their state but raise no alerts.
 * - Reminders run on timers from the stored state (cancelled by recovery), certificate alerts
 *   (ALERT_SSL) follow each FINAL result with a certificate under a channel's sslExpiryThreshold,
 *   at most once a day per check and channel.
 */
export function createAlerting(options: AlertingOptions): Alerting {
  const { store, bus, logger } = options;
  const clock = options.clock ?? systemClock();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const ownDispatcher = options.http ? null : new Agent({ connect: { timeout: timeoutMs } });
  const queues = createCheckQueues(logger);
  let closed = false;

  const deliveries = createAlertDeliveries({
    store, bus, logger, clock, track: queues.track,
    context: {
      timeoutMs,
      dispatcher: options.http ?? ownDispatcher ?? undefined,
      smtpUrl: options.smtpUrl,
      smtpFrom: options.smtpFrom ?? 'Lookout <lookout@localhost>',
      pagerDutyEventsUrl: options.pagerDutyEventsUrl ?? 'https://events.pagerduty.com/v2/enqueue',
      opsgenieApiUrls: { US: options.opsgenieApiUrlUs ?? 'https://api.opsgenie.com', EU: options.opsgenieApiUrlEu ?? 'https://api.eu.opsgenie.com' },
      smsProviderUrl: options.smsProviderUrl,
      callProviderUrl: options.callProviderUrl,
    },
    publicUrl: options.publicUrl,
    retryDelaysMs: options.retryDelaysMs ?? [10_000, 60_000, 300_000],
    leaseMs: timeoutMs * LEASE_FACTOR,
    sweepIntervalMs: options.sweepIntervalMs ?? 60_000,
    onAttempt: options.onDeliveryAttempt,
  });
  const reminders = createReminders({ store, logger, clock, queues, deliveries });
  // Runs are judged a page of the outbox at a time: their reads share statements.
  const judging = batchedAlertStore(store);
  const judge = createRunJudge({ store: judging, bus, logger, clock, deliveries, reminders });
  const certificates = createCertificateAlerts({ store, clock, deliveries, timeoutMs, cacheMs: options.certificateCacheMs ?? 3_600_000 });

  /** Judges runs, then lets their outbox rows be read again (on failure they are still there, and are). */
  async function judgeRuns(runs: ReceivedRun[], loaded: Parameters<typeof judge.judge>[0] = null): Promise<void> {
    const first = runs[0]!;
    try {
      await judge.judge(loaded, first.accountId, first.checkId, runs);
    } finally {
      for (const run of runs) reader.release(run.outboxId);
    }
  }

  const batches = createParallelBatches<ReceivedRun>({
    clock,
    windowMs: options.parallelWindowMs ?? 5 * 60_000,
    onTimeout: (_key, runs) => void queues.serial(runs[0]!.checkId, 'judging a parallel run', () => judgeRuns(runs)),
  });

  /** Evaluates one outbox row: its certificate at once, its run alone or once its parallel run is complete. */
  async function onFinal(row: AlertOutboxRow): Promise<void> {
    const { account_id: accountId, check_id: checkId } = row;
    let parked = false;
    // Once closing, rows not started stay in the outbox for the next alerting.
    if (closed) return reader.release(row.id);
    try {
      const check = await loadAlertCheck(judging, accountId, checkId);
      const stored = check ? await judging.results.get(accountId, checkId, row.result_id) : undefined;
      // The foreign keys remove the row with its check or result; this only closes the race with that delete.
      if (!check || !stored) {
        await judging.alertOutbox.remove([row.id]);
        return;
      }
      const run = receivedRunOf(row, stored);
      // Seen again after a crash, a certificate alert is not repeated: the marks allow one a day.
      await certificates.onRun(check, run);
      const { profile } = check;
      if (profile.runParallel && profile.locations.length > 1) {
        // A batch opened while closing would outlive close(): its rows wait for the next alerting.
        if (closed) return;
        const complete = batches.add(`${accountId}|${checkId}|${row.sequence_id}`, profile.locations.length, run);
        if (complete) await judgeRuns(complete, check);
        else parked = true;
        return;
      }
      await judgeRuns([run], check);
    } finally {
      // A failed evaluation leaves its row in the outbox: let go, it is read and tried again.
      if (!parked) reader.release(row.id);
    }
  }

  const reader = createOutboxReader({ store, bus, logger, queues, pollMs: options.outboxPollMs ?? 1000, onRow: onFinal });

  return {
    async resume() {
      await reminders.resume();
      await deliveries.resume();
    },

    idle: queues.idle,

    async close() {
      if (closed) return;
      closed = true;
      reader.close();
      // Incomplete parallel runs stay in the outbox: the next alerting gathers them again.
      for (const open of batches.drain()) for (const run of open.items) reader.release(run.outboxId);
      reminders.close();
      await queues.idle();
      deliveries.close();
      await queues.idle();
      certificates.close();
      await ownDispatcher?.close();
    },
  };
}
