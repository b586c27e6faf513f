import { describe, expect, it } from 'vitest';
import { cadenceOf, locationsForSlot, nextSlotAfter, resumeSchedule, slotIndex } from '../../src/domain/schedule-slots.js';

const ID = '8d3f0c1e-2b4a-4c5d-9e6f-0a1b2c3d4e5f';

describe('check cadence', () => {
  it.each([
    [0, 10, 10_000], [0, 20, 20_000], [0, 30, 30_000], [1, null, 60_000], [10, 5, 600_000], [1440, 3, 86_400_000],
  ])('frequency %i with offset %s repeats every %i ms', (frequency, frequencyOffset, periodMs) => {
    expect(cadenceOf({ id: ID, frequency, frequencyOffset }).periodMs).toBe(periodMs);
  });

  it.each([
    [5, 1, 0], [5, 2, 6_000], [5, 50, 294_000], [60, 600, 3_594_000], [720, 1, 0], [720, 12, 11 * 3_600_000], [120, 2, 3_600_000],
  ])('frequency %i with offset %i starts %i ms into each period', (frequency, frequencyOffset, phaseMs) => {
    expect(cadenceOf({ id: ID, frequency, frequencyOffset }).phaseMs).toBe(phaseMs);
  });

  it('spreads checks without an offset by their id, stably', () => {
    const a = cadenceOf({ id: ID, frequency: 1 });
    expect(cadenceOf({ id: ID, frequency: 1 })).toEqual(a);
    const phases = new Set(Array.from({ length: 50 }, (_, i) => cadenceOf({ id: `check-${i}`, frequency: 1 }).phaseMs));
    expect(phases.size).toBeGreaterThan(45);
    for (const p of phases) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(60_000);
    }
  });
});

describe('slots', () => {
  const cadence = { periodMs: 60_000, phaseMs: 15_000 };
  it.each([
    [0, 15_000], [14_999, 15_000], [15_000, 75_000], [74_999, 75_000], [1_000_000, 1_035_000],
  ])('the slot after %i is %i', (after, next) => expect(nextSlotAfter(cadence, after)).toBe(next));

  it('numbers slots consecutively', () => {
    expect(slotIndex(cadence, 75_000) - slotIndex(cadence, 15_000)).toBe(1);
  });

  it('keeps a persisted future slot after a restart, so nothing runs twice', () => {
    expect(resumeSchedule(cadence, 135_000, 100_000)).toEqual({ runNow: false, nextMs: 135_000 });
  });

  it('runs once for slots missed while down, then continues on the next slot after now', () => {
    expect(resumeSchedule(cadence, 15_000, 400_000)).toEqual({ runNow: true, nextMs: 435_000 });
  });

  it('starts a never-scheduled check at its next slot', () => {
    expect(resumeSchedule(cadence, null, 100_000)).toEqual({ runNow: false, nextMs: 135_000 });
  });
});

describe('locations per run', () => {
  it('rotates through locations slot by slot', () => {
    expect([0, 1, 2, 3].map((s) => locationsForSlot(['a', 'b', 'c'], false, s))).toEqual([['a'], ['b'], ['c'], ['a']]);
  });
  it('uses every location at once for parallel runs', () => {
    expect(locationsForSlot(['a', 'b'], true, 7)).toEqual(['a', 'b']);
  });
  it('handles negative slot numbers', () => {
    expect(locationsForSlot(['a', 'b'], false, -1)).toEqual(['b']);
  });
});
