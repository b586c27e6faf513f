import type { Issue } from './lookout-error.js';

/** The update statuses of a status-page incident (service-api.md, "lastUpdateStatus"). */
export const INCIDENT_STATUSES = ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** How a new update's status relates to the incident's current one. */
export type IncidentStatusMove =
  | 'open' // first update of the incident (any status; a lone RESOLVED is a backfilled incident)
  | 'same' // a progress update that keeps the status
  | 'forward' // one step along INVESTIGATING → IDENTIFIED → MONITORING → RESOLVED
  | 'skip' // more than one step forward, e.g. INVESTIGATING → RESOLVED
  | 'back' // to an earlier open status, e.g. MONITORING → INVESTIGATING
  | 'reopen' // RESOLVED → INVESTIGATING, IDENTIFIED or MONITORING
  | 'resolve-again'; // RESOLVED → RESOLVED: kept, but does not extend the duration

/**
 * The move table. Every move among the four statuses is allowed:
 *
 * | from \ to     | INVESTIGATING | IDENTIFIED | MONITORING | RESOLVED      |
 * |---------------|---------------|------------|------------|---------------|
 * | (none)        | open          | open       | open       | open          |
 * | INVESTIGATING | same          | forward    | skip       | skip          |
 * | IDENTIFIED    | back          | same       | forward    | skip          |
 * | MONITORING    | back          | back       | same       | forward       |
 * | RESOLVED      | reopen        | reopen     | reopen     | resolve-again |
 *
 * Why so permissive: service-api.md shows no incident transitions, and the real service documents
 * re-opening and a second RESOLVED ("a second RESOLVED without re-opening does not extend it"), and
 * its CLI resolves from any status. Existing clients must work unchanged (conventions.md), so refusing
 * a move the real service accepts would break them. Going back (MONITORING → INVESTIGATING: "the
 * fix did not hold") is allowed too: forbidding it would push users to resolve and re-open, which
 * records a resolution that never happened. What is forbidden is a status outside the four — notably
 * MAINTENANCE, which belongs to the legacy `/v1/incidents` resource and must not leak in.
 */
export function incidentStatusMove(from: IncidentStatus | null, to: IncidentStatus): IncidentStatusMove {
  if (from === null) return 'open';
  if (from === 'RESOLVED') return to === 'RESOLVED' ? 'resolve-again' : 'reopen';
  const step = INCIDENT_STATUSES.indexOf(to) - INCIDENT_STATUSES.indexOf(from);
  if (step === 0) return 'same';
  if (step < 0) return 'back';
  return step === 1 ? 'forward' : 'skip';
}

/** True when `value` is one of the four incident update statuses. */
export function isIncidentStatus(value: unknown): value is IncidentStatus {
  return typeof value === 'string' && (INCIDENT_STATUSES as readonly string[]).includes(value);
}

/**
 * The issue for posting an update with status `to` on an incident whose status is `from` (null: no
 * update yet), or null when the move is allowed. A missing status (undefined or null) is allowed: the
 * update keeps the current status, since the real API marks an update's status optional.
 */
export function incidentStatusMoveIssue(from: IncidentStatus | null, to: unknown): Issue | null {
  if (to === undefined || to === null || isIncidentStatus(to)) return null;
  const legacy = to === 'MAINTENANCE' ? ' (MAINTENANCE belongs to the legacy /v1/incidents resource)' : '';
  const current = from === null ? '' : ` (the incident is ${from})`;
  return { key: 'status', message: `must be one of ${INCIDENT_STATUSES.join(', ')}${legacy}${current}` };
}

/** The parts of an incident update that decide the incident's status and duration. */
export interface IncidentUpdateTiming {
  /** Omitted or null: the update keeps the status before it (INVESTIGATING for a first update). */
  status?: IncidentStatus | null;
  publicIncidentUpdateDate: Date;
  /** Tie-breaker for equal public dates. */
  created_at?: Date | null;
}

