import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dailyUptime, type UptimeIncident, type UptimeInput, type UptimeMaintenance } from '../../src/domain/daily-uptime.js';
import { INCIDENT_SEVERITIES } from '../../src/domain/service-state.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Hour `hour` of March `day`, 2026, UTC. */
const h = (day: number, hour: number) => new Date(Date.UTC(2026, 2, day, 0) + hour * HOUR);
const incident = (start: Date, end: Date | null, severity: UptimeIncident['severity'] = 'MAJOR'): UptimeIncident => ({ start, end, severity });
const maintenance = (start: Date, end: Date): UptimeMaintenance => ({ start, end });
/** Three whole past days, March 7–9, seen at the very end of March 9 (the day of now counts fully). */
const base: UptimeInput = { incidents: [], maintenances: [], now: new Date(h(10, 0).getTime() - 1), days: 3, createdAt: h(1, 0) };
const ALMOST_DAY = DAY - 1;

describe('daily uptime bars', () => {
  it('gives one full-uptime bar per UTC day without incidents', () => {
    const result = dailyUptime(base);
    expect(result.days.map((d) => d.date)).toEqual(['2026-03-07', '2026-03-08', '2026-03-09']);
    expect(result.days.map((d) => d.uptime)).toEqual([100, 100, 100]);
    expect(result.uptime).toBe(100);
  });

  it.each([
    { name: 'an incident of six hours takes a quarter of its day', incidents: [incident(h(8, 6), h(8, 12))], maintenances: [], down: [0, 6 * HOUR, 0], uptime: [100, 75, 100] },
    { name: 'overlapping incidents count once', incidents: [incident(h(8, 0), h(8, 6)), incident(h(8, 3), h(8, 12), 'CRITICAL')], maintenances: [], down: [0, 12 * HOUR, 0], uptime: [100, 50, 100] },
    { name: 'an incident inside another counts once', incidents: [incident(h(8, 0), h(8, 12)), incident(h(8, 2), h(8, 4), 'MEDIUM')], maintenances: [], down: [0, 12 * HOUR, 0], uptime: [100, 50, 100] },
    { name: 'an incident across midnight is split between the two days', incidents: [incident(h(7, 18), h(8, 6))], maintenances: [], down: [6 * HOUR, 6 * HOUR, 0], uptime: [75, 75, 100] },
    { name: 'an incident ending exactly at midnight stays in its day', incidents: [incident(h(7, 12), h(8, 0))], maintenances: [], down: [12 * HOUR, 0, 0], uptime: [50, 100, 100] },
    { name: 'an incident starting exactly at midnight belongs to the new day', incidents: [incident(h(8, 0), h(8, 6))], maintenances: [], down: [0, 6 * HOUR, 0], uptime: [100, 75, 100] },
    { name: 'an incident before the range is ignored', incidents: [incident(h(5, 0), h(6, 0))], maintenances: [], down: [0, 0, 0], uptime: [100, 100, 100] },
    { name: 'an open incident runs until now', incidents: [incident(h(9, 12), null)], maintenances: [], down: [0, 0, 12 * HOUR - 1], uptime: [100, 100, (100 * 12 * HOUR) / ALMOST_DAY] },
    { name: 'a minor incident is degraded time, not downtime', incidents: [incident(h(8, 0), h(8, 12), 'MINOR')], maintenances: [], down: [0, 0, 0], uptime: [100, 100, 100] },
    { name: 'a maintenance shortens the day without downtime', incidents: [], maintenances: [maintenance(h(8, 0), h(8, 12))], down: [0, 0, 0], uptime: [100, 100, 100] },
    { name: 'a maintenance overlapping an incident removes the overlap from downtime and from the day', incidents: [incident(h(8, 6), h(8, 18))], maintenances: [maintenance(h(8, 0), h(8, 12))], down: [0, 6 * HOUR, 0], uptime: [100, 50, 100] },
    { name: 'a maintenance covering an incident leaves no downtime', incidents: [incident(h(8, 6), h(8, 10))], maintenances: [maintenance(h(8, 0), h(8, 12))], down: [0, 0, 0], uptime: [100, 100, 100] },
  ] as const)('$name', ({ incidents, maintenances, down, uptime }) => {
    const result = dailyUptime({ ...base, incidents, maintenances });
    expect(result.days.map((d) => d.downtimeMs)).toEqual(down);
    result.days.forEach((day, i) => expect(day.uptime).toBeCloseTo(uptime[i]!, 10));
  });

  it('reports the measured, degraded and down parts of a day', () => {
    const result = dailyUptime({
      ...base,
      incidents: [incident(h(8, 2), h(8, 8), 'MINOR'), incident(h(8, 6), h(8, 10), 'MAJOR')],
      maintenances: [maintenance(h(8, 0), h(8, 4)), maintenance(h(8, 3), h(8, 5))],
    });
    // Maintenance 0–5 h; minor 5–6 h only (6–8 h is under the major incident); major 6–10 h.
    expect(result.days[1]).toEqual({ date: '2026-03-08', measuredMs: 19 * HOUR, downtimeMs: 4 * HOUR, degradedMs: HOUR, uptime: (100 * 15) / 19 });
  });

  it('has no data for a day spent entirely in maintenance', () => {
    const result = dailyUptime({ ...base, incidents: [incident(h(8, 1), h(8, 2))], maintenances: [maintenance(h(7, 23), h(9, 0))] });
    expect(result.days[1]).toMatchObject({ measuredMs: 0, downtimeMs: 0, uptime: null });
  });

  it.each([
    { name: 'days before the service existed have no data', createdAt: h(9, 0), measured: [0, 0, ALMOST_DAY], uptime: [null, null, 50] },
    { name: 'the day the service was created counts from its creation', createdAt: h(8, 12), measured: [0, 12 * HOUR, ALMOST_DAY], uptime: [null, 100, 50] },
    { name: 'a service created after now has no data at all', createdAt: h(11, 0), measured: [0, 0, 0], uptime: [null, null, null] },
  ] as const)('$name', ({ createdAt, measured, uptime }) => {
    const result = dailyUptime({ ...base, createdAt, incidents: [incident(h(8, 0), h(8, 12)), incident(h(9, 0), h(9, 12))] });
    expect(result.days.map((d) => d.measuredMs)).toEqual(measured);
    result.days.forEach((day, i) => (uptime[i] === null ? expect(day.uptime).toBeNull() : expect(day.uptime).toBeCloseTo(uptime[i]!, 4)));
  });

  it('counts today only up to now', () => {
    const result = dailyUptime({ ...base, now: h(9, 6), incidents: [incident(h(9, 3), h(9, 12))] });
    expect(result.days[2]).toMatchObject({ date: '2026-03-09', measuredMs: 6 * HOUR, downtimeMs: 3 * HOUR, uptime: 50 });
  });

  it('has no data yet for the day that starts exactly at now', () => {
    const result = dailyUptime({ ...base, now: h(10, 0) });
    expect(result.days.map((d) => d.date)).toEqual(['2026-03-08', '2026-03-09', '2026-03-10']);
    expect(result.days[2]).toMatchObject({ measuredMs: 0, uptime: null });
  });

  it('weights the overall uptime by measured time', () => {
    const result = dailyUptime({ ...base, now: h(9, 12), createdAt: h(8, 0), incidents: [incident(h(8, 0), h(8, 6))] });
    // 36 measured hours, 6 down.
    expect(result.uptime).toBeCloseTo((100 * 30) / 36, 10);
  });
});

