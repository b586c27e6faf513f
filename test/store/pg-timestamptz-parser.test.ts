import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../../src/store/create-pg-db.js';

const driverParser = pg.types.getTypeParser(1184, 'text') as (v: string) => unknown;

describe('parseTimestamptz', () => {
  it.each([
    ['microseconds', '2026-11-24 18:15:08.123456+00'],
    ['microseconds just below the next second (cut, not rounded)', '2026-11-24 18:15:08.999999+00'],
    ['one fraction digit', '2026-11-24 18:15:08.1+00'],
    ['two fraction digits', '2026-01-02 03:04:05.12+00'],
    ['three fraction digits', '2026-01-02 03:04:05.007+00'],
    ['no fraction', '2026-11-24 18:15:08+00'],
    ['a leap day', '2024-02-29 23:59:59.5+00'],
    ['the epoch', '1970-01-01 00:00:00+00'],
    ['a far year', '9999-12-31 23:59:59.999999+00'],
    ['another zone (the driver parses it)', '2026-11-24 19:15:08.123+01'],
    ['a zone with minutes', '2026-11-24 23:45:08.123+05:30'],
    ['a year before 100', '0050-06-01 00:00:00+00'],
    ['a BC date', '0001-01-01 00:00:00+00 BC'],
    ['a year past 9999', '12026-11-24 18:15:08+00'],
  ])('reads %s exactly as the driver does', (_label, text) => {
    const ours = parseTimestamptz(text);
    const theirs = driverParser(text);
    expect(ours).toEqual(theirs);
    if (ours instanceof Date) expect(ours.toISOString()).toBe((theirs as Date).toISOString());
  });

  it.each(['infinity', '-infinity'])('leaves %s to the driver', (text) => {
    expect(parseTimestamptz(text)).toEqual(driverParser(text));
  });
});
