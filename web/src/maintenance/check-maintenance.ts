import { utcMinute } from './window-state.js';

/**
 * A check's maintenance as the API answers it (`Check.maintenance`): the server applies the rules
 * alerting and the scheduler use (src/domain/check-maintenance.ts), over all of the account's windows.
 */
export interface CheckMaintenance {
  state: 'IN_PROGRESS' | 'SCHEDULED';
  windowId: string;
  windowName: string;
  startsAt: string;
  endsAt: string;
  paused: boolean;
}

/** A check's maintenance in words: "In maintenance until …" or "Next maintenance …". */
export function describeCheckMaintenance(m: CheckMaintenance): string {
  return m.state === 'IN_PROGRESS'
    ? `In maintenance until ${utcMinute(m.endsAt)}${m.paused ? ' (paused)' : ' (alerts silenced)'}`
    : `Next maintenance ${utcMinute(m.startsAt)} – ${utcMinute(m.endsAt)}`;
}