describe('daily uptime properties', () => {
  const T = Date.UTC(2026, 0, 1);
  const span = fc.tuple(fc.integer({ min: -40 * DAY, max: 5 * DAY }), fc.integer({ min: 0, max: 5 * DAY }));
  const incidentArb = fc.record({
    span,
    open: fc.boolean(),
    severity: fc.constantFrom(...INCIDENT_SEVERITIES),
  }).map(({ span: [from, length], open, severity }) => incident(new Date(T + from), open ? null : new Date(T + from + length), severity));
  const maintenanceArb = span.map(([from, length]) => maintenance(new Date(T + from), new Date(T + from + length)));
  const inputArb = fc.record({
    incidents: fc.array(incidentArb, { maxLength: 6 }),
    maintenances: fc.array(maintenanceArb, { maxLength: 3 }),
    days: fc.integer({ min: 1, max: 40 }),
    createdAt: fc.integer({ min: -60 * DAY, max: DAY }).map((offset) => new Date(T + offset)),
  }).map((input): UptimeInput => ({ ...input, now: new Date(T) }));
  const inRange = (value: number | null) => value === null || (value >= 0 && value <= 100);

  it('keeps every uptime within 0–100 and gives one bar per day', () => {
    fc.assert(fc.property(inputArb, (input) => {
      const result = dailyUptime(input);
      expect(result.days).toHaveLength(input.days);
      expect(inRange(result.uptime)).toBe(true);
      for (const day of result.days) {
        expect(inRange(day.uptime)).toBe(true);
        expect(day.downtimeMs + day.degradedMs).toBeLessThanOrEqual(day.measuredMs);
      }
    }), fuzzParameters(500, 20260310));
  });

  it('never raises uptime when an incident is added', () => {
    fc.assert(fc.property(inputArb, incidentArb, (input, extra) => {
      const before = dailyUptime(input);
      const after = dailyUptime({ ...input, incidents: [...input.incidents, extra] });
      expect(after.uptime ?? 100).toBeLessThanOrEqual((before.uptime ?? 100) + 1e-9);
      after.days.forEach((day, i) => expect(day.uptime ?? 100).toBeLessThanOrEqual((before.days[i]!.uptime ?? 100) + 1e-9));
    }), fuzzParameters(500, 20260310));
  });
});
