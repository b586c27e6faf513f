import { randomUUID } from 'node:crypto';
import type { MaintenanceNotificationFacts } from '../domain/subscriber-notification-messages.js';
import type { PendingMaintenanceNotification } from '../store/maintenance-updates-repository.js';
import type { Repositories } from '../store/repositories.js';
import type { StatusPageIncidentUpdateRow } from '../store/status-page-incidents-repository.js';
import type { NewSubscriberNotification } from '../store/subscriber-notifications-repository.js';

/**
 * Leaves a notification for the subscriber notifier in the caller's transaction: call it in the
 * transaction that posts the update, so the update and its notification commit together or not at
 * all. Answers false when the update was notified already (an update is notified at most once).
 */
export function enqueueSubscriberNotification(repos: Repositories, n: Omit<NewSubscriberNotification, 'id'>): Promise<boolean> {
  return repos.subscriberNotifications.insert({ id: randomUUID(), ...n });
}

/**
 * Leaves a notification for each of these newly posted updates of an incident that has
 * notifySubscribers (the others are skipped). Call it after the incident's progress is recorded:
 * an update without a status is announced with the incident's status. Never call it for an edit.
 */
export async function enqueueIncidentUpdateNotifications(repos: Repositories, accountId: string, incidentId: string, updates: readonly StatusPageIncidentUpdateRow[]): Promise<void> {
  const notified = updates.filter((u) => u.notify_subscribers);
  if (notified.length === 0) return;
  const incident = await repos.statusPageIncidents.get(accountId, incidentId);
  if (!incident) return;
  const services = (await repos.statusPageIncidents.servicesOf([incidentId])).map((s) => ({ id: s.id, name: s.name }));
  for (const u of notified) {
    await enqueueSubscriberNotification(repos, {
      accountId,
      subjectType: 'INCIDENT',
      subjectId: incidentId,
      kind: 'UPDATE',
      updateId: u.id,
      serviceIds: services.map((s) => s.id),
      statusPageIds: null,
      facts: {
        subjectType: 'INCIDENT',
        kind: 'UPDATE',
        incident: { id: incident.id, name: incident.name, severity: incident.severity },
        update: { id: u.id, description: u.description, status: u.status ?? incident.last_update_status, publicIncidentUpdateDate: u.public_incident_update_date.toISOString() },
        services,
      },
    });
  }
}

/**
 * Turns one maintenance notification the maintenance side left (an update posted with
 * notifySubscribers, or a due reminder: maintenanceUpdates.pendingNotifications) into a subscriber
 * notification, marking it notified in the same transaction, so it is taken exactly once whichever
 * worker gets there. False when another worker took it first, or its window is gone.
 */
export async function enqueueMaintenanceNotification(repos: Repositories, p: PendingMaintenanceNotification, at: Date): Promise<boolean> {
  if (!(await repos.maintenanceUpdates.markNotified(p.kind, p.id, at))) return false;
  const window = await repos.subscriberNotifications.maintenanceWindow(p.account_id, p.window_id);
  if (!window) return false;
  const update = p.kind === 'update' ? await repos.maintenanceUpdates.get(p.account_id, p.maintenance_id, p.id) : undefined;
  if (p.kind === 'update' && !update) return false;
  const named = window.affect_all_services ? [] : window.service_ids;
  const services = (await repos.statusPageServices.getMany(p.account_id, named)).map((s) => ({ id: s.id, name: s.name }));
  services.sort((x, y) => named.indexOf(x.id) - named.indexOf(y.id));
  const facts: MaintenanceNotificationFacts = {
    subjectType: 'MAINTENANCE',
    kind: p.kind === 'update' ? 'UPDATE' : 'REMINDER',
    maintenance: { id: p.maintenance_id, maintenanceWindowId: window.id, name: window.name, startsAt: p.starts_at.toISOString(), endsAt: p.ends_at.toISOString() },
    update: update
      ? { id: update.id, description: update.description, status: update.status, previousStatus: update.previous_status, created_at: update.created_at.toISOString() }
      : null,
    reminder: p.kind === 'reminder' ? { id: p.id, minutesBefore: p.minutes_before ?? 0 } : null,
    services,
    affectsAllServices: window.affect_all_services,
  };
  return enqueueSubscriberNotification(repos, {
    accountId: p.account_id,
    subjectType: 'MAINTENANCE',
    subjectId: p.maintenance_id,
    kind: facts.kind,
    updateId: p.id,
    serviceIds: services.map((s) => s.id),
    statusPageIds: window.status_page_ids,
    facts,
  });
}
