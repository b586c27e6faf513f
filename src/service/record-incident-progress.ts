import { incidentProgress, type IncidentStatus } from '../domain/incident-status-moves.js';
import type { Repositories } from '../store/repositories.js';

/**
 * Recomputes and stores an incident's lastUpdateStatus and duration from all of its updates. Every
 * writer of incident updates (the REST service, incident automation) calls it in its transaction.
 */
export async function recordIncidentProgress(repos: Repositories, accountId: string, incidentId: string, touch: boolean): Promise<void> {
  const timeline = await repos.statusPageIncidents.timelineOf(incidentId);
  const progress = incidentProgress(timeline.map((u) => ({
    status: u.status as IncidentStatus | null, publicIncidentUpdateDate: u.public_incident_update_date, created_at: u.created_at,
  })));
  await repos.statusPageIncidents.setProgress(accountId, incidentId, progress, touch);
}
