import { describe, expect, it } from 'vitest';
import {
  MAX_PLANNED_OCCURRENCES, PLAN_HORIZON_DAYS, isReplannable, plannedOccurrences, replanOccurrences, type StoredOccurrence,
} from '../../src/domain/maintenance-plan.js';

const NOW = new Date('2030-06-01T12:00:00Z');
const DAY_MS = 86_400_000;
const iso = (d: Date) => d.toISOString();

describe('plannedOccurrences', () => {
  it('plans the one occurrence of a one-off window that has not ended, and none of one that has', () => {
    expect(plannedOccurrences({ startsAt: '2030-06-02T00:00:00Z', endsAt: '2030-06-02T02:00:00Z' }, NOW).occurrences.map((o) => o.index)).toEqual([0]);
    expect(plannedOccurrences({ startsAt: '2030-06-01T11:00:00Z', endsAt: '2030-06-01T13:00:00Z' }, NOW).occurrences.map((o) => o.index)).toEqual([0]);
    expect(plannedOccurrences({ startsAt: '2030-05-01T00:00:00Z', endsAt: '2030-05-01T02:00:00Z' }, NOW).occurrences).toEqual([]);
  });

  it('plans a recurring window from now through repeatEndsAt, numbering occurrences from the window\'s first', () => {
    const { occurrences, issues } = plannedOccurrences({
      startsAt: '2030-05-25T22:00:00Z', endsAt: '2030-05-25T23:00:00Z', repeatUnit: 'WEEK', repeatEndsAt: '2030-06-22',
    }, NOW);
    expect(issues).toEqual([]);
    expect(occurrences.map((o) => [o.index, iso(o.startsAt)])).toEqual([
      [1, '2030-06-01T22:00:00.000Z'], [2, '2030-06-08T22:00:00.000Z'], [3, '2030-06-15T22:00:00.000Z'], [4, '2030-06-22T22:00:00.000Z'],
    ]);
  });

  it(`plans a recurring window without repeatEndsAt ${PLAN_HORIZON_DAYS} days ahead`, () => {
    const { occurrences } = plannedOccurrences({ startsAt: '2030-06-01T13:00:00Z', endsAt: '2030-06-01T14:00:00Z', repeatUnit: 'DAY' }, NOW);
    expect(occurrences).toHaveLength(PLAN_HORIZON_DAYS);
    expect(occurrences.at(-1)!.startsAt.getTime()).toBeLessThan(NOW.getTime() + PLAN_HORIZON_DAYS * DAY_MS);
  });

  it(`accepts ${MAX_PLANNED_OCCURRENCES} occurrences ahead and refuses one more, naming repeatEndsAt`, () => {
    const window = { startsAt: '2030-06-02T00:00:00Z', endsAt: '2030-06-02T01:00:00Z', repeatUnit: 'DAY' };
    const last = new Date(Date.parse('2030-06-02T00:00:00Z') + (MAX_PLANNED_OCCURRENCES - 1) * DAY_MS).toISOString().slice(0, 10);
    const accepted = plannedOccurrences({ ...window, repeatEndsAt: last }, NOW);
    expect(accepted.issues).toEqual([]);
    expect(accepted.occurrences).toHaveLength(MAX_PLANNED_OCCURRENCES);
    const dayAfter = new Date(Date.parse(`${last}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    const refused = plannedOccurrences({ ...window, repeatEndsAt: dayAfter }, NOW);
    expect(refused.issues.map((i) => i.key)).toEqual(['repeatEndsAt']);
    expect(refused.occurrences).toEqual([]);
  });

  it(`counts the points of a zero-length window against the limit like any other (${MAX_PLANNED_OCCURRENCES} accepted, one more refused)`, () => {
    const window = { startsAt: '2030-06-02T00:00:00Z', endsAt: '2030-06-02T00:00:00Z', repeatUnit: 'DAY' };
    const last = new Date(Date.parse('2030-06-02T00:00:00Z') + (MAX_PLANNED_OCCURRENCES - 1) * DAY_MS).toISOString().slice(0, 10);
    expect(plannedOccurrences({ ...window, repeatEndsAt: last }, NOW).issues).toEqual([]);
    const dayAfter = new Date(Date.parse(`${last}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    expect(plannedOccurrences({ ...window, repeatEndsAt: dayAfter }, NOW).issues.map((i) => i.key)).toEqual(['repeatEndsAt']);
  });

  it('counts only the occurrences still ahead against the limit', () => {
    const old = plannedOccurrences({ startsAt: '2025-01-01T00:00:00Z', endsAt: '2025-01-01T01:00:00Z', repeatUnit: 'DAY', repeatEndsAt: '2030-06-10' }, NOW);
    expect(old.issues).toEqual([]);
    expect(old.occurrences).toHaveLength(9);
  });
});

describe('replanOccurrences', () => {
  const stored = (id: string, index: number, start: string, extra: Partial<StoredOccurrence> = {}): StoredOccurrence => ({
    id, index, startsAt: new Date(start), endsAt: new Date(Date.parse(start) + 3_600_000), status: 'SCHEDULED', dateAdjusted: false, ...extra,
  });
  const planned = (index: number, start: string) => ({ index, startsAt: new Date(start), endsAt: new Date(Date.parse(start) + 3_600_000) });

  it('moves replannable occurrences to the dates their numbers now have, and leaves unchanged ones alone', () => {
    const changes = replanOccurrences(
      [stored('a', 1, '2030-06-02T00:00:00Z'), stored('b', 2, '2030-06-03T00:00:00Z')],
      [planned(1, '2030-06-02T00:00:00Z'), planned(2, '2030-06-03T05:00:00Z')],
      new Set(), NOW,
    );
    expect(changes).toEqual({ insert: [], move: [{ id: 'b', startsAt: new Date('2030-06-03T05:00:00Z'), endsAt: new Date('2030-06-03T06:00:00Z') }], remove: [] });
  });

  it('removes replannable occurrences the plan no longer has and adds the numbers it gained', () => {
    const changes = replanOccurrences(
      [stored('a', 1, '2030-06-02T00:00:00Z'), stored('b', 2, '2030-06-03T00:00:00Z')],
      [planned(1, '2030-06-02T00:00:00Z'), planned(3, '2030-06-04T00:00:00Z')],
      new Set(), NOW,
    );
    expect(changes.remove).toEqual(['b']);
    expect(changes.insert.map((o) => o.index)).toEqual([3]);
  });

  it.each([
    ['started', { status: 'IN_PROGRESS' as const }],
    ['cancelled', { status: 'CANCELLED' as const }],
    ['moved by hand', { dateAdjusted: true }],
  ])('keeps an occurrence that was %s, whatever the plan says', (_what, extra) => {
    const changes = replanOccurrences([stored('a', 1, '2030-06-02T00:00:00Z', extra)], [planned(1, '2030-06-05T00:00:00Z')], new Set(), NOW);
    expect(changes).toEqual({ insert: [], move: [], remove: [] });
    const gone = replanOccurrences([stored('a', 1, '2030-06-02T00:00:00Z', extra)], [], new Set(), NOW);
    expect(gone).toEqual({ insert: [], move: [], remove: [] });
  });

  it('keeps a SCHEDULED occurrence whose start has passed (its window does not start it by itself)', () => {
    const past = stored('a', 0, '2030-06-01T11:00:00Z');
    expect(isReplannable(past, NOW)).toBe(false);
    expect(replanOccurrences([past], [], new Set(), NOW)).toEqual({ insert: [], move: [], remove: [] });
  });

  it('never brings back a deleted number, and removes a stored one deleted meanwhile', () => {
    const changes = replanOccurrences([stored('b', 2, '2030-06-03T00:00:00Z')], [planned(1, '2030-06-02T00:00:00Z'), planned(2, '2030-06-03T00:00:00Z')], new Set([1, 2]), NOW);
    expect(changes).toEqual({ insert: [], move: [], remove: ['b'] });
  });
});
