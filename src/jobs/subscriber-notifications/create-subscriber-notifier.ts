import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { createGuardedAgent } from '../../service/create-guarded-agent.js';
import { isRetryableFailure, retryDelayMs } from '../../domain/delivery-retry.js';
import { maskAddress } from '../../domain/subscriber-notification-messages.js';
import type { EventBus } from '../../events/event-bus.js';
import type { SendMails } from '../../service/status-page-subscription-mailer.js';
import { createStatusPageSubscriptionService } from '../../service/status-page-subscription-service.js';
import type { Store } from '../../store/create-store.js';
import { enqueueMaintenanceNotification } from '../../service/enqueue-subscriber-notification.js';
import type { ClaimedSubscriberDelivery } from '../../store/subscriber-deliveries-repository.js';
import { systemClock, type AlertClock, type ClockTimer } from '../alerting/alert-clock.js';
import { createSubscriberMessageSender, type SendOutcome } from './send-subscriber-message.js';

/** How the subscriber notifier is set up; see createSubscriberNotifier. */
export interface SubscriberNotifierOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** Base URL of the links messages carry (LOOKOUT_PUBLIC_URL). */
  publicUrl: string;
  /** Sends EMAIL messages; absent when no SMTP server is configured (EMAIL deliveries then fail). */
  sendMails?: SendMails;
  /** undici dispatcher of webhook POSTs; by default one of the notifier's own, closed by close(). */
  http?: Dispatcher;
  /** LOOKOUT_ALLOW_PRIVATE_TARGETS: the notifier's own dispatcher connects to private addresses too. */
  allowPrivateTargets?: boolean;
  clock?: AlertClock;
  /** Wait before each retry of a failed attempt (default 10 s, 60 s, 300 s: up to 4 attempts). */
  retryDelaysMs?: readonly number[];
  /** Time limit of one webhook POST (mails: the mailer's own limits), default 10 s. */
  timeoutMs?: number;
  /** How often notifications and attempts nobody took (an event missed, a process died) are looked for; default 30 s. */
  sweepIntervalMs?: number;
  /** How long a claimed attempt is held before another worker may take it over; default six times timeoutMs. */
  leaseMs?: number;
  /** Messages sent at once at most; default 8. */
  concurrency?: number;
}

/** The running subscriber notifier of one process. */
export interface SubscriberNotifier {
  /** Fans out what is pending, schedules the stored pending attempts and starts the sweeps; call once on start. */
  resume(): Promise<void>;
  /** Resolves once every fan-out and attempt started so far is done. */
  idle(): Promise<void>;
  /** Stops listening and stops timers, then waits for the work in flight; pending attempts stay stored. */
  close(): Promise<void>;
}

/** Notifications fanned out per transaction. */
const FAN_OUT_BATCH = 50;
/** Due attempts taken per look. */
const DUE_BATCH = 500;
/** Pending attempts rescheduled on start; a larger backlog is worked off by the sweeps. */
const RESUME_BATCH = 10_000;
/** Leases outlast the slowest attempt (an SMTP exchange has several timed steps). */
const LEASE_FACTOR = 6;

/**
 * Delivers incident and maintenance updates to status page subscribers.
 *
 * - Writers leave a notification (subscriber_notifications) in the transaction of each update posted
 *   with notifySubscribers (enqueue-subscriber-notification.ts); the maintenance side's pending
 *   notifications (updates and due reminders) are taken over into it here, each exactly once.
 * - Fan-out claims PENDING notifications with FOR UPDATE SKIP LOCKED and, in the same transaction,
 *   queues one PENDING attempt per channel and address among the VERIFIED subscribers of every page
 *   of the account that shows an affected service, then marks the notification FANNED_OUT.
 * - Each attempt is claimed with a lease, sent (send-subscriber-message.ts) and completed SENT or
 *   FAILED; a failure that may pass is followed by a PENDING attempt after the next retry delay.
 *   A lease that ends before its outcome is recorded (the process died) lets another worker take
 *   the attempt over; the late outcome of the first is then dropped.
 * - Woken by `publicContentChanged` about incidents and maintenance, and by a sweep every
 *   `sweepIntervalMs`, so nothing committed is lost when an event is missed or a process dies.
 * Long by design: take-over, fan-out and delivery share the lease settings, the wake-up and the in-flight set that close() waits for; sending and fan-out rules live in their own files.
 */
