import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localToUtc, naiveMs, namedTimeZone, utcToLocal, type LocalDateTime } from '../../src/domain/local-to-utc.js';
import {
  MAX_OCCURRENCES,
  maintenanceOccurrences,
  maintenanceWindowIssues,
  type MaintenanceSchedule,
} from '../../src/domain/maintenance-occurrences.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';


const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function wall(text: string): LocalDateTime {
  const [year, month, day, hour, minute] = text.split(/[- :]/).map(Number) as [number, number, number, number, number];
  return { year, month, day, hour, minute, second: 0, millisecond: 0 };
}

function wallText(l: LocalDateTime): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${l.year}-${p(l.month)}-${p(l.day)} ${p(l.hour)}:${p(l.minute)}`;
}

/** Start instants of the occurrences in [from, to). */
function starts(window: MaintenanceSchedule, from: string, to: string, limit?: number): string[] {
  return maintenanceOccurrences(window, { from: new Date(from), to: new Date(to), limit }).map((o) => o.startsAt.toISOString());
}

describe('namedTimeZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['America/New_York', 'America/New_York'],
    ['UTC', 'UTC'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['europe/berlin', 'Europe/Berlin'],
  ])('accepts the named zone %s as %s', (name, canonical) => {
    expect(namedTimeZone(name)).toBe(canonical);
  });

  it.each(['+05:00', '-05:00', '+0530', '+05', '\u221205:00', 'UTC+5', 'Mars/Olympus_Mons', '', ' Europe/Berlin', 'Z'])(
    'refuses %j, which is not a named IANA zone',
    (name) => {
      expect(namedTimeZone(name)).toBeNull();
    },
  );
});

describe('localToUtc and utcToLocal', () => {
  it.each([
    ['Europe/Berlin', 'a winter time', '2025-01-15 12:00', '2025-01-15T11:00:00.000Z'],
    ['Europe/Berlin', 'a summer time', '2025-07-15 12:00', '2025-07-15T10:00:00.000Z'],
    ['Europe/Berlin', 'a time in the spring-forward gap, moved forward by the hour of the gap (03:30 CEST)', '2025-03-30 02:30', '2025-03-30T01:30:00.000Z'],
    ['Europe/Berlin', 'an ambiguous fall-back time, resolved to the first (CEST) instance', '2025-10-26 02:30', '2025-10-26T00:30:00.000Z'],
    ['America/New_York', 'a time in the spring-forward gap, moved to 03:30 EDT', '2025-03-09 02:30', '2025-03-09T07:30:00.000Z'],
    ['America/New_York', 'an ambiguous fall-back time, resolved to the first (EDT) instance', '2025-11-02 01:30', '2025-11-02T05:30:00.000Z'],
    ['Australia/Sydney', 'a time in the October spring-forward gap, moved to 03:30 AEDT', '2025-10-05 02:30', '2025-10-04T16:30:00.000Z'],
    ['Australia/Sydney', 'an ambiguous April fall-back time, resolved to the first (AEDT) instance', '2025-04-06 02:30', '2025-04-05T15:30:00.000Z'],
    ['Australia/Lord_Howe', 'a time in a half-hour gap, moved forward by half an hour (02:45)', '2025-10-05 02:15', '2025-10-04T15:45:00.000Z'],
    ['Asia/Kolkata', 'a time in a half-hour-offset zone without daylight saving', '2025-03-30 02:30', '2025-03-29T21:00:00.000Z'],
    ['America/Santiago', 'a midnight that does not exist, moved to 01:00', '2025-09-07 00:00', '2025-09-07T04:00:00.000Z'],
    ['UTC', 'any time, unchanged', '2025-03-30 02:30', '2025-03-30T02:30:00.000Z'],
  ])('in %s, %s: %s local is %s', (zone, _what, local, utc) => {
    expect(localToUtc(wall(local), zone).toISOString()).toBe(utc);
  });

  it.each([
    ['Europe/Berlin', '2025-10-26T00:30:00.000Z', '2025-10-26 02:30'],
    ['Europe/Berlin', '2025-10-26T01:30:00.000Z', '2025-10-26 02:30'],
    ['America/New_York', '2025-03-09T07:30:00.000Z', '2025-03-09 03:30'],
    ['Asia/Kolkata', '2025-12-31T18:30:00.000Z', '2026-01-01 00:00'],
    ['Australia/Sydney', '2025-06-01T20:00:00.000Z', '2025-06-02 06:00'],
  ])('in %s the instant %s reads %s on the wall clock', (zone, utc, local) => {
    expect(wallText(utcToLocal(new Date(utc), zone))).toBe(local);
  });

  it('round-trips every wall time that exists, to the millisecond', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Santiago'];
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }), (zone, t) => {
        const local = utcToLocal(t, zone);
        const back = localToUtc(local, zone).getTime();
        // Either the same instant or, for the second instance of an ambiguous time, the first one.
        expect(back === t || (back < t && wallText(utcToLocal(back, zone)) === wallText(local))).toBe(true);
        expect(utcToLocal(back, zone).millisecond).toBe(local.millisecond);
      }),
      fuzzParameters(500, 20260310),
    );
  });
});

describe('maintenanceWindowIssues', () => {
  const valid: MaintenanceSchedule = {
    startsAt: '2025-03-01T10:00:00.000Z',
    endsAt: '2025-03-01T12:00:00.000Z',
    repeatUnit: 'WEEK',
    repeatInterval: 2,
    repeatEndsAt: '2025-12-31',
    timezone: 'Europe/Berlin',
  };

  it.each<[string, MaintenanceSchedule]>([
    ['a recurring window with every field', valid],
    ['a one-off window without any recurrence field', { startsAt: valid.startsAt, endsAt: valid.endsAt }],
    ['a one-off window with null recurrence fields and timezone', { startsAt: valid.startsAt, endsAt: valid.endsAt, repeatUnit: null, repeatInterval: null, repeatEndsAt: null, timezone: null }],
    ['a repeat unit without an interval (every 1 unit)', { ...valid, repeatInterval: undefined }],
    ['an interval of 1 and of 365', { ...valid, repeatInterval: 365 }],
    ['a repeat end on the local date of the start', { ...valid, repeatEndsAt: '2025-03-01' }],
    ['a repeat end given as a date-time', { ...valid, repeatEndsAt: '2025-12-31T23:59:59.000Z' }],
    ['Date objects for every instant', { ...valid, startsAt: new Date(valid.startsAt as string), endsAt: new Date(valid.endsAt as string), repeatEndsAt: new Date('2025-12-31T00:00:00Z') }],
    ['an instant with an offset', { ...valid, startsAt: '2025-03-01T11:00:00+01:00' }],
    ['an end equal to the start (a point in time, as the Go SDK creates)', { ...valid, endsAt: valid.startsAt }],
  ])('accepts %s', (_what, window) => {
    expect(maintenanceWindowIssues(window)).toEqual([]);
  });

  it.each<[string, MaintenanceSchedule, string, RegExp]>([
    ['a UTC offset as the time zone', { ...valid, timezone: '+05:00' }, 'timezone', /named IANA time zone/],
    ['an unknown time zone', { ...valid, timezone: 'Europe/Atlantis' }, 'timezone', /named IANA time zone/],
    ['an empty time zone', { ...valid, timezone: '' }, 'timezone', /named IANA time zone/],
    ['an end before the start', { ...valid, endsAt: '2025-03-01T09:00:00.000Z' }, 'endsAt', /not be before startsAt/],
    ['an end that is not a date-time', { ...valid, endsAt: 'tomorrow' }, 'endsAt', /ISO 8601/],
    ['a start that is only a date', { ...valid, startsAt: '2025-03-01' }, 'startsAt', /ISO 8601/],
    ['a start without a zone designator', { ...valid, startsAt: '2025-03-01T10:00:00' }, 'startsAt', /ISO 8601/],
    ['an interval of 0', { ...valid, repeatInterval: 0 }, 'repeatInterval', /1 to 365/],
    ['an interval of 366', { ...valid, repeatInterval: 366 }, 'repeatInterval', /1 to 365/],
    ['a fractional interval', { ...valid, repeatInterval: 1.5 }, 'repeatInterval', /integer/],
    ['a unit of YEAR', { ...valid, repeatUnit: 'YEAR' }, 'repeatUnit', /DAY, WEEK, MONTH/],
    ['a lower-case unit', { ...valid, repeatUnit: 'day' }, 'repeatUnit', /DAY, WEEK, MONTH/],
    ['an interval without a unit', { ...valid, repeatUnit: undefined, repeatEndsAt: undefined }, 'repeatUnit', /required when repeatInterval/],
    ['a repeat end without a unit', { ...valid, repeatUnit: null, repeatInterval: null }, 'repeatUnit', /required when repeatInterval or repeatEndsAt/],
    ['a repeat end before the start date', { ...valid, repeatEndsAt: '2025-02-28' }, 'repeatEndsAt', /not be before/],
    ['a repeat end that is not a real date', { ...valid, repeatEndsAt: '2025-02-30' }, 'repeatEndsAt', /calendar date/],
    ['a repeat end that is not a date at all', { ...valid, repeatEndsAt: 'never' }, 'repeatEndsAt', /calendar date/],
    // Found by the window fuzz suite: the year 0000 is a date-time, but PGlite cannot store it.
    ['a start in the year 0000 with an end in the year 1', { ...valid, startsAt: '0000-12-31T23:00:00Z', endsAt: '0001-01-01T01:00:00Z', repeatEndsAt: '0001-12-31' }, 'startsAt', /0001-01-01/],
    ['a start in the year 1 that is the year 0 in UTC', { ...valid, startsAt: '0001-01-01T00:30:00+01:00', endsAt: '0001-01-01T01:00:00Z', repeatEndsAt: '0001-12-31' }, 'startsAt', /0001-01-01/],
  ])('refuses %s under its key', (_what, window, key, message) => {
    const issues = maintenanceWindowIssues(window);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.key).toBe(key);
    expect(issues[0]!.message).toMatch(message);
  });

  it('judges the repeat end against the start date in the window time zone, not in UTC', () => {
    // 20:00 UTC on 1 June is already 2 June in Sydney.
    const window = { startsAt: '2025-06-01T20:00:00Z', endsAt: '2025-06-01T21:00:00Z', repeatUnit: 'DAY', repeatEndsAt: '2025-06-01' };
    expect(maintenanceWindowIssues(window)).toEqual([]);
    expect(maintenanceWindowIssues({ ...window, timezone: 'Australia/Sydney' }).map((i) => i.key)).toEqual(['repeatEndsAt']);
  });

  it('reports every problem of a window at once', () => {
    const issues = maintenanceWindowIssues({ startsAt: valid.startsAt, endsAt: '2025-03-01T09:00:00.000Z', repeatInterval: 0, timezone: '+01:00' });
    expect(issues.map((i) => i.key).sort()).toEqual(['endsAt', 'repeatInterval', 'repeatUnit', 'timezone']);
  });
});

describe('maintenanceOccurrences', () => {
  const oneOff: MaintenanceSchedule = { startsAt: '2025-06-01T10:00:00Z', endsAt: '2025-06-01T12:00:00Z' };

  it.each([
    ['a range containing it', '2025-06-01T00:00:00Z', '2025-06-02T00:00:00Z', ['2025-06-01T10:00:00.000Z']],
    ['a range starting while it runs', '2025-06-01T11:59:59Z', '2025-06-02T00:00:00Z', ['2025-06-01T10:00:00.000Z']],
    ['a range starting exactly at its end', '2025-06-01T12:00:00Z', '2025-06-02T00:00:00Z', []],
    ['a range ending exactly at its start', '2025-06-01T00:00:00Z', '2025-06-01T10:00:00Z', []],
    ['a range years later', '2030-01-01T00:00:00Z', '2031-01-01T00:00:00Z', []],
  ])('lists a one-off window once for %s, and never again', (_what, from, to, expected) => {
    expect(starts(oneOff, from, to)).toEqual(expected);
  });

  it.each([
    ['a range containing it', '2025-06-01T00:00:00Z', '2025-06-02T00:00:00Z', ['2025-06-01T10:00:00.000Z']],
    ['a range starting exactly at it', '2025-06-01T10:00:00Z', '2025-06-02T00:00:00Z', ['2025-06-01T10:00:00.000Z']],
    ['a range ending exactly at it', '2025-06-01T00:00:00Z', '2025-06-01T10:00:00Z', []],
    ['a range starting just after it', '2025-06-01T10:00:00.001Z', '2025-06-02T00:00:00Z', []],
  ])('lists a zero-length window, a point in time, for %s when the range holds that instant', (_what, from, to, expected) => {
    expect(starts({ startsAt: oneOff.startsAt, endsAt: oneOff.startsAt }, from, to)).toEqual(expected);
  });

  it('lists each point of a recurring zero-length window once', () => {
    const daily = { startsAt: oneOff.startsAt, endsAt: oneOff.startsAt, repeatUnit: 'DAY', repeatEndsAt: '2025-06-03' };
    expect(starts(daily, '2025-06-01T10:00:00Z', '2026-01-01T00:00:00Z')).toEqual(['2025-06-01T10:00:00.000Z', '2025-06-02T10:00:00.000Z', '2025-06-03T10:00:00.000Z']);
  });

  it('gives each occurrence the window duration and its index from the first', () => {
    const daily = { ...oneOff, repeatUnit: 'DAY' };
    expect(maintenanceOccurrences(daily, { from: new Date('2025-06-03T00:00:00Z'), to: new Date('2025-06-05T00:00:00Z') })).toEqual([
      { index: 2, startsAt: new Date('2025-06-03T10:00:00Z'), endsAt: new Date('2025-06-03T12:00:00Z') },
      { index: 3, startsAt: new Date('2025-06-04T10:00:00Z'), endsAt: new Date('2025-06-04T12:00:00Z') },
    ]);
  });

  it.each<[string, Partial<MaintenanceSchedule>, string, string, string[]]>([
    ['every day', { repeatUnit: 'DAY' }, '2025-06-01T00:00:00Z', '2025-06-04T00:00:00Z', ['2025-06-01', '2025-06-02', '2025-06-03']],
    ['every 3 days', { repeatUnit: 'DAY', repeatInterval: 3 }, '2025-06-01T00:00:00Z', '2025-06-12T00:00:00Z', ['2025-06-01', '2025-06-04', '2025-06-07', '2025-06-10']],
    ['every week', { repeatUnit: 'WEEK', repeatInterval: 1 }, '2025-06-01T00:00:00Z', '2025-06-20T00:00:00Z', ['2025-06-01', '2025-06-08', '2025-06-15']],
    ['every 2 weeks', { repeatUnit: 'WEEK', repeatInterval: 2 }, '2025-06-01T00:00:00Z', '2025-07-20T00:00:00Z', ['2025-06-01', '2025-06-15', '2025-06-29', '2025-07-13']],
    ['every month', { repeatUnit: 'MONTH' }, '2025-06-01T00:00:00Z', '2025-09-02T00:00:00Z', ['2025-06-01', '2025-07-01', '2025-08-01', '2025-09-01']],
    ['every 5 months, across a year end', { repeatUnit: 'MONTH', repeatInterval: 5 }, '2025-06-01T00:00:00Z', '2026-12-01T00:00:00Z', ['2025-06-01', '2025-11-01', '2026-04-01', '2026-09-01']],
    ['every 365 days', { repeatUnit: 'DAY', repeatInterval: 365 }, '2025-06-01T00:00:00Z', '2027-06-02T00:00:00Z', ['2025-06-01', '2026-06-01', '2027-06-01']],
  ])('repeats %s at the same time', (_what, recurrence, from, to, dates) => {
    expect(starts({ ...oneOff, ...recurrence }, from, to)).toEqual(dates.map((d) => `${d}T10:00:00.000Z`));
  });

  it.each([
    ['the 31st, clamped to the last day of shorter months and back to the 31st after', '2025-01-31T10:00:00Z', ['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30', '2025-05-31']],
    ['the 31st in a leap year, clamped to 29 February', '2024-01-31T10:00:00Z', ['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31']],
    ['the 30th, clamped only in February', '2025-01-30T10:00:00Z', ['2025-01-30', '2025-02-28', '2025-03-30', '2025-04-30', '2025-05-30']],
    ['the 29th, clamped only in a common-year February', '2025-01-29T10:00:00Z', ['2025-01-29', '2025-02-28', '2025-03-29', '2025-04-29', '2025-05-29']],
  ])('repeats monthly on %s', (_what, startsAt, dates) => {
    const window = { startsAt, endsAt: startsAt.replace('10:00', '11:00'), repeatUnit: 'MONTH' };
    expect(starts(window, '2024-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 5)).toEqual(dates.map((d) => `${d}T10:00:00.000Z`));
  });

  it('clamps the 31st in the window time zone, not in UTC', () => {
    // 31 January 00:30 in Berlin is still 30 January in UTC.
    const window = { startsAt: '2025-01-30T23:30:00Z', endsAt: '2025-01-31T00:30:00Z', repeatUnit: 'MONTH', timezone: 'Europe/Berlin' };
    expect(starts(window, '2025-01-01T00:00:00Z', '2025-05-01T00:00:00Z')).toEqual([
      '2025-01-30T23:30:00.000Z',
      '2025-02-27T23:30:00.000Z',
      '2025-03-30T22:30:00.000Z',
      '2025-04-29T22:30:00.000Z',
    ]);
  });

  // Daily windows across each zone's daylight-saving changes: the wall-clock time stays, the gap moves
  // the start forward by the gap's length, the overlap takes the first instance.
  it.each([
    ['Europe/Berlin', 'the spring-forward gap (02:30 runs at 03:30)', '2025-03-29T01:30:00Z', ['2025-03-29T01:30:00.000Z', '2025-03-30T01:30:00.000Z', '2025-03-31T00:30:00.000Z']],
    ['Europe/Berlin', 'the fall-back overlap (the first 02:30)', '2025-10-25T00:30:00Z', ['2025-10-25T00:30:00.000Z', '2025-10-26T00:30:00.000Z', '2025-10-27T01:30:00.000Z']],
    ['America/New_York', 'the spring-forward gap (02:30 runs at 03:30)', '2025-03-08T07:30:00Z', ['2025-03-08T07:30:00.000Z', '2025-03-09T07:30:00.000Z', '2025-03-10T06:30:00.000Z']],
    ['America/New_York', 'the fall-back overlap (the first 01:30)', '2025-11-01T05:30:00Z', ['2025-11-01T05:30:00.000Z', '2025-11-02T05:30:00.000Z', '2025-11-03T06:30:00.000Z']],
    ['Australia/Sydney', 'the October spring-forward gap (02:30 runs at 03:30)', '2025-10-03T16:30:00Z', ['2025-10-03T16:30:00.000Z', '2025-10-04T16:30:00.000Z', '2025-10-05T15:30:00.000Z']],
    ['Australia/Sydney', 'the April fall-back overlap (the first 02:30)', '2025-04-04T15:30:00Z', ['2025-04-04T15:30:00.000Z', '2025-04-05T15:30:00.000Z', '2025-04-06T16:30:00.000Z']],
    ['Asia/Kolkata', 'the dates other zones change on (no change at all)', '2025-03-29T21:00:00Z', ['2025-03-29T21:00:00.000Z', '2025-03-30T21:00:00.000Z', '2025-03-31T21:00:00.000Z']],
  ])('in %s, a daily window keeps its local time across %s', (timezone, _what, startsAt, expected) => {
    const window = { startsAt, endsAt: new Date(new Date(startsAt).getTime() + HOUR_MS), repeatUnit: 'DAY', timezone };
    const first = new Date(startsAt).getTime();
    expect(starts(window, startsAt, new Date(first + 3 * DAY_MS - HOUR_MS).toISOString())).toEqual(expected);
  });

  it.each([
    ['weekly on Monday 09:00 in Berlin', { startsAt: '2025-03-24T08:00:00Z', repeatUnit: 'WEEK', timezone: 'Europe/Berlin' }, ['2025-03-24T08:00:00.000Z', '2025-03-31T07:00:00.000Z']],
    ['monthly on the 15th at 10:00 in New York', { startsAt: '2025-02-15T15:00:00Z', repeatUnit: 'MONTH', timezone: 'America/New_York' }, ['2025-02-15T15:00:00.000Z', '2025-03-15T14:00:00.000Z']],
    ['monthly on the 1st at 09:00 in Sydney', { startsAt: '2025-03-31T22:00:00Z', repeatUnit: 'MONTH', timezone: 'Australia/Sydney' }, ['2025-03-31T22:00:00.000Z', '2025-04-30T23:00:00.000Z']],
  ])('keeps local time %s across a change', (_what, fields, expected) => {
    const window = { ...fields, endsAt: new Date(new Date(fields.startsAt).getTime() + HOUR_MS) };
    expect(starts(window, '2025-01-01T00:00:00Z', '2025-05-05T00:00:00Z', 2)).toEqual(expected);
  });

  it('keeps the elapsed duration, so a 01:00–05:00 window ends at 06:00 local on the spring-forward night', () => {
    const window = { startsAt: '2025-03-29T00:00:00Z', endsAt: '2025-03-29T04:00:00Z', repeatUnit: 'DAY', timezone: 'Europe/Berlin' };
    const night = maintenanceOccurrences(window, { from: new Date('2025-03-29T00:00:00Z'), to: new Date('2025-03-31T00:00:00Z') })[1]!;
    expect(night.startsAt.toISOString()).toBe('2025-03-30T00:00:00.000Z');
    expect(night.endsAt.toISOString()).toBe('2025-03-30T04:00:00.000Z');
    expect(wallText(utcToLocal(night.endsAt, 'Europe/Berlin'))).toBe('2025-03-30 06:00');
  });

  it('starts the first occurrence exactly at startsAt even when that is the second instance of an ambiguous time', () => {
    // 06:30 UTC on 2 November is 01:30 EST, the second 01:30 of the day in New York.
    const window = { startsAt: '2025-11-02T06:30:00Z', endsAt: '2025-11-02T06:45:00Z', repeatUnit: 'DAY', timezone: 'America/New_York' };
    expect(starts(window, '2025-11-01T00:00:00Z', '2025-11-04T00:00:00Z')).toEqual(['2025-11-02T06:30:00.000Z', '2025-11-03T06:30:00.000Z']);
  });

  it.each<[string, Partial<MaintenanceSchedule>, string[]]>([
    ['a calendar date: the last occurrence starts on that date', { repeatEndsAt: '2025-06-03' }, ['2025-06-01T22:00:00.000Z', '2025-06-02T22:00:00.000Z', '2025-06-03T22:00:00.000Z']],
    ['the start date itself: only the first occurrence', { repeatEndsAt: '2025-06-01' }, ['2025-06-01T22:00:00.000Z']],
    ['a date-time, by its date in the window zone', { repeatEndsAt: '2025-06-02T12:00:00Z' }, ['2025-06-01T22:00:00.000Z', '2025-06-02T22:00:00.000Z']],
  ])('ends a daily 22:00 UTC window with repeatEndsAt as %s', (_what, fields, expected) => {
    const window = { startsAt: '2025-06-01T22:00:00Z', endsAt: '2025-06-02T02:00:00Z', repeatUnit: 'DAY', ...fields };
    expect(starts(window, '2025-05-01T00:00:00Z', '2025-07-01T00:00:00Z')).toEqual(expected);
  });

  it('lets the final occurrence run for its full duration past the end date', () => {
    const window = { startsAt: '2025-06-01T22:00:00Z', endsAt: '2025-06-02T02:00:00Z', repeatUnit: 'DAY', repeatEndsAt: '2025-06-03' };
    const all = maintenanceOccurrences(window, { from: new Date('2025-06-04T01:00:00Z'), to: new Date('2025-07-01T00:00:00Z') });
    expect(all).toEqual([{ index: 2, startsAt: new Date('2025-06-03T22:00:00Z'), endsAt: new Date('2025-06-04T02:00:00Z') }]);
  });

  it.each([
    // 23:30 in Berlin on 3 June is 21:30 UTC the same day; the 4th is past the end date.
    ['Europe/Berlin', '2025-06-01T21:30:00Z', '2025-06-03', 3],
    // 06:00 in Sydney on 2 June is 20:00 UTC on 1 June: the UTC date would wrongly allow a second one.
    ['Australia/Sydney', '2025-06-01T20:00:00Z', '2025-06-02', 1],
    ['Asia/Kolkata', '2025-06-01T20:00:00Z', '2025-06-04', 3],
  ])('counts the inclusive end date in %s local time', (timezone, startsAt, repeatEndsAt, count) => {
    const window = { startsAt, endsAt: new Date(new Date(startsAt).getTime() + HOUR_MS), repeatUnit: 'DAY', repeatEndsAt, timezone };
    expect(starts(window, '2025-05-01T00:00:00Z', '2025-07-01T00:00:00Z')).toHaveLength(count);
  });

  it('includes an occurrence still running at the range start and excludes one starting at the range end', () => {
    const window = { startsAt: '2025-06-01T10:00:00Z', endsAt: '2025-06-01T14:00:00Z', repeatUnit: 'DAY' };
    expect(starts(window, '2025-06-02T13:00:00Z', '2025-06-04T10:00:00Z')).toEqual(['2025-06-02T10:00:00.000Z', '2025-06-03T10:00:00.000Z']);
  });

  it('finds the occurrences of a window that started decades before the range, with their indices', () => {
    const window = { startsAt: '2000-01-31T09:00:00Z', endsAt: '2000-01-31T10:00:00Z', repeatUnit: 'MONTH', timezone: 'Europe/Berlin' };
    const found = maintenanceOccurrences(window, { from: new Date('2040-02-01T00:00:00Z'), to: new Date('2040-05-01T00:00:00Z') });
    expect(found.map((o) => [o.index, o.startsAt.toISOString()])).toEqual([
      [481, '2040-02-29T09:00:00.000Z'],
      [482, '2040-03-31T08:00:00.000Z'],
      [483, '2040-04-30T08:00:00.000Z'],
    ]);
  });

  it.each([
    ['the requested limit', 5, 5],
    ['the default limit of 1,000', undefined, MAX_OCCURRENCES],
    ['1,000 even when more are asked for', 5000, MAX_OCCURRENCES],
    ['nothing for a limit of 0', 0, 0],
  ])('returns at most %s', (_what, limit, count) => {
    const window = { startsAt: '2025-01-01T00:00:00Z', endsAt: '2025-01-01T00:10:00Z', repeatUnit: 'DAY', timezone: 'Europe/Berlin' };
    const found = maintenanceOccurrences(window, { from: new Date('2025-01-01T00:00:00Z'), to: new Date('2100-01-01T00:00:00Z'), limit });
    expect(found).toHaveLength(count);
    if (count > 0) expect(found[0]!.index).toBe(0);
  });

  it.each([
    ['an empty range', '2025-06-02T00:00:00Z', '2025-06-02T00:00:00Z'],
    ['a reversed range', '2025-06-03T00:00:00Z', '2025-06-02T00:00:00Z'],
    ['an invalid date', 'not a date', '2025-06-02T00:00:00Z'],
  ])('returns nothing for %s', (_what, from, to) => {
    expect(starts({ ...oneOff, repeatUnit: 'DAY' }, from, to)).toEqual([]);
  });

  it('ends at the last representable date instead of looping', () => {
    const window = { startsAt: '2025-01-01T00:00:00Z', endsAt: '2025-01-01T00:10:00Z', repeatUnit: 'DAY', repeatInterval: 365 };
    const found = maintenanceOccurrences(window, { from: new Date(8.64e15 - 100 * 365 * DAY_MS), to: new Date(8.64e15) });
    expect(found.length).toBeGreaterThan(90);
    expect(found.length).toBeLessThanOrEqual(100);
  });

  it('starts from the first occurrence for a range opening at the earliest representable date', () => {
    const window = { startsAt: '2025-01-31T10:00:00Z', endsAt: '2025-01-31T11:00:00Z', repeatUnit: 'MONTH', timezone: 'Europe/Berlin' };
    const found = maintenanceOccurrences(window, { from: new Date(-8.64e15), to: new Date('2025-03-01T00:00:00Z') });
    expect(found.map((o) => o.startsAt.toISOString())).toEqual(['2025-01-31T10:00:00.000Z', '2025-02-28T10:00:00.000Z']);
  });

  it('refuses to expand a window with issues', () => {
    expect(() => starts({ ...oneOff, timezone: '+05:00', repeatUnit: 'DAY' }, '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z')).toThrow(/timezone/);
  });

  it('keeps the rules for any window in any zone', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Beirut', 'UTC'];
    const units = ['DAY', 'WEEK', 'MONTH'] as const;
    const shortest = { DAY: DAY_MS, WEEK: 7 * DAY_MS, MONTH: 28 * DAY_MS };
    const offsetAt = (t: number, zone: string) => naiveMs(utcToLocal(t, zone)) - t;
    const timeOfDay = (naive: number) => ((naive % DAY_MS) + DAY_MS) % DAY_MS;
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.constantFrom(...units),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2035, 0, 1) }).map((t) => t - (t % 60_000)),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 2 * 365 }),
        fc.integer({ min: 1, max: 120 }),
        (timezone, unit, interval, start, durationShare, fromDays, spanDays) => {
          // Windows shorter than their shortest real period by more than any daylight-saving shift never overlap.
          const duration = Math.max(60_000, Math.floor(durationShare * (interval * shortest[unit] - 3 * HOUR_MS)));
          const window = { startsAt: new Date(start), endsAt: new Date(start + duration), repeatUnit: unit, repeatInterval: interval, timezone };
          const from = start + fromDays * DAY_MS - DAY_MS;
          const to = from + spanDays * DAY_MS;
          const found = maintenanceOccurrences(window, { from: new Date(from), to: new Date(to) });
          const baseTime = timeOfDay(naiveMs(utcToLocal(start, timezone)));

          found.forEach((o, i) => {
            const s = o.startsAt.getTime();
            expect(o.endsAt.getTime() - s).toBe(duration);
            expect(s < to && s + duration > from).toBe(true);
            if (i > 0) {
              expect(o.index).toBeGreaterThan(found[i - 1]!.index);
              expect(s).toBeGreaterThanOrEqual(found[i - 1]!.endsAt.getTime());
            }
            const localTime = timeOfDay(s + offsetAt(s, timezone));
            if (o.index > 0 && localTime !== baseTime) {
              // Only a start in a gap may differ, and then by exactly the gap: read with the offset in
              // force before the change, it is the window's local time.
              expect(offsetAt(s, timezone)).toBeGreaterThan(offsetAt(s - DAY_MS, timezone));
              expect(timeOfDay(s + offsetAt(s - DAY_MS, timezone))).toBe(baseTime);
            }
          });

          // Skipping ahead to the range finds the same occurrences as walking from the first one.
          const walked = maintenanceOccurrences(window, { from: new Date(start), to: new Date(to) }).filter(
            (o) => o.endsAt.getTime() > from,
          );
          expect(found).toEqual(walked);
        },
      ),
      fuzzParameters(200, 20260310),
    );
  });
});
