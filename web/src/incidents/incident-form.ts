export type IncidentSeverity = 'MINOR' | 'MEDIUM' | 'MAJOR' | 'CRITICAL';
export type IncidentStatus = 'INVESTIGATING' | 'IDENTIFIED' | 'MONITORING' | 'RESOLVED';

export const SEVERITIES: readonly IncidentSeverity[] = ['MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL'];
export const STATUSES: readonly IncidentStatus[] = ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'];

/** A status or severity as people read it: `INVESTIGATING` → `Investigating`. */
export function label(value: string): string {
  return value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, ' ');
}

/** What the new incident form holds: the incident and its first update. */
export interface IncidentFormValues {
  name: string;
  severity: IncidentSeverity;
  services: string[];
  description: string;
  status: IncidentStatus;
  notifySubscribers: boolean;
}

/** The new incident form's fields by the paths userErrors name (`services.1`, `updates.0.description`). */
export const INCIDENT_FORM_FIELDS = ['name', 'severity', 'services', 'updates.0.description', 'updates.0.status', 'updates'] as const;

export const EMPTY_INCIDENT_FORM: IncidentFormValues = { name: '', severity: 'MAJOR', services: [], description: '', status: 'INVESTIGATING', notifySubscribers: false };

/** The CreateIncidentInput of the form: the incident with its first update. */
export function incidentInput(values: IncidentFormValues) {
  return {
    name: values.name.trim(),
    severity: values.severity,
    services: values.services,
    updates: [{ description: values.description.trim(), status: values.status, notifySubscribers: values.notifySubscribers }],
  };
}

/** What the post-an-update form holds. */
export interface IncidentUpdateFormValues {
  description: string;
  /** '' keeps the status of the update before it. */
  status: IncidentStatus | '';
  notifySubscribers: boolean;
}

export const INCIDENT_UPDATE_FORM_FIELDS = ['description', 'status', 'publicIncidentUpdateDate', 'notifySubscribers'] as const;

/** The IncidentUpdateInput of the form; a blank status is left out (the update keeps the one before). */
export function incidentUpdateInput(values: IncidentUpdateFormValues) {
  return {
    description: values.description.trim(),
    ...(values.status ? { status: values.status } : {}),
    notifySubscribers: values.notifySubscribers,
  };
}

/** The statuses an open incident's next update may sensibly set, in order, starting after its current one. */
export function nextStatus(current: IncidentStatus): IncidentStatus {
  const i = STATUSES.indexOf(current);
  return STATUSES[Math.min(i + 1, STATUSES.length - 1)]!;
}

interface ListedIncident { open: boolean; services: readonly { id: string }[] }

/** Incidents of the chosen services (all when none chosen) and state, order kept. */
export function filterIncidents<T extends ListedIncident>(incidents: readonly T[], filter: { services?: readonly string[] | null; state: 'open' | 'resolved' | 'all' }): T[] {
  const wanted = filter.services ? new Set(filter.services) : null;
  return incidents.filter((incident) =>
    (filter.state === 'all' || incident.open === (filter.state === 'open'))
    && (!wanted || incident.services.some((s) => wanted.has(s.id))));
}
