import type { Logger } from 'pino';
import {
  INITIAL_ALERT_STATE, nextAlertState, runStatus, type AlertState, type FinalRun, type ParallelOutcome,
} from '../../domain/alert-state.js';
import type { AlertProfile } from '../../domain/alert-profile.js';
import { maintenanceEffects } from '../../domain/maintenance-effects.js';
import { serviceIncidentTrigger } from '../../domain/incident-automation.js';
import { combineParallelRun } from '../../domain/parallel-run.js';
import type { EventBus } from '../../events/event-bus.js';
import { incidentViews } from '../../service/status-page-incident-view.js';
import type { Store } from '../../store/create-store.js';
import type { Repositories } from '../../store/repositories.js';
import { alertChannelsOf, loadAlertCheck, type AlertCheck } from './alert-check.js';
import type { AlertClock } from './alert-clock.js';
import { automateIncident, type IncidentAutomationOutcome } from './automate-incident.js';
import type { AlertDeliveries, QueuedNotification } from './create-alert-deliveries.js';
import type { Reminders } from './create-reminders.js';
import { alertMessageFor, raiseAlert } from './raise-alert.js';
import type { ReceivedRun } from './received-run.js';

/** Options of createRunJudge. */
export interface RunJudgeOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  clock: AlertClock;
  deliveries: Pick<AlertDeliveries, 'dispatch'>;
  reminders: Pick<Reminders, 'schedule'>;
}

/** Moves a check's alert state with one (possibly combined) FINAL run. */
export interface RunJudge {
  /**
   * Moves the state machine with `runs` (one run, or a parallel run's locations) and raises its
   * alerts, removing the runs' outbox rows with the change. Throws when the store fails: the rows
   * then stay in the outbox and are read again.
   */
  judge(loaded: AlertCheck | null, accountId: string, checkId: string, runs: ReceivedRun[]): Promise<void>;
}

/** Thrown inside a judging transaction whose outbox rows another alerting already removed, to roll it back. */
class AlreadyJudged extends Error {}

/**
 * The judge of FINAL runs. The state is stored and locked while it changes, and the outbox rows are
 * removed in that transaction (or alone when the run changes nothing), so each run is judged once
 * even across crashes, restarts and a second alerting. Each alert is stored with one PENDING
 * notification per subscribed channel that wants it; muted checks and maintenance in progress keep
 * the state moving but raise nothing; incident automation follows the alerts raised.
 */
export function createRunJudge(options: RunJudgeOptions): RunJudge {
  const { store, bus, logger, clock, deliveries, reminders } = options;

  async function judge(loaded: AlertCheck | null, accountId: string, checkId: string, runs: ReceivedRun[]): Promise<void> {
    const ids = runs.map((r) => r.outboxId);
    const check = loaded ?? (await loadAlertCheck(store, accountId, checkId));
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
    let outcome;
    try {
      outcome = await store.transaction((repos) => changeState(repos, check, runs, ids, finalRun, parallel));
    } catch (err) {
      if (!(err instanceof AlreadyJudged)) throw err;
      logger.debug({ accountId, checkId, outboxIds: ids }, 'alerting: a run another alerting judged already was skipped');
      return;
    }
    deliveries.dispatch(outcome.queued);
    if (outcome.silencedBy) logger.info({ accountId, checkId, maintenanceWindowIds: outcome.silencedBy }, 'alerting: alerts of a check silenced by maintenance in progress');
    if (outcome.incident) await announceIncident(accountId, checkId, outcome.incident);
    reminders.schedule(accountId, checkId, outcome.state, profile.settings);
  }

  /** The transaction of a run that moves the state: rows removed, state saved, alerts raised, incidents automated. */
  async function changeState(
    repos: Repositories, check: AlertCheck, runs: ReceivedRun[], ids: string[],
    finalRun: FinalRun, parallel: ParallelOutcome | undefined,
  ) {
    const { accountId, profile } = check;
    const checkId = check.row.id;
    const now = clock.now();
    // The check before its rows, in the order a delete of the check locks them (no deadlock);
    // a check deleted meanwhile took its outbox rows with it.
    if (!(await repos.checks.lockAgainstDelete(accountId, checkId))) throw new AlreadyJudged();
    // The rows next: a second alerting judging them waits here on their locks, then finds them gone.
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
      const channels = await alertChannelsOf(repos, accountId, profile);
      for (const type of transition.alerts) {
        const raised = await raiseAlert(repos, check, alertMessageFor(type, check, shown, parallel), channels, now);
        lastAlertId = raised.alertId;
        queued.push(...raised.queued);
      }
    }
    await repos.alertStates.save(accountId, checkId, { state: transition.state, lastAlertId }, now);
    // Incident automation follows the alerts a run raises: a muted check raises none, so opens none.
    const automate = transition.alerts.length > 0 && !profile.muted && !maintenance?.suppressAutoIncidents;
    // The check's own triggerIncident wins; else the status page services with autoIncident built from it.
    const trigger = automate
      ? check.row.data.triggerIncident ?? serviceIncidentTrigger(await repos.statusPageServices.autoIncidentServicesOf(accountId, checkId))
      : null;
    const incident = automate && trigger
      ? await automateIncident(repos, { accountId, checkId, checkName: check.row.name, trigger, alerts: transition.alerts, now })
      : null;
    return { state: transition.state, queued, incident, silencedBy: maintenance?.silenced ? maintenance.windowIds : null };
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

  return { judge };
}

/** The run the state machine sees: a parallel run's locations combined into one. */
function finalRunOf(profile: AlertProfile, runs: ReceivedRun[]): { run: FinalRun; parallel?: ParallelOutcome } {
  if (runs.length > 1 || (profile.runParallel && profile.locations.length > 1)) return combineParallelRun(runs);
  const r = runs[0]!;
  return { run: { hasFailures: r.hasFailures || r.hasErrors, isDegraded: r.isDegraded, startedAt: r.startedAt } };
}

/** Whether two states are the same, field by field (dates by value). */
function sameState(a: AlertState, b: AlertState): boolean {
  const value = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof AlertState>;
  return [...keys].every((k) => value(a[k]) === value(b[k]));
}
