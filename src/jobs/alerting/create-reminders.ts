import type { Logger } from 'pino';
import { reminderMessage, type AlertMessage } from '../../domain/alert-message.js';
import { dueReminders, type AlertState, type EscalationSettings } from '../../domain/alert-state.js';
import { nextReminderAt } from '../../domain/next-reminder-at.js';
import type { Store } from '../../store/create-store.js';
import { alertChannelsOf, loadAlertCheck } from './alert-check.js';
import type { AlertClock, ClockTimer } from './alert-clock.js';
import type { CheckQueues } from './check-queues.js';
import type { AlertDeliveries, QueuedNotification } from './create-alert-deliveries.js';
import { raiseAlert } from './raise-alert.js';

/** Options of createReminders. */
export interface RemindersOptions {
  store: Store;
  logger: Logger;
  clock: AlertClock;
  queues: CheckQueues;
  deliveries: Pick<AlertDeliveries, 'dispatch'>;
}

/** Reminder timers of the checks whose alert is open. */
export interface Reminders {
  /** Sets the check's timer from its stored state (none when no reminder is due), replacing the old one. */
  schedule(accountId: string, checkId: string, state: AlertState, settings: EscalationSettings): void;
  /** Sets the timer of every check with an open alert, from what is stored; call once on start. */
  resume(): Promise<void>;
  /** Cancels every timer; nothing is scheduled afterwards. */
  close(): void;
}

/**
 * Reminders run on timers from the stored state (recovery cancels them). A timer fires into the
 * check's queue, where the reminder is raised in a transaction that moves the stored state.
 */
export function createReminders(options: RemindersOptions): Reminders {
  const { store, clock, queues, deliveries } = options;
  const timers = new Map<string, ClockTimer>();
  let closed = false;

  function cancel(checkId: string): void {
    const timer = timers.get(checkId);
    if (timer) clock.clearTimer(timer);
    timers.delete(checkId);
  }

  function schedule(accountId: string, checkId: string, state: AlertState, settings: EscalationSettings): void {
    cancel(checkId);
    if (closed) return;
    const at = nextReminderAt(state, settings);
    if (!at) return;
    const fire = () => void queues.serial(checkId, 'sending a reminder', () => remind(accountId, checkId));
    const wait = at.getTime() - clock.now().getTime();
    if (wait <= 0) return fire();
    const timer = clock.setTimer(() => {
      timers.delete(checkId);
      fire();
    }, wait);
    timers.set(checkId, timer);
  }

  async function remind(accountId: string, checkId: string): Promise<void> {
    const now = clock.now();
    const outcome = await store.transaction(async (repos) => {
      const check = await loadAlertCheck(repos, accountId, checkId);
      const stored = check ? await repos.alertStates.get(accountId, checkId, { forUpdate: true }) : undefined;
      if (!check || !stored) return null;
      const due = dueReminders(stored.state, check.profile.settings, now);
      const queued: QueuedNotification[] = [];
      if (due.reminders.length === 0) return { state: stored.state, settings: check.profile.settings, queued, sent: false };
      const last = stored.lastAlertId ? await repos.checkAlerts.get(accountId, stored.lastAlertId) : undefined;
      if (last && !check.profile.muted) {
        const channels = await alertChannelsOf(repos, accountId, check.profile);
        for (const r of due.reminders) {
          const message = reminderMessage({ ...(last.payload as AlertMessage), groupName: check.profile.groupName, tags: check.profile.tags }, r.alertType, r.sequence);
          queued.push(...(await raiseAlert(repos, check, message, channels, now)).queued);
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
    if (outcome.sent || (at && at.getTime() > now.getTime())) schedule(accountId, checkId, outcome.state, outcome.settings);
  }

  return {
    schedule,
    async resume() {
      for (const open of await store.alertStates.listOpen()) {
        void queues.serial(open.checkId, 'rescheduling a reminder', async () => {
          const check = await loadAlertCheck(store, open.accountId, open.checkId);
          const stored = check && (await store.alertStates.get(open.accountId, open.checkId));
          if (check && stored) schedule(open.accountId, open.checkId, stored.state, check.profile.settings);
        });
      }
    },
    close() {
      closed = true;
      for (const checkId of [...timers.keys()]) cancel(checkId);
    },
  };
}
