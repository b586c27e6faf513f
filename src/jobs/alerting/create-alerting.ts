import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Agent, type Dispatcher } from 'undici';
import type { Config } from '../../config.js';
import { mergeAlertChannelSettings, type AlertChannelSettings } from '../../domain/alert-channel-settings.js';
import { alertTitle, reminderMessage, type AlertMessage } from '../../domain/alert-message.js';
import { alertProfile, type AlertProfile } from '../../domain/alert-profile.js';
import {
  INITIAL_ALERT_STATE, channelWants, dueReminders, nextAlertState, runStatus,
  type AlertState, type AlertType, type EscalationSettings, type FinalRun, type ParallelOutcome,
} from '../../domain/alert-state.js';
import { nextReminderAt } from '../../domain/next-reminder-at.js';
import { combineParallelRun } from '../../domain/parallel-run.js';
import { resultAlertFacts, sslDaysOf } from '../../domain/result-alert-facts.js';
import { SSL_ALERT_INTERVAL_MS, sslAlertWanted } from '../../domain/ssl-alert-rule.js';
import type { EventBus } from '../../events/event-bus.js';
import type { AlertOutboxRow } from '../../store/alert-outbox-repository.js';
import type { CheckRow } from '../../store/checks-repository.js';
import type { Store } from '../../store/create-store.js';
import type { Repositories } from '../../store/repositories.js';
import { systemClock, type AlertClock, type ClockTimer } from './alert-clock.js';
import { createAlertDeliveries, type QueuedNotification } from './create-alert-deliveries.js';
import { createParallelBatches } from './create-parallel-batches.js';
import { automateIncident, type IncidentAutomationOutcome } from './automate-incident.js';
import { incidentViews } from '../../service/status-page-incident-view.js';
import { maintenanceEffects } from '../../domain/maintenance-effects.js';
import { probeCertificate, type ProbedCertificate } from './probe-certificate.js';
import { toResultView } from '../../contract/result-view.js';

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
    retryDelaysMs: config.alertRetryDelaysSeconds.map((s) => s * 1000),
    timeoutMs: config.alertTimeoutMs,
  };
}

/** A FINAL result as alerting keeps it while it waits for the rest of a parallel run. */
interface ReceivedRun {
  /** The alert outbox row that brought it: removed when the run is judged. */
  outboxId: string;
  accountId: string;
  checkId: string;
  result: Record<string, any>;
  /** The stored `details` of the run (certificate, assertions), when the result is still stored. */
  details: Record<string, any> | null;
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  startedAt: Date;
}

/** A check with everything alerting needs about it. */
interface LoadedCheck {
  accountId: string;
  row: CheckRow;
  profile: AlertProfile;
}

interface ChannelChoice {
  id: number;
  type: string;
  settings: AlertChannelSettings;
}

/** Delivery leases outlast the slowest attempt (an SMTP exchange has several timed steps). */
const LEASE_FACTOR = 6;

/** Outbox rows read at once: a backlog (after an outage) is evaluated a page at a time, not held in memory whole. */
const OUTBOX_PAGE = 200;

/** Thrown inside a judging transaction whose outbox rows another alerting already removed, to roll it back. */
class AlreadyJudged extends Error {}

