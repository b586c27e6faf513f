import { describe, expect, it } from 'vitest';
import {
  MAINTENANCE_STATUSES, maintenanceStatusMove, maintenanceUpdateEditIssues, maintenanceUpdateOutcome, type MaintenanceStatus,
} from '../../src/domain/maintenance-status-moves.js';

const NOW = new Date('2030-06-01T12:00:00Z');
const at = (hhmm: string) => new Date(`2030-06-01T${hhmm}:00Z`);

/** A maintenance in `status` from `start` to `end` (times on NOW's day). */
const occurrence = (status: MaintenanceStatus, start: string, end: string) => ({ status, startsAt: at(start), endsAt: at(end) });

describe('maintenanceStatusMove', () => {
  it.each([
    ['SCHEDULED', 'SCHEDULED', 'note'], ['SCHEDULED', 'IN_PROGRESS', 'start'], ['SCHEDULED', 'VERIFYING', null],
    ['SCHEDULED', 'COMPLETED', 'complete'], ['SCHEDULED', 'CANCELLED', 'cancel'],
    ['IN_PROGRESS', 'SCHEDULED', null], ['IN_PROGRESS', 'IN_PROGRESS', 'note'], ['IN_PROGRESS', 'VERIFYING', 'verify'],
    ['IN_PROGRESS', 'COMPLETED', 'complete'], ['IN_PROGRESS', 'CANCELLED', 'cancel'],
    ['VERIFYING', 'SCHEDULED', null], ['VERIFYING', 'IN_PROGRESS', 'resume'], ['VERIFYING', 'VERIFYING', 'note'],
    ['VERIFYING', 'COMPLETED', 'complete'], ['VERIFYING', 'CANCELLED', 'cancel'],
    ['COMPLETED', 'SCHEDULED', null], ['COMPLETED', 'IN_PROGRESS', 'reopen'], ['COMPLETED', 'VERIFYING', null],
    ['COMPLETED', 'COMPLETED', 'note'], ['COMPLETED', 'CANCELLED', null],
    ['CANCELLED', 'SCHEDULED', 'restore'], ['CANCELLED', 'IN_PROGRESS', 'reopen'], ['CANCELLED', 'VERIFYING', null],
    ['CANCELLED', 'COMPLETED', null], ['CANCELLED', 'CANCELLED', 'note'],
  ] as const)('from %s to %s is %s (null: refused)', (from, to, move) => {
    expect(maintenanceStatusMove(from, to)).toBe(move);
  });

  it('covers every pair of statuses', () => {
    for (const from of MAINTENANCE_STATUSES) for (const to of MAINTENANCE_STATUSES) expect(() => maintenanceStatusMove(from, to)).not.toThrow();
  });
});

