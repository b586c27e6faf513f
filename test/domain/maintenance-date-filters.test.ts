import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_OPERATORS, parseDateFilters } from '../../src/domain/maintenance-date-filters.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';

const FIELDS = ['startsAt', 'endsAt'] as const;

describe('parseDateFilters', () => {
  it('reads bracketed and dotted operators of each field, leaving other parameters alone', () => {
    const { filters, issues } = parseDateFilters({
      'startsAt[gte]': '2030-01-01T00:00:00Z',
      'startsAt[lt]': '2030-02-01',
      'endsAt.lte': '2030-03-01T10:00:00+02:00',
      page: '2',
      'other[gt]': 'not looked at',
    }, FIELDS);
    expect(issues).toEqual([]);
    expect(filters).toEqual({
      startsAt: { gte: new Date('2030-01-01T00:00:00Z'), lt: new Date('2030-02-01T00:00:00Z') },
      endsAt: { lte: new Date('2030-03-01T08:00:00Z') },
    });
  });

  it('gives no filters for a query without any', () => {
    expect(parseDateFilters({ limit: '10' }, FIELDS)).toEqual({ filters: {}, issues: [] });
    expect(parseDateFilters(undefined, FIELDS)).toEqual({ filters: {}, issues: [] });
  });

  it.each([
    ['an unknown operator', { 'startsAt[eq]': '2030-01-01' }, 'startsAt.eq'],
    ['an empty operator', { 'endsAt[]': '2030-01-01' }, 'endsAt.'],
    ['a date that is not one', { 'endsAt[lt]': 'yesterday' }, 'endsAt.lt'],
    ['a day the month lacks', { 'startsAt[gt]': '2030-02-30' }, 'startsAt.gt'],
    ['a date-time without a zone', { 'startsAt[gt]': '2030-01-01T10:00:00' }, 'startsAt.gt'],
    ['a value given twice', { 'startsAt[gt]': ['2030-01-01', '2030-01-02'] }, 'startsAt.gt'],
    ['the same operator written twice', { 'startsAt[gt]': '2030-01-01', 'startsAt.gt': '2030-01-02' }, 'startsAt.gt'],
    ['the bare field, which names no comparison', { startsAt: '2030-01-01' }, 'startsAt'],
  ])('refuses %s, naming the key', (_what, query, key) => {
    const { filters, issues } = parseDateFilters(query, FIELDS);
    expect(issues.map((i) => i.key)).toEqual([key]);
    expect(filters).toEqual({});
  });

  it('never throws, and names only keys of the filtered fields, whatever the query holds', () => {
    const key = fc.oneof(
      fc.string(),
      fc.tuple(fc.constantFrom(...FIELDS), fc.string(), fc.constantFrom('[', '.')).map(([f, op, sep]) => (sep === '[' ? `${f}[${op}]` : `${f}.${op}`)),
      fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...DATE_OPERATORS)).map(([f, op]) => `${f}[${op}]`),
    );
    const val = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.jsonValue());
    fc.assert(fc.property(fc.dictionary(key, val), (query) => {
      const { filters, issues } = parseDateFilters(query, FIELDS);
      for (const issue of issues) expect(issue.key).toMatch(/^(startsAt|endsAt)(\..*)?$/);
      if (issues.length > 0) expect(filters).toEqual({});
      for (const constraint of Object.values(filters)) {
        for (const [op, d] of Object.entries(constraint ?? {})) {
          expect(DATE_OPERATORS).toContain(op);
          expect(Number.isNaN((d as Date).getTime())).toBe(false);
        }
      }
    }), fuzzParameters(500, 20260311));
  });

  it('reads back every constraint it is given as ISO date-times', () => {
    const constraint = fc.record(Object.fromEntries(DATE_OPERATORS.map((op) => [op, fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })])), { requiredKeys: [] });
    fc.assert(fc.property(fc.record({ startsAt: constraint, endsAt: constraint }, { requiredKeys: [] }), (wanted) => {
      const query: Record<string, string> = {};
      for (const [field, c] of Object.entries(wanted)) for (const [op, d] of Object.entries(c ?? {})) query[`${field}[${op}]`] = (d as Date).toISOString();
      const { filters, issues } = parseDateFilters(query, FIELDS);
      expect(issues).toEqual([]);
      for (const [field, c] of Object.entries(wanted)) {
        for (const [op, d] of Object.entries(c ?? {})) expect((filters as any)[field][op].getTime()).toBe((d as Date).getTime());
      }
    }), fuzzParameters(200, 20260311));
  });
});
