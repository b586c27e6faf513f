import type { AlertType } from './alert-state.js';
import type { IncidentStatus } from './incident-status-moves.js';

/** What a check's triggerIncident asks for (REST `triggerIncident`). */
export interface IncidentTrigger {
  serviceId: string;
  /** Every service the incident affects (a check several auto-incident services are built from); default [serviceId]. */
  serviceIds?: readonly string[];
  name: string;
  description?: string | null;
  severity?: string | null;
  notifySubscribers?: boolean | null;
}

/**
 * The trigger of a check without its own `triggerIncident` that status page services with
 * `autoIncident` are built from: one MAJOR incident on all of them, named after the first.
 */
export function serviceIncidentTrigger(services: readonly { id: string; name: string }[]): IncidentTrigger | null {
  if (services.length === 0) return null;
  return { serviceId: services[0]!.id, serviceIds: services.map((s) => s.id), name: `${services.map((s) => s.name).join(', ')}: outage`, severity: 'MAJOR', notifySubscribers: false };
}

/** The incident automation severity when the trigger names none. */
export const DEFAULT_TRIGGER_SEVERITY = 'MAJOR';

/** One step of incident automation, or nothing to do. */
export type IncidentAutomationStep =
  | { kind: 'open'; name: string; severity: string; status: IncidentStatus; description: string }
  | { kind: 'append'; status: IncidentStatus; description: string }
  | { kind: 'resolve'; status: 'RESOLVED'; description: string };

/** The incident a check has open, as automation sees it. */
export interface OpenIncident {
  lastUpdateStatus: IncidentStatus;
}

/** Alerts that start an outage, and those that end one. */
// ALERT_FAILURE_REMAIN is what a run raises when failures reach a threshold above one (alert-state.ts);
// reminders raise it too, but they never reach incident automation (only judged runs do).
const FAILING: readonly AlertType[] = ['ALERT_FAILURE', 'ALERT_FAILURE_REMAIN', 'ALERT_DEGRADED_FAILURE'];
const RECOVERED: readonly AlertType[] = ['ALERT_RECOVERY', 'ALERT_DEGRADED_RECOVERY'];

/**
 * What the alerts of one judged run do to the check's incident:
 *
 * | alert                                   | no open incident | an open incident                       |
 * |-----------------------------------------|------------------|----------------------------------------|
 * | ALERT_FAILURE(_REMAIN), DEGRADED_FAILURE | open one        | append "still failing" (one per check) |
 * | ALERT_FAILURE_DEGRADED                  | nothing          | append, MONITORING (partly recovered)  |
 * | ALERT_RECOVERY, ALERT_DEGRADED_RECOVERY | nothing          | resolve                                |
 * | degradation, certificates               | nothing          | nothing                                |
 *
 * An incident somebody resolved by hand counts as closed, so the next failure opens a new one.
 */
export function incidentAutomationStep(
  trigger: IncidentTrigger,
  alerts: readonly AlertType[],
  open: OpenIncident | null,
  checkName: string,
): IncidentAutomationStep | null {
  const stillOpen = open !== null && open.lastUpdateStatus !== 'RESOLVED';
  if (alerts.some((a) => FAILING.includes(a))) {
    if (stillOpen) return { kind: 'append', status: open.lastUpdateStatus, description: `${checkName} is still failing.` };
    const description = trigger.description?.trim() || `${checkName} is failing.`;
    return { kind: 'open', name: trigger.name, severity: trigger.severity ?? DEFAULT_TRIGGER_SEVERITY, status: 'INVESTIGATING', description };
  }
  if (!stillOpen) return null;
  if (alerts.some((a) => RECOVERED.includes(a))) return { kind: 'resolve', status: 'RESOLVED', description: `${checkName} has recovered.` };
  if (alerts.includes('ALERT_FAILURE_DEGRADED')) return { kind: 'append', status: 'MONITORING', description: `${checkName} is degraded but no longer failing.` };
  return null;
}
