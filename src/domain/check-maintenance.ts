import { checkTagSet, coversCheck, pausesCheck, type WindowReach } from './maintenance-effects.js';

/** One maintenance of a window, as the check's maintenance state reads it. */
export interface WindowMaintenance {
  id: string;
  /** SCHEDULED, IN_PROGRESS, VERIFYING, COMPLETED or CANCELLED (maintenance-status-moves.ts). */
  status: string;
  startsAt: Date;
  endsAt: Date;
}

/** A maintenance window with what it covers and its maintenances going on or still to come. */
export interface CoveringWindow extends WindowReach {
  windowId: number;
  windowName: string;
  maintenances: readonly WindowMaintenance[];
}

/** A check's maintenance: one going on (until its end), or else the next one planned. */
export interface CheckMaintenance {
  state: 'IN_PROGRESS' | 'SCHEDULED';
  windowId: number;
  windowName: string;
  maintenanceId: string;
  startsAt: Date;
  endsAt: Date;
  /** The check does not run during it (else only its alerts are silenced). */
  paused: boolean;
}

const GOING = new Set(['IN_PROGRESS', 'VERIFYING']);

/**
 * The maintenance of a check with `checkTags` among `windows`, by the rules alerting and the
 * scheduler apply (maintenance-effects.ts): of the covering windows' maintenances in progress, the
 * one ending last, paused when any of them pauses the check; otherwise the scheduled one starting
 * soonest that has not ended at `now`; null when a covering window has neither.
 */
export function checkMaintenance(windows: readonly CoveringWindow[], checkTags: readonly string[], now: Date): CheckMaintenance | null {
  const tags = checkTagSet(checkTags);
  const covering = windows.filter((w) => coversCheck(w, tags));
  const of = (w: CoveringWindow, m: WindowMaintenance, state: CheckMaintenance['state']): CheckMaintenance => ({
    state, windowId: w.windowId, windowName: w.windowName, maintenanceId: m.id, startsAt: m.startsAt, endsAt: m.endsAt, paused: pausesCheck(w, tags),
  });
  const going = covering.flatMap((w) => w.maintenances.filter((m) => GOING.has(m.status) && m.startsAt <= now).map((m) => of(w, m, 'IN_PROGRESS')));
  if (going.length) {
    const last = going.reduce((a, b) => (b.endsAt > a.endsAt ? b : a));
    return { ...last, paused: going.some((g) => g.paused) };
  }
  const planned = covering.flatMap((w) => w.maintenances.filter((m) => m.status === 'SCHEDULED' && m.endsAt > now).map((m) => of(w, m, 'SCHEDULED')));
  return planned.length ? planned.reduce((a, b) => (b.startsAt < a.startsAt ? b : a)) : null;
}

/** A stretch of time a check was (or is) in maintenance; `end` is `now` for one still going on. */
export interface MaintenanceSpan {
  start: Date;
  end: Date;
  /** Still going on (in progress or verifying). */
  ongoing: boolean;
}

const RAN = new Set(['IN_PROGRESS', 'VERIFYING', 'COMPLETED']);

/**
 * When a check with `checkTags` was in maintenance, by the same coverage rules: the maintenances of
 * the covering windows that ran (in progress, verifying or completed; a cancelled one may never have
 * started), each from its start to its end, or to `now` while it goes on.
 */
export function checkMaintenanceSpans(windows: readonly CoveringWindow[], checkTags: readonly string[], now: Date): MaintenanceSpan[] {
  const tags = checkTagSet(checkTags);
  return windows.filter((w) => coversCheck(w, tags)).flatMap((w) => w.maintenances
    .filter((m) => RAN.has(m.status) && m.startsAt <= now)
    .map((m) => ({ start: m.startsAt, end: GOING.has(m.status) || m.endsAt > now ? now : m.endsAt, ongoing: GOING.has(m.status) })));
}
