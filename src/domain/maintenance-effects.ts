/** A maintenance in progress (IN_PROGRESS or VERIFYING), with what its window does to checks. */
export interface ActiveMaintenance {
  windowId: number;
  maintenanceId: string;
  tags: readonly string[];
  pauseAllChecks: boolean;
  silenceAlertsTags: readonly string[];
  silenceAllAlerts: boolean;
  suppressAutoIncidents: boolean;
}

/** What the maintenances in progress do to one check. */
export interface MaintenanceEffects {
  /** The check does not run. */
  paused: boolean;
  /** The check raises no alerts (its alert state still moves, as for a muted check). */
  silenced: boolean;
  /** Its triggerIncident opens and resolves nothing. */
  suppressAutoIncidents: boolean;
  /** The windows that cover the check, in the order given. */
  windowIds: number[];
}

const NONE: MaintenanceEffects = Object.freeze({ paused: false, silenced: false, suppressAutoIncidents: false, windowIds: [] as number[] }) as MaintenanceEffects;

const shares = (a: readonly string[], b: ReadonlySet<string>) => a.some((t) => b.has(t.toLowerCase()));

/** What of a window decides which checks it covers and pauses. */
export type WindowReach = Pick<ActiveMaintenance, 'tags' | 'pauseAllChecks' | 'silenceAlertsTags' | 'silenceAllAlerts'>;

/** The check tags as the rules compare them (without case). */
export const checkTagSet = (checkTags: readonly string[]): ReadonlySet<string> => new Set(checkTags.map((t) => t.toLowerCase()));

/** Whether the window pauses a check with these tags: `pauseAllChecks`, and no tags or one of the check's. */
export function pausesCheck(w: WindowReach, tags: ReadonlySet<string>): boolean {
  return w.pauseAllChecks && (w.tags.length === 0 || shares(w.tags, tags));
}

/** Whether the window covers (silences, maybe pauses) a check with these tags, by the rules of `maintenanceEffects`. */
export function coversCheck(w: WindowReach, tags: ReadonlySet<string>): boolean {
  return shares(w.tags, tags) || w.pauseAllChecks || w.silenceAllAlerts || shares(w.silenceAlertsTags, tags);
}

/**
 * The rules, per window in progress, for a check with `checkTags` (compared without case):
 * - it covers the check when one of its `tags` is the check's, when one of `silenceAlertsTags` is,
 *   or when `silenceAllAlerts` or `pauseAllChecks` is set;
 * - a covered check's alerts are silenced;
 * - `pauseAllChecks` pauses the checks its `tags` select, or every check when it has no tags;
 * - `suppressAutoIncidents` (statusPageVisibility) stops incident automation of the checks it covers.
 * Several windows add up: any one of them pausing or silencing a check is enough.
 */
export function maintenanceEffects(windows: readonly ActiveMaintenance[], checkTags: readonly string[]): MaintenanceEffects {
  if (windows.length === 0) return NONE;
  const tags = checkTagSet(checkTags);
  const effects: MaintenanceEffects = { paused: false, silenced: false, suppressAutoIncidents: false, windowIds: [] };
  for (const w of windows) {
    if (!coversCheck(w, tags)) continue;
    effects.windowIds.push(w.windowId);
    effects.silenced = true;
    effects.paused ||= pausesCheck(w, tags);
    effects.suppressAutoIncidents ||= w.suppressAutoIncidents;
  }
  return effects.windowIds.length ? effects : NONE;
}
