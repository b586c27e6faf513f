import { describe, expect, it } from 'vitest';
import { checkMaintenance, checkMaintenanceSpans, type CoveringWindow } from '../../src/domain/check-maintenance.js';

const now = new Date('2026-12-01T03:00:00Z');
const window = (over: Partial<CoveringWindow>): CoveringWindow => ({
  windowId: 1, windowName: 'DB upgrade', tags: [], pauseAllChecks: false, silenceAlertsTags: [], silenceAllAlerts: false, maintenances: [], ...over,
});
const going = { id: 'm1', status: 'IN_PROGRESS', startsAt: new Date('2026-12-01T02:00:00Z'), endsAt: new Date('2026-12-01T04:00:00Z') };
const planned = { id: 'm2', status: 'SCHEDULED', startsAt: new Date('2026-12-05T02:00:00Z'), endsAt: new Date('2026-12-05T03:00:00Z') };

describe('a check\'s maintenance', () => {
  it('is the one in progress of a window covering the check by its tags (without case), silencing it or pausing it', () => {
    expect(checkMaintenance([window({ tags: ['DB'], maintenances: [going, planned] })], ['db'], now))
      .toEqual({ state: 'IN_PROGRESS', windowId: 1, windowName: 'DB upgrade', maintenanceId: 'm1', startsAt: going.startsAt, endsAt: going.endsAt, paused: false });
    expect(checkMaintenance([window({ pauseAllChecks: true, maintenances: [going] })], ['web'], now)).toMatchObject({ state: 'IN_PROGRESS', paused: true });
    expect(checkMaintenance([window({ pauseAllChecks: true, tags: ['db'], maintenances: [going] })], ['web'], now)).toMatchObject({ state: 'IN_PROGRESS', paused: false });
    expect(checkMaintenance([window({ silenceAlertsTags: ['web'], maintenances: [{ ...going, status: 'VERIFYING' }] })], ['web'], now)).toMatchObject({ state: 'IN_PROGRESS' });
  });

  it('is the soonest scheduled one when none is going on, and null for windows that do not cover the check or have nothing left', () => {
    const later = { ...planned, id: 'm3', startsAt: new Date('2026-12-09T02:00:00Z'), endsAt: new Date('2026-12-09T03:00:00Z') };
    expect(checkMaintenance([window({ windowId: 2, silenceAllAlerts: true, maintenances: [later] }), window({ silenceAlertsTags: ['db'], maintenances: [planned] })], ['db'], now))
      .toMatchObject({ state: 'SCHEDULED', windowId: 1, maintenanceId: 'm2' });
    expect(checkMaintenance([window({ tags: ['db'], maintenances: [going] })], ['web'], now)).toBeNull();
    expect(checkMaintenance([window({ tags: ['db'] })], ['db'], now)).toBeNull();
    const ended = { ...planned, startsAt: new Date('2026-11-30T01:00:00Z'), endsAt: new Date('2026-11-30T02:00:00Z') };
    expect(checkMaintenance([window({ tags: ['db'], maintenances: [ended, { ...going, status: 'COMPLETED' }] })], ['db'], now)).toBeNull();
  });

  it('prefers any window in progress to a sooner scheduled one, names the one ending last, and is paused when any in progress pauses', () => {
    const endingLater = { ...going, id: 'm4', endsAt: new Date('2026-12-01T09:00:00Z') };
    const windows = [
      window({ windowId: 1, pauseAllChecks: true, maintenances: [going] }),
      window({ windowId: 2, silenceAllAlerts: true, maintenances: [endingLater] }),
      window({ windowId: 3, tags: ['db'], maintenances: [{ ...planned, startsAt: new Date('2026-12-01T03:30:00Z') }] }),
    ];
    expect(checkMaintenance(windows, ['db'], now)).toMatchObject({ state: 'IN_PROGRESS', windowId: 2, maintenanceId: 'm4', paused: true });
  });

  it('does not count an IN_PROGRESS maintenance whose start is still ahead as going on', () => {
    const early = { ...going, startsAt: new Date('2026-12-01T05:00:00Z'), endsAt: new Date('2026-12-01T06:00:00Z') };
    expect(checkMaintenance([window({ tags: ['db'], maintenances: [early] })], ['db'], now)).toBeNull();
  });
});

describe('when a check was in maintenance', () => {
  it('spans the covering windows\' maintenances that ran, to now for one going on, leaving out scheduled and cancelled ones', () => {
    const done = { id: 'd', status: 'COMPLETED', startsAt: new Date('2026-11-30T01:00:00Z'), endsAt: new Date('2026-11-30T02:00:00Z') };
    const cancelled = { ...done, id: 'c', status: 'CANCELLED' };
    const spans = checkMaintenanceSpans([window({ tags: ['db'], maintenances: [done, cancelled, going, planned] }), window({ tags: ['web'], maintenances: [done] })], ['DB'], now);
    expect(spans).toEqual([
      { start: done.startsAt, end: done.endsAt, ongoing: false },
      { start: going.startsAt, end: now, ongoing: true },
    ]);
  });
});
