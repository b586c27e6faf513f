import type { Issue } from './lookout-error.js';

/**
 * The earliest instant the store takes, 0001-01-01T00:00:00Z. ISO 8601 and Date allow the year 0000
 * (1 BC): PostgreSQL stores it as "0001 BC", but PGlite's driver sends it as ISO text that the
 * database refuses, so the same request was a 201 on one backend and a 500 on the other.
 */
export const FIRST_INSTANT_MS = Date.parse('0001-01-01T00:00:00Z');

/** The issue of an instant before FIRST_INSTANT_MS, keyed `key`; null for a later one or none. */
export function beforeYearOneIssue(key: string, instant: Date | null | undefined): Issue | null {
  return instant && instant.getTime() < FIRST_INSTANT_MS ? { key, message: 'must not be before 0001-01-01T00:00:00Z' } : null;
}