/**
 * Alerting: turns FINAL results into alerts and delivers them.
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
  const tasks = new Set<Promise<void>>();
  const chains = new Map<string, Promise<void>>();
  const reminderTimers = new Map<string, ClockTimer>();
  const certificates = new Map<string, { at: number; cert: Promise<ProbedCertificate | null> }>();
  /** Outbox rows being evaluated or waiting in a parallel batch: not read again until let go. */
  const held = new Set<string>();
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let closed = false;

  const track = (work: Promise<void>) => {
    tasks.add(work);
    void work.finally(() => tasks.delete(work));
  };

  /** Runs `fn` after every earlier task of the same check: one check's results never race. Never rejects. */
  const serial = (checkId: string, what: string, fn: () => Promise<void>): Promise<void> => {
    const previous = chains.get(checkId) ?? Promise.resolve();
    const next = previous.then(fn).catch((err) => logger.error({ err, checkId }, `alerting: ${what} failed`));
    chains.set(checkId, next);
    void next.finally(() => {
      if (chains.get(checkId) === next) chains.delete(checkId);
    });
    track(next);
    return next;
  };

  const deliveries = createAlertDeliveries({
    store, bus, logger, clock, track,
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
    retryDelaysMs: options.retryDelaysMs ?? [10_000, 60_000, 300_000],
    leaseMs: timeoutMs * LEASE_FACTOR,
    sweepIntervalMs: options.sweepIntervalMs ?? 60_000,
    onAttempt: options.onDeliveryAttempt,
  });

  const batches = createParallelBatches<ReceivedRun>({
    clock,
    windowMs: options.parallelWindowMs ?? 5 * 60_000,
    onTimeout: (_key, runs) => {
      const first = runs[0]!;
      serial(first.checkId, 'judging a parallel run', () => judgeRuns(null, first.accountId, first.checkId, runs));
    },
  });

  async function loadCheck(repos: Repositories, accountId: string, checkId: string): Promise<LoadedCheck | null> {
    const row = await repos.checks.get(accountId, checkId);
    if (!row) return null;
    const group = row.group_id === null ? undefined : await repos.groups.get(accountId, row.group_id);
    const account = await repos.accounts.get(accountId);
    const profile = alertProfile(
      { checkType: row.check_type, name: row.name, data: row.data, subscriptions: row.subs.map((s) => ({ alertChannelId: s.alertChannelId, activated: s.activated })) },
      group ? { name: group.name, data: group.data, subscriptions: group.subs } : null,
      account?.alert_settings ?? null,
    );
    return { accountId, row, profile };
  }

  /** The account's channels among the profile's activated subscriptions (another account's never). */
  async function channelsOf(repos: Repositories, accountId: string, profile: AlertProfile): Promise<ChannelChoice[]> {
    if (profile.channelIds.length === 0) return [];
    const { rows } = await repos.alertChannels.list(accountId, 1, profile.channelIds.length, profile.channelIds);
    return rows.map((r) => {
      const { config: _config, ...settings } = r.data;
      return { id: r.id, type: r.type, settings: mergeAlertChannelSettings(settings) };
    });
  }

  function messageFor(type: AlertType, check: LoadedCheck, run: ReceivedRun | null, parallel?: ParallelOutcome): AlertMessage {
    const facts = run ? resultAlertFacts(run.result, run.details) : null;
    return {
      alertType: type,
      title: alertTitle(type, check.row.name),
      checkId: check.row.id,
      checkName: check.row.name,
      checkType: check.row.check_type,
      checkResultId: facts?.checkResultId ?? null,
      errorMessage: facts?.errorMessage ?? null,
      groupName: check.profile.groupName,
      responseTime: facts?.responseTime ?? null,
      runLocation: facts?.runLocation ?? null,
      startedAt: facts?.startedAt ?? null,
      tags: check.profile.tags,
      statusCode: facts?.statusCode ?? null,
      isReminder: false,
      reminderSequence: 0,
      sslDaysRemaining: null,
      sslDomain: null,
      failedLocations: parallel?.failedLocations ?? null,
      totalLocations: parallel?.totalLocations ?? null,
    };
  }

  /** Stores an alert and a PENDING first attempt for each channel that wants it; returns the attempts to make. */
  async function raise(repos: Repositories, check: LoadedCheck, message: AlertMessage, channels: ChannelChoice[], now: Date): Promise<{ alertId: string; queued: QueuedNotification[] }> {
    const alertId = randomUUID();
    const { accountId, row } = check;
    await repos.checkAlerts.insert(accountId, {
      id: alertId, checkId: row.id, alertType: message.alertType, name: row.name, checkType: row.check_type,
      checkResultId: message.checkResultId, runLocation: message.runLocation, responseTime: message.responseTime,
      statusCode: message.statusCode, error: message.errorMessage, startedAt: message.startedAt ? new Date(message.startedAt) : null,
      isReminder: message.isReminder, reminderSequence: message.isReminder ? message.reminderSequence : null,
      sslDaysRemaining: message.sslDaysRemaining, payload: message as unknown as Record<string, unknown>, createdAt: now,
    });
    const queued: QueuedNotification[] = [];
    for (const channel of channels) {
      if (!channelWants(channel.settings, message.alertType)) continue;
      const id = randomUUID();
      await repos.alertNotifications.insertPending(accountId, {
        id, alertId, checkId: row.id, alertChannelId: channel.id, channelType: channel.type, alertType: message.alertType,
        attempt: 1, createdAt: now, nextAttemptAt: now,
      });
      queued.push({ accountId, id });
    }
    return { alertId, queued };
  }

  function cancelReminder(checkId: string): void {
    const timer = reminderTimers.get(checkId);
    if (timer) clock.clearTimer(timer);
    reminderTimers.delete(checkId);
  }

  function scheduleReminder(accountId: string, checkId: string, state: AlertState, settings: EscalationSettings): void {
    cancelReminder(checkId);
    if (closed) return;
    const at = nextReminderAt(state, settings);
    if (!at) return;
    const fire = () => void serial(checkId, 'sending a reminder', () => remind(accountId, checkId));
    const wait = at.getTime() - clock.now().getTime();
    if (wait <= 0) return fire();
    const timer = clock.setTimer(() => {
      reminderTimers.delete(checkId);
      fire();
    }, wait);
    reminderTimers.set(checkId, timer);
  }

  /** The run the state machine sees: a parallel run's locations combined into one. */
  function finalRunOf(profile: AlertProfile, runs: ReceivedRun[]): { run: FinalRun; parallel?: ParallelOutcome } {
    if (runs.length > 1 || (profile.runParallel && profile.locations.length > 1)) return combineParallelRun(runs);
    const r = runs[0]!;
    return { run: { hasFailures: r.hasFailures || r.hasErrors, isDegraded: r.isDegraded, startedAt: r.startedAt } };
  }

  /**
   * Moves the state machine with one (possibly combined) FINAL run and raises its alerts, removing
   * the run's outbox rows with the change; the rows are let go whatever happens (on failure they
   * stay in the outbox and are read again).
   */
  async function judgeRuns(loaded: LoadedCheck | null, accountId: string, checkId: string, runs: ReceivedRun[]): Promise<void> {
    const ids = runs.map((r) => r.outboxId);
    try {
      await judge(loaded, accountId, checkId, runs, ids);
    } finally {
      for (const id of ids) held.delete(id);
    }
  }

  async function judge(loaded: LoadedCheck | null, accountId: string, checkId: string, runs: ReceivedRun[], ids: string[]): Promise<void> {
    const check = loaded ?? (await loadCheck(store, accountId, checkId));
    if (!check) {
      await store.alertOutbox.remove(ids);
      return;
    }
    const { profile } = check;
    const { run: finalRun, parallel } = finalRunOf(profile, runs);
    // Most runs change nothing (a passing check passes again): those cost one read and one delete.
    // Should another alerting be judging the same rows, it reads the same state, so agrees.
    const current = await store.alertStates.get(accountId, checkId);
    const before = current?.state ?? INITIAL_ALERT_STATE;
    const preview = nextAlertState(before, finalRun, profile.settings, parallel);
    if (preview.alerts.length === 0 && sameState(before, preview.state)) {
      await store.alertOutbox.remove(ids);
      return;
    }

    const now = clock.now();
    let outcome;
    try {
      outcome = await store.transaction(async (repos) => {
        // The rows first: a second alerting judging them waits here on their locks, then finds them gone.
        if ((await repos.alertOutbox.remove(ids)) < ids.length) throw new AlreadyJudged();
        const stored = await repos.alertStates.get(accountId, checkId, { forUpdate: true });
        const transition = nextAlertState(stored?.state ?? INITIAL_ALERT_STATE, finalRun, profile.settings, parallel);
        let lastAlertId = stored?.lastAlertId ?? null;
        const queued: QueuedNotification[] = [];
        // Maintenance in progress silences the checks it covers as muting does: the state moves, no alert goes out.
        const maintenance = transition.alerts.length > 0 && !profile.muted
          ? maintenanceEffects(await repos.activeMaintenances.ofAccount(accountId, now), profile.tags)
          : null;
        if (transition.alerts.length > 0 && !profile.muted && !maintenance?.silenced) {
          const status = runStatus(finalRun, profile.settings, parallel);
          // The run the message tells about: a failed location for a failure, a degraded one for a degradation.
          const shown = runs.find((r) => (status === 'FAILING' ? r.hasFailures || r.hasErrors : status === 'DEGRADED' ? r.isDegraded : !(r.hasFailures || r.hasErrors))) ?? runs[0]!;
          const channels = await channelsOf(repos, accountId, profile);
          for (const type of transition.alerts) {
            const raised = await raise(repos, check, messageFor(type, check, shown, parallel), channels, now);
            lastAlertId = raised.alertId;
            queued.push(...raised.queued);
          }
        }
        await repos.alertStates.save(accountId, checkId, { state: transition.state, lastAlertId }, now);
        // Incident automation follows the alerts a run raises: a muted check raises none, so opens none.
        const trigger = check.row.data.triggerIncident;
        const incident = transition.alerts.length > 0 && !profile.muted && trigger && !maintenance?.suppressAutoIncidents
          ? await automateIncident(repos, { accountId, checkId, checkName: check.row.name, trigger, alerts: transition.alerts, now })
          : null;
        return { state: transition.state, queued, incident, silencedBy: maintenance?.silenced ? maintenance.windowIds : null };
      });
    } catch (err) {
      if (!(err instanceof AlreadyJudged)) throw err;
      logger.debug({ accountId, checkId, outboxIds: ids }, 'alerting: a run another alerting judged already was skipped');
      return;
    }
    deliveries.dispatch(outcome.queued);
    if (outcome.silencedBy) logger.info({ accountId, checkId, maintenanceWindowIds: outcome.silencedBy }, 'alerting: alerts of a check silenced by maintenance in progress');
    if (outcome.incident) await announceIncident(accountId, checkId, outcome.incident);
    scheduleReminder(accountId, checkId, outcome.state, profile.settings);
  }

  /** Logs what incident automation did and tells public pages and subscriptions, after commit. */
  async function announceIncident(accountId: string, checkId: string, outcome: IncidentAutomationOutcome): Promise<void> {
    if (outcome.kind === 'service-missing') {
      logger.warn({ accountId, checkId, serviceId: outcome.serviceId }, 'incident automation: the status page service of triggerIncident no longer exists; no incident opened');
      return;
    }
    logger.info({ accountId, checkId, incidentId: outcome.incidentId, step: outcome.step }, `incident automation: ${outcome.step === 'open' ? 'opened' : outcome.step === 'resolve' ? 'resolved' : 'updated'} an incident`);
    const row = await store.statusPageIncidents.get(accountId, outcome.incidentId);
    const incident = row ? (await incidentViews(store, [row]))[0]! : null;
    await bus.publish({ type: 'incidentUpdated', accountId, incidentId: outcome.incidentId, incident });
    await bus.publish({ type: 'publicContentChanged', accountId, version: outcome.version, subject: 'incident', subjectId: outcome.incidentId });
  }

  async function remind(accountId: string, checkId: string): Promise<void> {
    const now = clock.now();
    const outcome = await store.transaction(async (repos) => {
      const check = await loadCheck(repos, accountId, checkId);
      const stored = check ? await repos.alertStates.get(accountId, checkId, { forUpdate: true }) : undefined;
      if (!check || !stored) return null;
      const due = dueReminders(stored.state, check.profile.settings, now);
      const queued: QueuedNotification[] = [];
      if (due.reminders.length === 0) return { state: stored.state, settings: check.profile.settings, queued, sent: false };
      const last = stored.lastAlertId ? await repos.checkAlerts.get(accountId, stored.lastAlertId) : undefined;
      if (last && !check.profile.muted) {
        const channels = await channelsOf(repos, accountId, check.profile);
        for (const r of due.reminders) {
          const message = reminderMessage({ ...(last.payload as AlertMessage), groupName: check.profile.groupName, tags: check.profile.tags }, r.alertType, r.sequence);
          queued.push(...(await raise(repos, check, message, channels, now)).queued);
        }
      }
      await repos.alertStates.save(accountId, checkId, { state: due.state, lastAlertId: stored.lastAlertId }, now);
      return { state: due.state, settings: check.profile.settings, queued, sent: true };
    });
    if (!outcome) return;
    deliveries.dispatch(outcome.queued);
    // A reminder not due yet (settings changed since it was scheduled) is scheduled again; one that
    // should have been due but was not would loop, so it is left to the next run's scheduling.
    const at = nextReminderAt(outcome.state, outcome.settings);
    if (outcome.sent || (at && at.getTime() > now.getTime())) scheduleReminder(accountId, checkId, outcome.state, outcome.settings);
  }

  /** The certificate of the check's sslCheckDomain, read at most once per `certificateCacheMs`. */
  function domainCertificate(domain: string): Promise<ProbedCertificate | null> {
    const key = domain.toLowerCase();
    const cached = certificates.get(key);
    const now = clock.now();
    if (cached && now.getTime() - cached.at < (options.certificateCacheMs ?? 3_600_000)) return cached.cert;
    const cert = probeCertificate(domain, timeoutMs, now);
    certificates.set(key, { at: now.getTime(), cert });
    return cert;
  }

  /** Raises ALERT_SSL for the channels whose threshold the certificate seen by this run is under. */
  async function certificateAlerts(check: LoadedCheck, run: ReceivedRun): Promise<void> {
    const { profile, accountId, row } = check;
    const seen = profile.sslCheckDomain ? null : sslDaysOf(run.details);
    if (profile.muted || profile.channelIds.length === 0 || (!profile.sslCheckDomain && !seen)) return;
    const channels = (await channelsOf(store, accountId, profile)).filter((c) => c.settings.sslExpiry);
    if (channels.length === 0) return;
    const cert = profile.sslCheckDomain
      ? await domainCertificate(profile.sslCheckDomain)
      : { daysRemaining: seen!.daysRemaining, domain: hostOf(row.data.request?.url) ?? seen!.domain };
    if (!cert) return;
    const days = cert.daysRemaining;
    const wanting = channels.filter((c) => sslAlertWanted(c.settings, days));
    if (wanting.length === 0) return;
    const now = clock.now();
    const queued = await store.transaction(async (repos) => {
      const claimed: ChannelChoice[] = [];
      for (const c of wanting) {
        if (await repos.sslAlertMarks.claim(accountId, row.id, c.id, now, days, SSL_ALERT_INTERVAL_MS)) claimed.push(c);
      }
      if (claimed.length === 0) return [];
      const message: AlertMessage = {
        ...messageFor('ALERT_SSL', check, run),
        title: alertTitle('ALERT_SSL', row.name, { daysRemaining: days, domain: cert.domain }),
        sslDaysRemaining: days,
        sslDomain: cert.domain,
      };
      return (await raise(repos, check, message, claimed, now)).queued;
    });
    deliveries.dispatch(queued);
  }

  /** Evaluates one outbox row: its certificate at once, its run alone or once its parallel run is complete. */
  async function onFinal(row: AlertOutboxRow): Promise<void> {
    const { account_id: accountId, check_id: checkId } = row;
    let parked = false;
    // Once closing, rows not started stay in the outbox for the next alerting.
    if (closed) return void held.delete(row.id);
    try {
      const check = await loadCheck(store, accountId, checkId);
      const stored = check ? await store.results.get(accountId, checkId, row.result_id) : undefined;
      // The foreign keys remove the row with its check or result; this only closes the race with that delete.
      if (!check || !stored) {
        await store.alertOutbox.remove([row.id]);
        return;
      }
      const run: ReceivedRun = {
        outboxId: row.id, accountId, checkId,
        result: toResultView(stored),
        details: (stored.detail?.details as Record<string, any> | null | undefined) ?? null,
        hasFailures: stored.has_failures,
        hasErrors: stored.has_errors,
        isDegraded: stored.is_degraded,
        startedAt: new Date(stored.started_at),
      };
      // Seen again after a crash, a certificate alert is not repeated: the marks allow one a day.
      await certificateAlerts(check, run);
      const { profile } = check;
      if (profile.runParallel && profile.locations.length > 1) {
        // A batch opened while closing would outlive close(): its rows wait for the next alerting.
        if (closed) return;
        const complete = batches.add(`${accountId}|${checkId}|${row.sequence_id}`, profile.locations.length, run);
        if (complete) await judgeRuns(check, accountId, checkId, complete);
        else parked = true;
        return;
      }
      await judgeRuns(check, accountId, checkId, [run]);
    } finally {
      // A failed evaluation leaves its row in the outbox: let go, it is read and tried again.
      if (!parked) held.delete(row.id);
    }
  }

  /** Reads the outbox until nothing new waits, handing each row to its check's queue in id order. */
  async function drainOutbox(): Promise<void> {
    for (;;) {
      const rows = await store.alertOutbox.waiting(OUTBOX_PAGE, [...held]);
      if (closed) return;
      const handed = rows.map((row) => {
        held.add(row.id);
        return serial(row.check_id, 'handling a FINAL result', () => onFinal(row));
      });
      if (rows.length < OUTBOX_PAGE) return;
      await Promise.all(handed);
    }
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
          await drainOutbox();
        } while (pumpAgain && !closed);
      } catch (err) {
        logger.error({ err }, 'alerting: reading the alert outbox failed');
      } finally {
        pumping = null;
      }
    })();
    pumping = pump;
    track(pump);
  }

  // The bus only makes alerting look sooner; the poll is what guarantees it looks.
  const unsubscribe = bus.subscribe('checkResultCreated', (event) => {
    if (event.result?.resultType === 'FINAL') wake();
  });
  const poll = setInterval(wake, options.outboxPollMs ?? 1000);
  poll.unref();
  wake();

  async function idle(): Promise<void> {
    while (tasks.size > 0) await Promise.allSettled([...tasks]);
  }

  return {
    async resume() {
      for (const open of await store.alertStates.listOpen()) {
        serial(open.checkId, 'rescheduling a reminder', async () => {
          const check = await loadCheck(store, open.accountId, open.checkId);
          const stored = check && (await store.alertStates.get(open.accountId, open.checkId));
          if (check && stored) scheduleReminder(open.accountId, open.checkId, stored.state, check.profile.settings);
        });
      }
      await deliveries.resume();
    },

    idle,

    async close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(poll);
      // Incomplete parallel runs stay in the outbox: the next alerting gathers them again.
      for (const open of batches.drain()) for (const run of open.items) held.delete(run.outboxId);
      for (const checkId of [...reminderTimers.keys()]) cancelReminder(checkId);
      await idle();
      deliveries.close();
      await idle();
      await ownDispatcher?.close();
    },
  };
}

/** Whether two states are the same, field by field (dates by value). */
function sameState(a: AlertState, b: AlertState): boolean {
  const value = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof AlertState>;
  return [...keys].every((k) => value(a[k]) === value(b[k]));
}

function hostOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