describe('maintenanceUpdateOutcome', () => {
  it('moves the start to now when a maintenance is started before its planned start', () => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('SCHEDULED', '13:00', '14:00'), { status: 'IN_PROGRESS' }, NOW);
    expect(outcome).toEqual({ move: 'start', startsAt: NOW, endsAt: at('14:00'), datesChanged: true });
  });

  it('keeps the dates when a maintenance is started after its planned start', () => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('SCHEDULED', '11:00', '14:00'), { status: 'IN_PROGRESS' }, NOW);
    expect(outcome).toEqual({ move: 'start', startsAt: at('11:00'), endsAt: at('14:00'), datesChanged: false });
  });

  it.each(['COMPLETED', 'CANCELLED'] as const)('moves the end to now when a running maintenance becomes %s before its planned end', (status) => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('VERIFYING', '11:00', '14:00'), { status }, NOW);
    expect(outcome).toMatchObject({ startsAt: at('11:00'), endsAt: NOW, datesChanged: true });
  });

  it('keeps the dates when a scheduled maintenance is cancelled before it starts', () => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('SCHEDULED', '13:00', '14:00'), { status: 'CANCELLED' }, NOW);
    expect(outcome).toMatchObject({ move: 'cancel', startsAt: at('13:00'), endsAt: at('14:00'), datesChanged: false });
  });

  it('extends the end of a reopened maintenance whose end has passed by its length, from now', () => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('COMPLETED', '10:00', '11:30'), { status: 'IN_PROGRESS' }, NOW);
    expect(outcome).toEqual({ move: 'reopen', startsAt: at('10:00'), endsAt: at('13:30'), datesChanged: true });
  });

  it('keeps the end of a reopened maintenance whose end is still ahead', () => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('CANCELLED', '11:00', '13:00'), { status: 'IN_PROGRESS' }, NOW);
    expect(outcome).toMatchObject({ move: 'reopen', endsAt: at('13:00'), datesChanged: false });
  });

  it('lets dates sent win over the dates a move implies', () => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('COMPLETED', '10:00', '11:00'), { status: 'IN_PROGRESS', endsAt: at('18:00') }, NOW);
    expect(outcome).toMatchObject({ endsAt: at('18:00'), datesChanged: true });
    const started = maintenanceUpdateOutcome(occurrence('SCHEDULED', '13:00', '14:00'), { status: 'IN_PROGRESS', startsAt: at('12:30') }, NOW).outcome;
    expect(started).toMatchObject({ startsAt: at('12:30') });
  });

  it('restores a cancelled maintenance whose start is still ahead', () => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('CANCELLED', '13:00', '14:00'), { status: 'SCHEDULED' }, NOW);
    expect(outcome).toMatchObject({ move: 'restore', datesChanged: false });
  });

  it.each([
    ['SCHEDULED after COMPLETED', occurrence('COMPLETED', '10:00', '11:00'), { status: 'SCHEDULED' }, 'status'],
    ['SCHEDULED after a start', occurrence('IN_PROGRESS', '10:00', '13:00'), { status: 'SCHEDULED' }, 'status'],
    ['VERIFYING before any start', occurrence('SCHEDULED', '13:00', '14:00'), { status: 'VERIFYING' }, 'status'],
    ['CANCELLED after COMPLETED', occurrence('COMPLETED', '10:00', '11:00'), { status: 'CANCELLED' }, 'status'],
    ['COMPLETED after CANCELLED', occurrence('CANCELLED', '10:00', '11:00'), { status: 'COMPLETED' }, 'status'],
    ['COMPLETED before the start is due', occurrence('SCHEDULED', '13:00', '14:00'), { status: 'COMPLETED' }, 'status'],
    ['SCHEDULED again after the cancelled start passed', occurrence('CANCELLED', '11:00', '13:00'), { status: 'SCHEDULED' }, 'status'],
    ['an end sent before the start', occurrence('SCHEDULED', '13:00', '14:00'), { status: 'SCHEDULED', endsAt: at('12:59') }, 'endsAt'],
    ['a start sent after the end', occurrence('SCHEDULED', '13:00', '14:00'), { status: 'SCHEDULED', startsAt: at('14:00') }, 'startsAt'],
  ] as const)('refuses %s, naming %s', (_what, current, request, key) => {
    const { issues, outcome } = maintenanceUpdateOutcome(current, request, NOW);
    expect(outcome).toBeUndefined();
    expect(issues.map((i) => i.key)).toEqual([key]);
  });

  it('allows completing a SCHEDULED maintenance whose start is due, keeping its dates', () => {
    const { outcome } = maintenanceUpdateOutcome(occurrence('SCHEDULED', '10:00', '11:00'), { status: 'COMPLETED' }, NOW);
    expect(outcome).toMatchObject({ move: 'complete', startsAt: at('10:00'), endsAt: at('11:00'), datesChanged: false });
  });
});

describe('maintenanceUpdateEditIssues', () => {
  const times = { startsAt: at('10:00'), endsAt: at('13:00') };

  it('accepts any edit that keeps the status, on any update', () => {
    expect(maintenanceUpdateEditIssues({ previous: 'SCHEDULED', stored: 'IN_PROGRESS', to: 'IN_PROGRESS', isLatest: false }, times, NOW)).toEqual([]);
  });

  it('accepts a new status on the latest update when the move from the status before it is allowed', () => {
    expect(maintenanceUpdateEditIssues({ previous: 'IN_PROGRESS', stored: 'COMPLETED', to: 'CANCELLED', isLatest: true }, times, NOW)).toEqual([]);
  });

  it('refuses a new status on an update that is not the latest', () => {
    const issues = maintenanceUpdateEditIssues({ previous: 'SCHEDULED', stored: 'IN_PROGRESS', to: 'CANCELLED', isLatest: false }, times, NOW);
    expect(issues.map((i) => i.key)).toEqual(['status']);
  });

  it('refuses a new status the status before the update cannot move to', () => {
    const issues = maintenanceUpdateEditIssues({ previous: 'SCHEDULED', stored: 'IN_PROGRESS', to: 'VERIFYING', isLatest: true }, times, NOW);
    expect(issues.map((i) => i.key)).toEqual(['status']);
  });
});
