import { randomUUID } from 'node:crypto';
import type { AlertType } from '../../domain/alert-state.js';
import { incidentAutomationStep, type IncidentTrigger } from '../../domain/incident-automation.js';
import type { IncidentStatus } from '../../domain/incident-status-moves.js';
import { enqueueIncidentUpdateNotifications } from '../../service/enqueue-subscriber-notification.js';
import { recordIncidentProgress } from '../../service/record-incident-progress.js';
import type { Repositories } from '../../store/repositories.js';

/** One check's alerts, as incident automation sees them. */
export interface IncidentAutomationInput {
  accountId: string;
  checkId: string;
  checkName: string;
  trigger: IncidentTrigger;
  alerts: readonly AlertType[];
  now: Date;
}

/** What automation wrote: the incident touched and the account's new public content version. */
export type IncidentAutomationOutcome =
  | { kind: 'written'; step: 'open' | 'append' | 'resolve'; incidentId: string; version: number }
  | { kind: 'service-missing'; serviceId: string };

/**
 * Applies incidentAutomationStep in the caller's transaction (the one that stores the alert state):
 * opens an incident on the trigger's service, appends an update to the check's open incident, or
 * resolves it, and moves the public content version on. The check's link row is locked first, so
 * two judgements of one check never open two incidents.
 */
export async function automateIncident(repos: Repositories, input: IncidentAutomationInput): Promise<IncidentAutomationOutcome | null> {
  const { accountId, checkId, trigger, now } = input;
  const link = await repos.checkOpenIncidents.get(accountId, checkId, true);
  const incident = link ? await repos.statusPageIncidents.get(accountId, link.incident_id, true) : undefined;
  const step = incidentAutomationStep(trigger, input.alerts, incident ? { lastUpdateStatus: incident.last_update_status as IncidentStatus } : null, input.checkName);
  if (!step) return null;
  const update = (status: IncidentStatus, description: string) => ({
    description, status, publicIncidentUpdateDate: now, notifySubscribers: trigger.notifySubscribers ?? false,
  });
  let incidentId: string;
  if (step.kind === 'open') {
    const wanted = trigger.serviceIds ?? [trigger.serviceId];
    const services = await repos.statusPageServices.getMany(accountId, wanted);
    if (services.length === 0) return { kind: 'service-missing', serviceId: trigger.serviceId };
    incidentId = randomUUID();
    await repos.statusPageIncidents.insert(accountId, incidentId, { name: step.name, severity: step.severity, checkId });
    const found = new Set(services.map((s) => s.id));
    await repos.statusPageIncidents.setServices(incidentId, wanted.map((id) => id.toLowerCase()).filter((id) => found.has(id)));
    const posted = await repos.statusPageIncidents.insertUpdate(accountId, incidentId, randomUUID(), update(step.status, step.description));
    await recordIncidentProgress(repos, accountId, incidentId, false);
    await enqueueIncidentUpdateNotifications(repos, accountId, incidentId, [posted]);
    await repos.checkOpenIncidents.set(accountId, checkId, incidentId, now);
  } else {
    incidentId = incident!.id;
    const posted = await repos.statusPageIncidents.insertUpdate(accountId, incidentId, randomUUID(), update(step.status, step.description));
    await recordIncidentProgress(repos, accountId, incidentId, true);
    await enqueueIncidentUpdateNotifications(repos, accountId, incidentId, [posted]);
    if (step.kind === 'resolve') await repos.checkOpenIncidents.clear(accountId, checkId);
  }
  return { kind: 'written', step: step.kind, incidentId, version: await repos.publicContentVersions.bump(accountId) };
}
