import { LookoutError } from './lookout-error.js';

/**
 * Why a heartbeat check cannot be run on demand (409): it has nothing to run, it passes when its job
 * pings `/ping/{token}`. `attributes.reason` is the stable code HEARTBEAT_NOT_RUNNABLE.
 */
export function heartbeatNotRunnable(checkId: string, name?: string): LookoutError {
  const which = name ? `"${name}" (${checkId})` : checkId;
  return new LookoutError('CONFLICT', `Heartbeat check ${which} cannot be run now: it has nothing to run, it passes when its job pings /ping/{token}`, {
    attributes: { reason: 'HEARTBEAT_NOT_RUNNABLE', checkId },
  });
}
