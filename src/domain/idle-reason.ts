import { effectiveLocations, type Placement } from './effective-locations.js';

/** Why an accepted check never runs: shown as `idle` on its status, and the cause of a refused "run now". */
export interface IdleReason {
  code: 'NO_LOCATIONS';
  message: string;
}

/** What the idle rule reads of a check. */
export interface IdleSubject extends Placement {
  checkType: string;
  groupId?: number | null;
}

/**
 * Why a check has nowhere to run, or null when it can run. A check runs in its effective
 * locations (effectiveLocations): with neither data-center nor private locations, its own or its
 * group's, it is idle. Heartbeat checks are never idle: they are not run anywhere, pings decide.
 */
export function idleReason(check: IdleSubject, group: Placement | null | undefined): IdleReason | null {
  if (check.checkType === 'HEARTBEAT') return null;
  const { locations, privateLocations } = effectiveLocations(check, group);
  if (locations.length > 0 || privateLocations.length > 0) return null;
  const where = check.groupId != null
    ? `neither the check nor its group ${check.groupId} names a location or private location`
    : 'the check names no location or private location';
  return { code: 'NO_LOCATIONS', message: `Nowhere to run: ${where}. Add locations to the check${check.groupId != null ? ' or its group' : ''}.` };
}