export function createSubscriberNotifier(options: SubscriberNotifierOptions): SubscriberNotifier {
  const { store, bus, logger } = options;
  const clock = options.clock ?? systemClock();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retryDelaysMs = options.retryDelaysMs ?? [10_000, 60_000, 300_000];
  const leaseMs = options.leaseMs ?? timeoutMs * LEASE_FACTOR;
  const concurrency = options.concurrency ?? 8;
  const ownDispatcher = options.http ? null : createGuardedAgent({ allowPrivateTargets: options.allowPrivateTargets ?? false, connectTimeoutMs: timeoutMs });
  const subscriptions = createStatusPageSubscriptionService({ store, publicUrl: options.publicUrl, timeoutMs });
  const send = createSubscriberMessageSender({
    publicUrl: options.publicUrl,
    unsubscribeUrl: (accountId, subscriptionId) => subscriptions.unsubscribeUrl(accountId, subscriptionId),
    sendMails: options.sendMails,
    dispatcher: options.http ?? ownDispatcher ?? undefined,
    timeoutMs,
  });

  const tasks = new Set<Promise<void>>();
  const timers = new Map<string, ClockTimer>();
  /** Attempts queued or in flight in this process. */
  const known = new Set<string>();
  const waiting: (() => void)[] = [];
  let active = 0;
  let fanning: Promise<void> | null = null;
  let fanAgain = false;
  let sweepTimer: ClockTimer | null = null;
  let closed = false;

  const track = (work: Promise<void>) => {
    tasks.add(work);
    void work.finally(() => tasks.delete(work));
  };

  /** Takes the maintenance side's pending notifications over into the outbox, a batch per transaction. */
  async function takeMaintenanceNotifications(): Promise<void> {
    for (;;) {
      const { listed, taken } = await store.transaction(async (tx) => {
        const pending = await tx.maintenanceUpdates.pendingNotifications(FAN_OUT_BATCH);
        let taken = 0;
        for (const p of pending) if (await enqueueMaintenanceNotification(tx, p, clock.now())) taken++;
        return { listed: pending.length, taken };
      });
      if (listed < FAN_OUT_BATCH || taken === 0) return;
    }
  }

  /** Fans out every PENDING notification this worker can claim, and starts the attempts it queued. */
  async function fanOutPending(): Promise<void> {
    await takeMaintenanceNotifications();
    for (;;) {
      const at = clock.now();
      const done = await store.transaction(async (tx) => {
        const claimed = await tx.subscriberNotifications.claimPending(FAN_OUT_BATCH);
        const out: { n: (typeof claimed)[number]; ids: string[] }[] = [];
        for (const n of claimed) out.push({ n, ids: await tx.subscriberNotifications.fanOut(n, at) });
        return out;
      });
      for (const { n, ids } of done) {
        logger.info({
          notificationId: n.id, accountId: n.account_id, subjectType: n.subject_type, subjectId: n.subject_id, kind: n.kind, updateId: n.update_id,
          recipients: ids.length,
        }, 'subscriber notification fanned out');
        for (const id of ids) run(id);
      }
      if (done.length < FAN_OUT_BATCH) return;
    }
  }

  /** Runs fan-outs one at a time; a request during one runs another after it (the new notification may have missed it). */
  function requestFanOut(): void {
    if (closed) return;
    if (fanning) {
      fanAgain = true;
      return;
    }
    const loop = async () => {
      do {
        fanAgain = false;
        await fanOutPending().catch((err) => logger.error({ err }, 'subscriber notifications: fan-out failed'));
      } while (fanAgain && !closed);
    };
    fanning = loop().finally(() => (fanning = null));
    track(fanning);
  }

  /** Records an attempt's outcome and queues the next attempt; false when the claim was lost meanwhile. */
  async function complete(d: ClaimedSubscriberDelivery, claimToken: string, result: SendOutcome): Promise<{ kept: boolean; next: { id: string; at: Date } | null }> {
    const at = clock.now();
    const delay = result.ok || !isRetryableFailure(result) ? null : retryDelayMs(d.attempt, retryDelaysMs);
    const next = delay === null || !d.subscription_id ? null : { id: randomUUID(), at: new Date(at.getTime() + delay) };
    return store.transaction(async (tx) => {
      const kept = await tx.subscriberDeliveries.complete(d.id, claimToken, {
        // No status is stored: the list would show what an address answers (see webhookFailureReason).
        status: result.ok ? 'SENT' : 'FAILED', error: result.ok ? null : result.error, responseStatus: null, at,
      });
      if (!kept) return { kept, next: null };
      return { kept, next: next && (await tx.subscriberDeliveries.insertRetry(d, next.id, at, next.at)) ? next : null };
    });
  }

  async function attempt(id: string): Promise<void> {
    const now = clock.now();
    const claimToken = randomUUID();
    const d = await store.subscriberDeliveries.claim(id, now, new Date(now.getTime() + leaseMs), claimToken);
    if (!d) return;
    const result = await send(d);
    const { kept, next } = await complete(d, claimToken, result);
    const who = { deliveryId: d.id, notificationId: d.notification_id, subscriptionId: d.subscription_id, channel: d.channel, attempt: d.attempt };
    if (!kept) {
      logger.warn(who, 'subscriber delivery: the lease ended before the outcome was recorded; another worker took the attempt over');
      return;
    }
    if (!result.ok) {
      // Addresses and their parts stay out of logs at info (a mailer's error may quote the address).
      const masked = maskAddress(d.channel, d.address);
      const error = result.error.split(d.address).join(masked);
      if (next) logger.debug({ ...who, address: masked, error, retryAt: next.at }, 'subscriber delivery failed; retrying');
      else logger.info({ ...who, address: masked, error }, 'subscriber delivery failed; no attempt left');
    }
    if (next) schedule(next.id, next.at);
  }

  /** Starts an attempt when a slot is free (at most `concurrency` at once); one run per attempt in this process. */
  function run(id: string): void {
    if (closed || known.has(id)) return;
    known.add(id);
    const timer = timers.get(id);
    if (timer) clock.clearTimer(timer);
    timers.delete(id);
    const work = async () => {
      if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
      active++;
      try {
        if (!closed) await attempt(id);
      } finally {
        active--;
        waiting.shift()?.();
      }
    };
    track(work()
      // The claim's lease lets a later sweep take the attempt again.
      .catch((err) => logger.error({ err, deliveryId: id }, 'subscriber delivery attempt failed'))
      .finally(() => known.delete(id)));
  }

  function schedule(id: string, at: Date): void {
    if (closed || timers.has(id) || known.has(id)) return;
    const wait = at.getTime() - clock.now().getTime();
    if (wait <= 0) return run(id);
    timers.set(id, clock.setTimer(() => {
      timers.delete(id);
      run(id);
    }, wait));
  }

  async function runDue(): Promise<void> {
    for (const d of await store.subscriberDeliveries.listDue(clock.now(), DUE_BATCH)) run(d.id);
  }

  function armSweep(): void {
    if (closed) return;
    sweepTimer = clock.setTimer(() => {
      requestFanOut();
      track(runDue().catch((err) => logger.error({ err }, 'subscriber notifications: looking for due deliveries failed')).finally(armSweep));
    }, options.sweepIntervalMs ?? 30_000);
  }

  const unsubscribeChanges = bus.subscribe('publicContentChanged', (event) => {
    if (event.subject === 'incident' || event.subject === 'maintenance') requestFanOut();
  });
  const unsubscribeReminders = bus.subscribe('maintenanceReminderDue', () => requestFanOut());
  const unsubscribe = () => {
    unsubscribeChanges();
    unsubscribeReminders();
  };

  async function idle(): Promise<void> {
    while (tasks.size > 0) await Promise.allSettled([...tasks]);
  }

  return {
    async resume() {
      requestFanOut();
      for (const d of await store.subscriberDeliveries.listDue(null, RESUME_BATCH)) schedule(d.id, d.dueAt);
      if (!sweepTimer) armSweep();
    },

    idle,

    async close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const timer of timers.values()) clock.clearTimer(timer);
      timers.clear();
      if (sweepTimer) clock.clearTimer(sweepTimer);
      sweepTimer = null;
      // Attempts still waiting for a slot see `closed` and leave their rows PENDING for the next start.
      while (waiting.length > 0) waiting.shift()!();
      await idle();
      await ownDispatcher?.close();
    },
  };
}