export interface IncidentProgress {
  lastUpdateStatus: IncidentStatus;
  /** Whole seconds from the first update to the closing RESOLVED update; null while unresolved. */
  duration: number | null;
}

/**
 * Updates in timeline order: by `publicIncidentUpdateDate` (users backfill by editing it, so the
 * list order and `created_at` do not decide), then `created_at`, then the given order.
 */
export function orderIncidentUpdates<T extends IncidentUpdateTiming>(updates: readonly T[]): T[] {
  return updates
    .map((update, index) => ({ update, index }))
    .sort((a, b) =>
      a.update.publicIncidentUpdateDate.getTime() - b.update.publicIncidentUpdateDate.getTime()
      || (a.update.created_at?.getTime() ?? 0) - (b.update.created_at?.getTime() ?? 0)
      || a.index - b.index)
    .map(({ update }) => update);
}

/** Each update's effective status, in timeline order: a status-less update keeps the previous one. */
function effectiveStatuses(ordered: readonly IncidentUpdateTiming[]): IncidentStatus[] {
  const statuses: IncidentStatus[] = [];
  let current: IncidentStatus = 'INVESTIGATING';
  for (const update of ordered) {
    current = update.status ?? current;
    statuses.push(current);
  }
  return statuses;
}

/** Index of the RESOLVED update that closed the incident for good, or -1. */
function closingIndex(statuses: readonly IncidentStatus[]): number {
  if (statuses.at(-1) !== 'RESOLVED') return -1;
  // The first RESOLVED after the last open update: later RESOLVED updates do not extend the duration,
  // a re-opening and a new RESOLVED do (status-pages-reference.md §2).
  let index = statuses.length - 1;
  while (index > 0 && statuses[index - 1] === 'RESOLVED') index -= 1;
  // Only RESOLVED updates: "a single RESOLVED update gives history without duration".
  return index === 0 ? -1 : index;
}

/**
 * `lastUpdateStatus` and `duration` of an incident from its updates, in any order. With no updates
 * the incident counts as INVESTIGATING (the response field is required). Duration, in whole seconds
 * (rounded down), runs from the first update to the RESOLVED update that closed the incident:
 * - resolved once: first update → first RESOLVED;
 * - resolved, re-opened (any open status) and resolved again: first update → the final closing RESOLVED
 *   (10:00 open, 10:30 resolved, 11:00 re-opened, 11:30 resolved: 5400 s);
 * - a further RESOLVED without re-opening does not extend it;
 * - null while the latest update is not RESOLVED, and when every update is RESOLVED (a backfilled
 *   incident with a single RESOLVED update has history but no duration).
 */
export function incidentProgress(updates: readonly IncidentUpdateTiming[]): IncidentProgress {
  const ordered = orderIncidentUpdates(updates);
  const statuses = effectiveStatuses(ordered);
  const lastUpdateStatus = statuses.at(-1) ?? 'INVESTIGATING';
  const closing = closingIndex(statuses);
  if (closing < 0) return { lastUpdateStatus, duration: null };
  const ms = ordered[closing]!.publicIncidentUpdateDate.getTime() - ordered[0]!.publicIncidentUpdateDate.getTime();
  return { lastUpdateStatus, duration: Math.floor(ms / 1000) };
}

/**
 * What a status page shows as an incident's length at `now`, in whole seconds: the duration once
 * resolved, and for an ongoing incident "until now" (status-pages-reference.md §2). Null when there
 * is nothing to measure (no updates, or only RESOLVED ones). Never negative, even for a first update
 * dated after `now`.
 */
export function incidentElapsedSeconds(updates: readonly IncidentUpdateTiming[], now: Date): number | null {
  const progress = incidentProgress(updates);
  if (progress.lastUpdateStatus === 'RESOLVED' || updates.length === 0) return progress.duration;
  const first = orderIncidentUpdates(updates)[0]!.publicIncidentUpdateDate.getTime();
  return Math.max(0, Math.floor((now.getTime() - first) / 1000));
}
