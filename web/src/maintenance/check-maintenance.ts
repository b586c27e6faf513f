import { windowState, utcMinute, type MaintenanceLike } from './window-state.js';

/** A maintenance window as the checks pages read it: what it covers and its next maintenances. */
export interface CoveringWindowLike {
  id: string;
  name: string;
  tags: readonly string[];
  pauseAllChecks: boolean;
  silenceAlertsTags: readonly string[];
  silenceAllAlerts: boolean;
  upcomingMaintenances: readonly MaintenanceLike[];
}

/** A check's maintenance: one going on (until when), or the next one planned. */
export type CheckMaintenance =
  | { kind: 'IN_PROGRESS'; windowId: string; windowName: string; until: string; paused: boolean }
  | { kind: 'SCHEDULED'; windowId: string; windowName: string; startsAt: string; endsAt: string };

const shares = (a: readonly string[], tags: ReadonlySet<string>) => a.some((t) => tags.has(t.toLowerCase()));

/**
 * Whether a window covers a check with `checkTags`, by the server's rule (src/domain/maintenance-effects.ts;
 * a test holds the two together): one of its tags or silenceAlertsTags is the check's (without case),
 * or it silences every alert, or it pauses checks (every check when it has no tags).
 */
export function coversCheck(window: Omit<CoveringWindowLike, 'id' | 'name' | 'upcomingMaintenances'>, checkTags: readonly string[]): boolean {
  const tags = new Set(checkTags.map((t) => t.toLowerCase()));
  return shares(window.tags, tags) || shares(window.silenceAlertsTags, tags) || window.silenceAllAlerts || window.pauseAllChecks;
}

/** Whether the window pauses (not only silences) a check with these tags. */
function pauses(window: CoveringWindowLike, checkTags: readonly string[]): boolean {
  const tags = new Set(checkTags.map((t) => t.toLowerCase()));
  return window.pauseAllChecks && (window.tags.length === 0 || shares(window.tags, tags));
}

/**
 * The maintenance of a check: of the windows covering it, one in progress (the one ending last) wins;
 * otherwise the soonest scheduled; null when no covering window has either.
 */
export function checkMaintenance(windows: readonly CoveringWindowLike[], checkTags: readonly string[]): CheckMaintenance | null {
  const covering = windows.filter((w) => coversCheck(w, checkTags)).map((w) => ({ window: w, state: windowState(w.upcomingMaintenances) }));
  const going = covering.flatMap(({ window, state }) => (state.kind === 'IN_PROGRESS' ? [{ window, m: state.maintenance }] : []));
  if (going.length) {
    const last = going.reduce((a, b) => (b.m.endsAt > a.m.endsAt ? b : a));
    const paused = going.some(({ window }) => pauses(window, checkTags));
    return { kind: 'IN_PROGRESS', windowId: last.window.id, windowName: last.window.name, until: last.m.endsAt, paused };
  }
  const planned = covering.flatMap(({ window, state }) => (state.kind === 'SCHEDULED' ? [{ window, m: state.maintenance }] : []));
  if (!planned.length) return null;
  const soonest = planned.reduce((a, b) => (b.m.startsAt < a.m.startsAt ? b : a));
  return { kind: 'SCHEDULED', windowId: soonest.window.id, windowName: soonest.window.name, startsAt: soonest.m.startsAt, endsAt: soonest.m.endsAt };
}

/** A check's maintenance in words: "In maintenance until …" or "Next maintenance …". */
export function describeCheckMaintenance(m: CheckMaintenance): string {
  return m.kind === 'IN_PROGRESS'
    ? `In maintenance until ${utcMinute(m.until)}${m.paused ? ' (paused)' : ' (alerts silenced)'}`
    : `Next maintenance ${utcMinute(m.startsAt)} – ${utcMinute(m.endsAt)}`;
}
