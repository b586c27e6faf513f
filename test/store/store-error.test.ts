import { describe, expect, it } from 'vitest';
import { LookoutError } from '../../src/domain/lookout-error.js';
import { isRetryableConflict, toStoreError } from '../../src/store/store-error.js';

const driverError = (props: Record<string, unknown>) => Object.assign(new Error(String(props.message ?? 'driver error')), props);
const codeOf = (err: unknown) => (err instanceof LookoutError ? err.code : undefined);

describe('store errors', () => {
  it.each([
    ['a refused connection', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ['a reset connection', { code: 'ECONNRESET', message: 'read ECONNRESET' }],
    ['a fast shutdown (57P01 admin_shutdown)', { code: '57P01', message: 'terminating connection due to administrator command' }],
    ['a server still starting (57P03)', { code: '57P03', message: 'the database system is starting up' }],
    ['a connection exception (08006)', { code: '08006', message: 'connection failure' }],
    ['a connection ended without a code', { message: 'Connection terminated unexpectedly' }],
    ['a pool that could not connect in time', { message: 'timeout exceeded when trying to connect' }],
  ])('makes %s DATABASE_UNAVAILABLE with a retry delay, keeping the driver error as its cause', (_what, props) => {
    const original = driverError(props);
    const err = toStoreError(original) as LookoutError;
    expect(codeOf(err)).toBe('DATABASE_UNAVAILABLE');
    expect(err.retryAfter).toBeGreaterThan(0);
    expect(err.attributes).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    expect(err.cause).toBe(original);
  });

  it('makes a full disk (53100 from PostgreSQL and PGlite) STORAGE_FULL naming the cause', () => {
    const err = toStoreError(driverError({ code: '53100', message: 'could not extend file "base/5/16385": No space left on device' })) as LookoutError;
    expect(codeOf(err)).toBe('STORAGE_FULL');
    expect(err.message).toContain('No space left on device');
    expect(err.attributes).toMatchObject({ code: 'STORAGE_FULL', cause: 'could not extend file "base/5/16385": No space left on device' });
  });

  it('leaves the server\'s answers to a statement as they are', () => {
    for (const code of ['23505', '40P01', '42P01', '57014']) {
      const original = driverError({ code, message: 'terminating connection is not the point here' });
      expect(toStoreError(original)).toBe(original);
    }
    const coded = new LookoutError('NOT_FOUND', 'gone');
    expect(toStoreError(coded)).toBe(coded);
  });

  it('retries deadlocks and serialization failures only', () => {
    expect(isRetryableConflict(driverError({ code: '40P01' }))).toBe(true);
    expect(isRetryableConflict(driverError({ code: '40001' }))).toBe(true);
    expect(isRetryableConflict(driverError({ code: '23505' }))).toBe(false);
    expect(isRetryableConflict(undefined)).toBe(false);
  });
});
