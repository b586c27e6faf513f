import { describe, expect, it } from 'vitest';
import { maintenanceEffects } from '../../../src/domain/maintenance-effects.js';
import { checkMaintenance, coversCheck, describeCheckMaintenance, type CoveringWindowLike } from '../../../web/src/maintenance/check-maintenance.js';

const window = (over: Partial<CoveringWindowLike>): CoveringWindowLike => ({
  id: 'w1', name: 'DB upgrade', tags: [], pauseAllChecks: false, silenceAlertsTags: [], silenceAllAlerts: false, upcomingMaintenances: [], ...over,
});
const going = { id: 'm1', status: 'IN_PROGRESS' as const, startsAt: '2026-12-01T02:00:00Z', endsAt: '2026-12-01T04:00:00Z' };
const planned = { id: 'm2', status: 'SCHEDULED' as const, startsAt: '2026-12-05T02:00:00Z', endsAt: '2026-12-05T03:00:00Z' };

describe('a check\'s maintenance in the console', () => {
  it('covers a check by the server\'s rule (maintenance-effects), for every mix of settings', () => {
    const tagSets = [[], ['db'], ['web']];
    for (const tags of tagSets) {
      for (const silenceAlertsTags of tagSets) {
        for (const silenceAllAlerts of [false, true]) {
          for (const pauseAllChecks of [false, true]) {
            for (const checkTags of [[], ['DB'], ['web', 'x']]) {
              const w = { tags, silenceAlertsTags, silenceAllAlerts, pauseAllChecks };
              const server = maintenanceEffects([{ windowId: 1, maintenanceId: 'm', suppressAutoIncidents: false, ...w }], checkTags).windowIds.length > 0;
              expect(coversCheck(w, checkTags), JSON.stringify({ w, checkTags })).toBe(server);
            }
          }
        }
      }
    }
  });

  it('says "In maintenance until …" while a covering window is in progress, paused or silenced', () => {
    const silencing = checkMaintenance([window({ tags: ['db'], upcomingMaintenances: [going, planned] })], ['db']);
    expect(silencing).toMatchObject({ kind: 'IN_PROGRESS', windowId: 'w1', until: going.endsAt, paused: false });
    expect(describeCheckMaintenance(silencing!)).toBe('In maintenance until 2026-12-01 04:00 UTC (alerts silenced)');
    const pausing = checkMaintenance([window({ pauseAllChecks: true, upcomingMaintenances: [going] })], ['web']);
    expect(describeCheckMaintenance(pausing!)).toBe('In maintenance until 2026-12-01 04:00 UTC (paused)');
  });

  it('names the next maintenance when none is going on, and nothing for windows that do not cover the check', () => {
    const next = checkMaintenance([window({ silenceAlertsTags: ['db'], upcomingMaintenances: [planned] })], ['db']);
    expect(describeCheckMaintenance(next!)).toBe('Next maintenance 2026-12-05 02:00 UTC – 2026-12-05 03:00 UTC');
    expect(checkMaintenance([window({ tags: ['db'], upcomingMaintenances: [going] })], ['web'])).toBeNull();
    expect(checkMaintenance([window({ tags: ['db'] })], ['db'])).toBeNull();
  });

  it('prefers a window in progress over a sooner scheduled one', () => {
    const windows = [window({ id: 'soon', silenceAllAlerts: true, upcomingMaintenances: [planned] }), window({ id: 'now', tags: ['db'], upcomingMaintenances: [going] })];
    expect(checkMaintenance(windows, ['db'])).toMatchObject({ kind: 'IN_PROGRESS', windowId: 'now' });
  });
});
