import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from '../../../web/src/shared/relative-time.js';

const NOW = new Date('2026-11-24T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

describe('relative times', () => {
  it.each<[string | null | undefined, string]>([
    [null, 'never'], [undefined, 'never'], ['not a date', 'never'],
    [ago(2), 'just now'], [ago(-3), 'just now'],
    [ago(30), '30 seconds ago'], [ago(60), '1 minute ago'], [ago(150), '2 minutes ago'],
    [ago(3 * 3600), '3 hours ago'], [ago(2 * 86_400), '2 days ago'], [ago(-7200), 'in 2 hours'],
    [ago(60 * 86_400), '2 months ago'], [ago(800 * 86_400), '2 years ago'],
  ])('writes %s as "%s"', (at, text) => {
    expect(formatRelativeTime(at, NOW)).toBe(text);
  });

  it('takes Date objects as well as ISO strings', () => {
    expect(formatRelativeTime(new Date(NOW.getTime() - 5 * 60_000), NOW)).toBe('5 minutes ago');
  });
});
