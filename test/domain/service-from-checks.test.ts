import { describe, expect, it } from 'vitest';
import { dailyUptime } from '../../src/domain/daily-uptime.js';
import { publicStatusPage, serviceResultHours } from '../../src/domain/public-status-page.js';
import { checksState, serviceState } from '../../src/domain/service-state.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date(Date.UTC(2026, 10, 29, 12, 0, 0));
const today = Date.UTC(2026, 10, 29);

describe('a status page service built from checks', () => {
  it('is in major outage when every check that ran fails, partial when some do, degraded when one is', () => {
    expect(checksState(['FAILING', 'FAILING', null])).toBe('MAJOR_OUTAGE');
    expect(checksState(['FAILING', 'PASSING'])).toBe('PARTIAL_OUTAGE');
    expect(checksState(['DEGRADED', 'PASSING'])).toBe('DEGRADED');
    expect(checksState(['PASSING', null])).toBe('OPERATIONAL');
    expect(checksState([null])).toBe('OPERATIONAL');
  });

  it('takes the worse of its incidents and its checks, and shows maintenance instead of failing checks', () => {
    expect(serviceState([{ severity: 'MINOR', lastUpdateStatus: 'INVESTIGATING' }], [], ['FAILING'])).toBe('MAJOR_OUTAGE');
    expect(serviceState([{ severity: 'CRITICAL', lastUpdateStatus: 'INVESTIGATING' }], [], ['PASSING'])).toBe('MAJOR_OUTAGE');
    expect(serviceState([], [{ status: 'IN_PROGRESS' }], ['FAILING'])).toBe('UNDER_MAINTENANCE');
  });

  it('weighs each check that ran in an hour the same', () => {
    const hours = serviceResultHours([
      { health: 'FAILING', createdAt: new Date(0), hours: [{ start: today, finalCount: 60, failureCount: 60, degradedCount: 0 }] },
      { health: 'PASSING', createdAt: new Date(0), hours: [{ start: today, finalCount: 1, failureCount: 0, degradedCount: 1 }] },
    ]);
    expect(hours).toEqual([{ start: today, failureShare: 0.5, degradedShare: 0.5 }]);
  });

  it('counts failed shares of hours as downtime, outside maintenance, the worst of incidents and results winning', () => {
    const results = [{ start: today, failureShare: 1, degradedShare: 0 }, { start: today + HOUR, failureShare: 0.5, degradedShare: 0.5 }];
    const plain = dailyUptime({ incidents: [], maintenances: [], now, days: 2, createdAt: new Date(today - DAY), results });
    expect(plain.days[1]).toMatchObject({ measuredMs: 12 * HOUR, downtimeMs: 1.5 * HOUR, degradedMs: 0.5 * HOUR });
    expect(plain.days[0]).toMatchObject({ downtimeMs: 0, uptime: 100 });
    const maintained = dailyUptime({ incidents: [], maintenances: [{ start: new Date(today), end: new Date(today + HOUR) }], now, days: 1, createdAt: new Date(today - DAY), results });
    expect(maintained.days[0]).toMatchObject({ measuredMs: 11 * HOUR, downtimeMs: 0.5 * HOUR });
    const incident = dailyUptime({
      incidents: [{ start: new Date(today), end: new Date(today + 3 * HOUR), severity: 'MAJOR' }], maintenances: [], now, days: 1, createdAt: new Date(today - DAY), results,
    });
    expect(incident.days[0]!.downtimeMs).toBe(3 * HOUR);
  });

  it('shows a page red from a failing check with no incident, its bars starting at the oldest check', () => {
    const page = publicStatusPage({
      cards: [{ id: 'c', name: 'Shop', services: [{
        id: 's', name: 'Shop API', createdAt: now,
        checks: [{ health: 'FAILING', createdAt: new Date(today), hours: [{ start: today, finalCount: 10, failureCount: 10, degradedCount: 0 }] }],
      }] }],
      incidents: [], maintenances: [], now, days: 90,
    });
    expect(page.state).toBe('MAJOR_OUTAGE');
    expect(page.cards[0]!.services[0]!.days.at(-1)).toMatchObject({ measuredMs: 12 * HOUR, downtimeMs: HOUR });
    expect(page.openIncidents).toEqual([]);
  });

  it('leaves out the hours a maintenance covering a check touched, and is under maintenance while every check is in one', () => {
    const failing = { start: today, finalCount: 10, failureCount: 10, degradedCount: 0 };
    const passing = { start: today + HOUR, finalCount: 10, failureCount: 0, degradedCount: 0 };
    const span = { start: new Date(today + 30 * 60_000), end: new Date(today + 45 * 60_000), ongoing: false };
    expect(serviceResultHours([{ health: 'PASSING', createdAt: new Date(0), hours: [failing, passing], maintenance: [span] }]))
      .toEqual([{ start: today + HOUR, failureShare: 0, degradedShare: 0 }]);

    const page = (inMaintenance: readonly boolean[]) => publicStatusPage({
      cards: [{ id: 'c', name: 'Shop', services: [{
        id: 's', name: 'Shop API', createdAt: now,
        checks: inMaintenance.map((m) => ({ health: 'FAILING' as const, createdAt: new Date(today), hours: [], inMaintenance: m })),
      }] }],
      incidents: [], maintenances: [], now, days: 90,
    }).cards[0]!.services[0]!.state;
    expect(page([true, true])).toBe('UNDER_MAINTENANCE');
    // The check outside maintenance still speaks: it fails, so the service is down.
    expect(page([true, false])).toBe('MAJOR_OUTAGE');
    expect(page([false])).toBe('MAJOR_OUTAGE');
  });
});
