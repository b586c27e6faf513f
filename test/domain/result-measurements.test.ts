import { describe, expect, it } from 'vitest';
import { resultMeasurements } from '../../src/domain/result-measurements.js';

describe('resultMeasurements', () => {
  it('reads the status and timing phases of an API result, with wait as the time to first byte', () => {
    const apiCheckResult = { response: { status: 404, timingPhases: { dns: 1.5, tcp: 2, tls: 3, firstByte: 40, download: 5, total: 51.5 } } };
    expect(resultMeasurements({ apiCheckResult, details: null })).toEqual({
      statusCode: 404, dns: 1.5, tcp: 2, tls: 3, firstByte: 40, download: 5, wait: 40, sslDaysRemaining: null,
    });
  });

  it('reads the days left on the certificate the HTTP executor records', () => {
    expect(resultMeasurements({ details: { ssl: { daysRemaining: 4.5 } } }).sslDaysRemaining).toBe(4);
  });

  it('prefers a wait phase the executor reports, and reads details of other executors', () => {
    const details = { statusCode: 200, timingPhases: { dns: 1, tcp: 1, tls: 0, firstByte: 9, download: 1, wait: 2 }, sslDaysRemaining: 12.9 };
    expect(resultMeasurements({ details })).toMatchObject({ statusCode: 200, wait: 2, firstByte: 9, sslDaysRemaining: 12 });
  });

  it.each([
    ['no detail at all', {}],
    ['a request error without response', { apiCheckResult: { response: null, requestError: 'ECONNREFUSED' } }],
    ['values that are not numbers', { apiCheckResult: { response: { status: '200', timingPhases: { dns: 'fast', tcp: null } } } }],
    ['non-finite values', { details: { statusCode: Number.NaN, sslDaysRemaining: Number.POSITIVE_INFINITY } }],
  ])('answers nulls for %s', (_label, probe) => {
    expect(resultMeasurements(probe)).toEqual({
      statusCode: null, dns: null, tcp: null, tls: null, firstByte: null, download: null, wait: null, sslDaysRemaining: null,
    });
  });
});
