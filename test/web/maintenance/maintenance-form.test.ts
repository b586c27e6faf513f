import { describe, expect, it } from 'vitest';
import { describeRepeat, EMPTY_MAINTENANCE_FORM, maintenanceFormValues, maintenanceInput, utcInstant, utcLocal } from '../../../web/src/maintenance/maintenance-form.js';

describe('the maintenance window form', () => {
  it('reads datetime-local values as UTC instants and back', () => {
    expect(utcInstant('2026-12-01T02:30')).toBe('2026-12-01T02:30:00.000Z');
    expect(utcInstant('')).toBeNull();
    expect(utcInstant('tomorrow')).toBeNull();
    expect(utcLocal('2026-12-01T02:30:00.000Z')).toBe('2026-12-01T02:30');
  });

  it('sends a one-off window with repeatUnit null and tags parsed', () => {
    expect(maintenanceInput({ ...EMPTY_MAINTENANCE_FORM, name: ' DB upgrade ', startsAt: '2026-12-01T02:00', endsAt: '2026-12-01T03:00', tags: 'db, prod' })).toEqual({
      name: 'DB upgrade', startsAt: '2026-12-01T02:00:00.000Z', endsAt: '2026-12-01T03:00:00.000Z', timezone: 'UTC',
      repeatUnit: null, repeatInterval: null, tags: ['db', 'prod'], description: null, pauseAllChecks: false, silenceAllAlerts: false,
    });
  });

  it('does not silence every alert unless asked: a new window affects only the checks its tags name', () => {
    expect(EMPTY_MAINTENANCE_FORM.silenceAllAlerts).toBe(false);
    expect(EMPTY_MAINTENANCE_FORM.pauseAllChecks).toBe(false);
  });

  it('sends a series with its interval; a non-number as null for the API to name', () => {
    expect(maintenanceInput({ ...EMPTY_MAINTENANCE_FORM, repeatUnit: 'WEEK', repeatInterval: '2' })).toMatchObject({ repeatUnit: 'WEEK', repeatInterval: 2 });
    expect(maintenanceInput({ ...EMPTY_MAINTENANCE_FORM, repeatUnit: 'DAY', repeatInterval: 'often' })).toMatchObject({ repeatUnit: 'DAY', repeatInterval: null });
  });

  it('reads a stored window back into the form and says how it repeats', () => {
    const stored = { name: 'W', startsAt: '2026-12-01T02:00:00Z', endsAt: '2026-12-01T03:00:00Z', timezone: 'Europe/Berlin', repeatUnit: 'MONTH' as const, repeatInterval: 3, tags: ['a'], description: null, pauseAllChecks: true, silenceAllAlerts: false };
    expect(maintenanceFormValues(stored)).toEqual({
      name: 'W', startsAt: '2026-12-01T02:00', endsAt: '2026-12-01T03:00', timezone: 'Europe/Berlin', repeatUnit: 'MONTH', repeatInterval: '3', tags: 'a', description: '', pauseAllChecks: true, silenceAllAlerts: false,
    });
    expect(describeRepeat(stored)).toBe('every 3 months');
    expect(describeRepeat({ repeatUnit: 'DAY', repeatInterval: 1 })).toBe('every day');
    expect(describeRepeat({})).toBe('once');
  });
});
