import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { withAlertLinks, type AlertMessage } from '../../domain/alert-message.js';
import { isRetryableFailure, retryDelayMs } from '../../domain/delivery-retry.js';
import type { EventBus } from '../../events/event-bus.js';
import { toAlertNotificationView } from '../../service/alert-notification-view.js';
import type { Store } from '../../store/create-store.js';
import { configurationFailure, type NotifierContext } from '../notifiers/notifier.js';
import type { AlertClock, ClockTimer } from './alert-clock.js';
import { deliverToChannel } from './deliver-to-channel.js';

/** A PENDING delivery attempt to make. */
export interface QueuedNotification {
  accountId: string;
  id: string;
}

export interface AlertDeliveriesOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  clock: AlertClock;
  /** Registers work that close() and idle() wait for; the promise never rejects. */
  track(work: Promise<void>): void;
  /** Everything notifiers need but the account's variables. */
  context: Omit<NotifierContext, 'variables'>;
  /** LOOKOUT_PUBLIC_URL: each alert sent links to its check and result in the console under it (absent: no links). */
  publicUrl?: string;
  retryDelaysMs: readonly number[];
  /** How long a claimed attempt is reserved before another worker may take it (process died mid-delivery). */
  leaseMs: number;
  /** How often due attempts nobody scheduled (another process's, or an expired lease) are looked for. */
  sweepIntervalMs: number;
  /** Told of every completed attempt (metrics); must not throw. */
  onAttempt?: (attempt: { channelType: string; ok: boolean }) => void;
}

/** Longest part of a receiver's answer stored with an attempt. */
const MAX_RESULT = 1000;
/** Due attempts taken per sweep. */
const SWEEP_BATCH = 100;
/** Pending attempts rescheduled on start; a larger backlog is worked off by the sweeps. */
const RESUME_BATCH = 10_000;

/**
 * Delivers alert notifications. Each attempt is a row: taken (claimed) when due, sent through its
 * channel's notifier, completed SENT or FAILED, and, when it failed for a reason that may pass
 * and attempts are left, followed by a PENDING row due after the next retry delay. Every
 * completed attempt is published as `alertNotified`.
 */
export function createAlertDeliveries(options: AlertDeliveriesOptions) {
  const { store, bus, logger, clock, track } = options;
  const timers = new Map<string, ClockTimer>();
  let sweepTimer: ClockTimer | null = null;
  let closed = false;

  const linked = (alert: AlertMessage) => (options.publicUrl ? withAlertLinks(alert, options.publicUrl) : alert);

  async function attempt(accountId: string, id: string): Promise<void> {
    const now = clock.now();
    const row = await store.alertNotifications.claim(accountId, id, now, new Date(now.getTime() + options.leaseMs));
    if (!row) return;
    const alert = await store.checkAlerts.get(accountId, row.alert_id);
    const channel = row.alert_channel_id === null ? undefined : await store.alertChannels.getWithSecrets(accountId, row.alert_channel_id);
    const result = !alert ? configurationFailure('the alert no longer exists')
      : !channel ? configurationFailure('the alert channel was deleted')
        : await deliverToChannel(store, accountId, channel, linked(alert.payload as AlertMessage), options.context);
    const attemptedAt = clock.now();
    const delay = result.ok || !isRetryableFailure(result) ? null : retryDelayMs(row.attempt, options.retryDelaysMs);
    const next = delay !== null && row.alert_channel_id !== null
      ? { id: randomUUID(), at: new Date(attemptedAt.getTime() + delay) }
      : null;
    await store.transaction(async (repos) => {
      await repos.alertNotifications.complete(accountId, id, {
        status: result.ok ? 'SENT' : 'FAILED',
        error: result.ok ? null : (result.error ?? 'delivery failed'),
        responseStatus: result.status ?? null,
        notificationResult: result.response ? result.response.slice(0, MAX_RESULT) : null,
        attemptedAt,
      });
      if (next) {
        await repos.alertNotifications.insertPending(accountId, {
          id: next.id, alertId: row.alert_id, checkId: row.check_id, alertChannelId: row.alert_channel_id!, channelType: row.channel_type,
          alertType: row.alert_type, attempt: row.attempt + 1, createdAt: attemptedAt, nextAttemptAt: next.at,
        });
      }
    });
    options.onAttempt?.({ channelType: row.channel_type, ok: result.ok });
    const who = {
      accountId, checkId: row.check_id, alertId: row.alert_id, notificationId: id, channelId: row.alert_channel_id,
      channelType: row.channel_type, alertType: row.alert_type, attempt: row.attempt,
    };
    // The error is scrubbed of the channel's secrets (send); the channel's config is never logged.
    if (result.ok) logger.info(who, 'alert sent');
    else logger.warn({ ...who, error: result.error, nextAttemptAt: next?.at.toISOString() ?? null }, next ? 'alert delivery failed; will retry' : 'alert delivery failed');
    const done = await store.alertNotifications.get(accountId, id);
    if (done) {
      try {
        await bus.publish({ type: 'alertNotified', accountId, checkId: done.check_id, notification: toAlertNotificationView(done) });
      } catch (err) {
        logger.error({ err }, 'publishing alertNotified failed');
      }
    }
    if (next) schedule({ accountId, id: next.id }, next.at);
  }

  function run(n: QueuedNotification): void {
    track(attempt(n.accountId, n.id).catch((err) => {
      // The claim's lease lets a later sweep take it again.
      logger.error({ err, notificationId: n.id }, 'alert delivery attempt failed');
    }));
  }

  function schedule(n: QueuedNotification, at: Date): void {
    if (closed || timers.has(n.id)) return;
    if (at.getTime() <= clock.now().getTime()) return run(n);
    const timer = clock.setTimer(() => {
      timers.delete(n.id);
      if (!closed) run(n);
    }, at.getTime() - clock.now().getTime());
    timers.set(n.id, timer);
  }

  async function sweep(): Promise<void> {
    const due = await store.alertNotifications.listDue(clock.now(), SWEEP_BATCH);
    for (const d of due) if (!timers.has(d.id)) run(d);
  }

  function armSweep(): void {
    if (closed) return;
    sweepTimer = clock.setTimer(() => {
      track(sweep().catch((err) => logger.error({ err }, 'looking for due alert deliveries failed')).finally(armSweep));
    }, options.sweepIntervalMs);
  }

  return {
    /** Delivers freshly queued (due now) attempts. */
    dispatch(list: readonly QueuedNotification[]): void {
      if (closed) return;
      for (const n of list) run(n);
    },

    /** Schedules the pending attempts stored before this process started, and starts the sweeps. */
    async resume(): Promise<void> {
      const pending = await store.alertNotifications.listDue(null, RESUME_BATCH);
      for (const p of pending) schedule(p, p.nextAttemptAt);
      if (!sweepTimer) armSweep();
    },

    /** Stops scheduling; pending attempts stay stored for the next start. */
    close(): void {
      closed = true;
      for (const timer of timers.values()) clock.clearTimer(timer);
      timers.clear();
      if (sweepTimer) clock.clearTimer(sweepTimer);
      sweepTimer = null;
    },
  };
}
export type AlertDeliveries = ReturnType<typeof createAlertDeliveries>;
