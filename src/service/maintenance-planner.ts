import { randomUUID } from 'node:crypto';
import type { Issue } from '../domain/lookout-error.js';
import type { MaintenanceSchedule } from '../domain/maintenance-occurrences.js';
import { isRollingPlan, planHorizon, plannedOccurrences, replanOccurrences } from '../domain/maintenance-plan.js';
import type { MaintenanceStatus } from '../domain/maintenance-status-moves.js';
import type { MaintenanceWindowRow } from '../store/maintenance-windows-repository.js';
import type { Repositories } from '../store/repositories.js';

/** The scheduling fields of a stored window, as the occurrence rules read them. */
export function scheduleOf(row: Pick<MaintenanceWindowRow, 'starts_at' | 'ends_at' | 'repeat_unit' | 'repeat_interval' | 'repeat_ends_at' | 'timezone'>): MaintenanceSchedule {
  return {
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    repeatUnit: row.repeat_unit,
    repeatInterval: row.repeat_interval,
    repeatEndsAt: row.repeat_ends_at,
    timezone: row.timezone,
  };
}

/** The issues of planning `schedule` at `now` (too many occurrences): checked before anything is written. */
export function planIssues(schedule: MaintenanceSchedule, now: Date): Issue[] {
  return plannedOccurrences(schedule, now).issues;
}

/**
 * Brings a window's stored maintenances in line with its schedule at `now` (the caller holds the
 * window locked and has checked planIssues): plans the occurrences that have not ended, through
 * repeatEndsAt or the rolling horizon; moves or removes only the replannable ones (SCHEDULED, in
 * the future, dates never set by hand); adds missing numbers except deleted ones. Answers whether
 * any maintenance changed. Idempotent: run again with the same schedule, it only extends a rolling
 * plan (which is how the clock extends it).
 */
export async function planWindow(tx: Repositories, window: MaintenanceWindowRow, now: Date): Promise<boolean> {
  const schedule = scheduleOf(window);
  const { occurrences } = plannedOccurrences(schedule, now);
  const stored = await tx.maintenanceOccurrences.allOf(window.id);
  const changes = replanOccurrences(
    stored.map((o) => ({ id: o.id, index: o.occurrence, startsAt: o.starts_at, endsAt: o.ends_at, status: o.status as MaintenanceStatus, dateAdjusted: o.date_adjusted })),
    occurrences,
    new Set(window.skipped_occurrences),
    now,
  );
  await tx.maintenanceOccurrences.removeMany(changes.remove);
  await tx.maintenanceOccurrences.movePlanned(changes.move);
  const added = await tx.maintenanceOccurrences.insertMany(
    window.account_id, window.id, changes.insert.map((o) => ({ id: randomUUID(), occurrence: o.index, startsAt: o.startsAt, endsAt: o.endsAt })),
  );
  await tx.maintenanceWindows.setPlannedUntil(window.id, isRollingPlan(schedule) ? planHorizon(now) : null);
  return changes.remove.length + changes.move.length + added > 0;
}
