import { describe, expect, it } from 'vitest';
import { quickRangeWindow, requestedWindow, type QuickRange } from '../../src/domain/quick-range.js';

const iso = (s: string) => new Date(s);

describe('quickRangeWindow', () => {
  // Wednesday 2024-03-13 15:30 UTC; Monday of that week is the 11th.
  const wednesday = iso('2024-03-13T15:30:00.000Z');

  it.each<[QuickRange, Date, string, string]>([
    ['last24Hours', wednesday, '2024-03-12T15:30:00.000Z', '2024-03-13T15:30:00.000Z'],
    ['last7Days', wednesday, '2024-03-06T15:30:00.000Z', '2024-03-13T15:30:00.000Z'],
    ['last30Days', wednesday, '2024-02-12T15:30:00.000Z', '2024-03-13T15:30:00.000Z'],
    ['thisWeek', wednesday, '2024-03-11T00:00:00.000Z', '2024-03-13T15:30:00.000Z'],
    ['lastWeek', wednesday, '2024-03-04T00:00:00.000Z', '2024-03-11T00:00:00.000Z'],
    ['thisMonth', wednesday, '2024-03-01T00:00:00.000Z', '2024-03-13T15:30:00.000Z'],
    ['lastMonth', wednesday, '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    // Sunday belongs to the week that started the Monday before.
    ['thisWeek', iso('2024-03-17T23:59:59.000Z'), '2024-03-11T00:00:00.000Z', '2024-03-17T23:59:59.000Z'],
    // A Monday starts its own week.
    ['thisWeek', iso('2024-03-18T00:00:00.000Z'), '2024-03-18T00:00:00.000Z', '2024-03-18T00:00:00.000Z'],
    ['lastWeek', iso('2024-03-18T08:00:00.000Z'), '2024-03-11T00:00:00.000Z', '2024-03-18T00:00:00.000Z'],
    // January's last month is December of the year before; a week may span the new year.
    ['lastMonth', iso('2024-01-10T12:00:00.000Z'), '2023-12-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'],
    ['thisWeek', iso('2025-01-01T12:00:00.000Z'), '2024-12-30T00:00:00.000Z', '2025-01-01T12:00:00.000Z'],
    ['thisMonth', iso('2024-02-29T23:00:00.000Z'), '2024-02-01T00:00:00.000Z', '2024-02-29T23:00:00.000Z'],
  ])('%s at %s is [%s, %s)', (range, now, from, to) => {
    expect(quickRangeWindow(range, now)).toEqual({ from: iso(from), to: iso(to) });
  });
});

describe('requestedWindow', () => {
  const now = iso('2024-03-13T15:30:00.000Z');
  const secs = (s: string) => iso(s).getTime() / 1000;

  it.each([
    ['nothing: the last 24 hours', {}, '2024-03-12T15:30:00.000Z', '2024-03-13T15:30:00.000Z'],
    ['a quick range', { quickRange: 'lastMonth' as const }, '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['from and to, over the quick range', { quickRange: 'last7Days' as const, from: secs('2024-01-01T00:00:00Z'), to: secs('2024-01-02T00:00:00Z') }, '2024-01-01T00:00:00.000Z', '2024-01-02T00:00:00.000Z'],
    ['from alone: up to now', { from: secs('2024-03-13T00:00:00Z') }, '2024-03-13T00:00:00.000Z', '2024-03-13T15:30:00.000Z'],
    ['to alone: the day before it', { to: secs('2024-03-10T06:00:00Z') }, '2024-03-09T06:00:00.000Z', '2024-03-10T06:00:00.000Z'],
  ])('given %s', (_label, q, from, to) => {
    expect(requestedWindow(q, now, 'query')).toEqual({ from: iso(from), to: iso(to) });
  });

  it.each([
    ['from after to', { from: 2000, to: 1000 }],
    ['from equal to to', { from: 1000, to: 1000 }],
    ['from after now without to', { from: secs('2024-03-14T00:00:00Z') }],
  ])('refuses %s, naming from', (_label, q) => {
    expect(() => requestedWindow(q, now, 'payload')).toThrow(expect.objectContaining({ code: 'VALIDATION', source: 'payload', issues: [expect.objectContaining({ key: 'from' })] }));
  });
});
