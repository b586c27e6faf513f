import { randomUUID } from 'node:crypto';
import { alertTitle, type AlertMessage } from '../../domain/alert-message.js';
import { channelWants, type AlertType, type ParallelOutcome } from '../../domain/alert-state.js';
import { resultAlertFacts } from '../../domain/result-alert-facts.js';
import type { Repositories } from '../../store/repositories.js';
import type { AlertCheck, ChannelChoice } from './alert-check.js';
import type { QueuedNotification } from './create-alert-deliveries.js';
import type { ReceivedRun } from './received-run.js';

/** The message of an alert of `type` about `check`, telling of `run` (null for none, as for reminders). */
export function alertMessageFor(type: AlertType, check: AlertCheck, run: ReceivedRun | null, parallel?: ParallelOutcome): AlertMessage {
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
export async function raiseAlert(repos: Repositories, check: AlertCheck, message: AlertMessage, channels: ChannelChoice[], now: Date): Promise<{ alertId: string; queued: QueuedNotification[] }> {
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
