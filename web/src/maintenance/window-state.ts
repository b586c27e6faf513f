/** A maintenance's status (schema MaintenanceStatus). */
export type MaintenanceStatusName = 'SCHEDULED' | 'IN_PROGRESS' | 'VERIFYING' | 'COMPLETED' | 'CANCELLED';

/** One maintenance (occurrence of a window) as the console reads it. */
export interface MaintenanceLike {
  id: string;
  status: MaintenanceStatusName;
  startsAt: string;
  endsAt: string;
}

/** Where a maintenance window stands: one of its maintenances going on, the next one planned, or none left. */
export type WindowState =
  | { kind: 'IN_PROGRESS'; maintenance: MaintenanceLike }
  | { kind: 'SCHEDULED'; maintenance: MaintenanceLike }
  | { kind: 'ENDED' };

/** Statuses during which the window's effects apply (as the server's maintenance clock counts them). */
export const isGoingOn = (status: MaintenanceStatusName) => status === 'IN_PROGRESS' || status === 'VERIFYING';

/**
 * The state of a window from its upcoming maintenances: a maintenance IN_PROGRESS or VERIFYING makes
 * it in progress (the latest ending one); otherwise the soonest SCHEDULED one makes it scheduled;
 * otherwise (only completed or cancelled ones, or none) it has ended.
 */
export function windowState(maintenances: readonly MaintenanceLike[]): WindowState {
  const goingOn = maintenances.filter((m) => isGoingOn(m.status)).sort((a, b) => b.endsAt.localeCompare(a.endsAt))[0];
  if (goingOn) return { kind: 'IN_PROGRESS', maintenance: goingOn };
  const next = maintenances.filter((m) => m.status === 'SCHEDULED').sort((a, b) => a.startsAt.localeCompare(b.startsAt))[0];
  return next ? { kind: 'SCHEDULED', maintenance: next } : { kind: 'ENDED' };
}

/** An instant as the maintenance pages write it: `2026-11-29 10:00 UTC`. */
export function utcMinute(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A window's state in words, for the maintenance list and page. */
export function describeWindowState(state: WindowState): string {
  switch (state.kind) {
    case 'IN_PROGRESS': return `In progress until ${utcMinute(state.maintenance.endsAt)}`;
    case 'SCHEDULED': return `Scheduled from ${utcMinute(state.maintenance.startsAt)}`;
    case 'ENDED': return 'Ended';
  }
}
