import { describe, expect, it } from 'vitest';
import { certificateExpiry } from '../../../web/src/checks/certificate-expiry.js';

describe('certificate expiry', () => {
  it('is nothing for a check whose runs saw no certificate', () => {
    expect(certificateExpiry(null)).toBeNull();
    expect(certificateExpiry(undefined)).toBeNull();
    expect(certificateExpiry(Number.NaN)).toBeNull();
  });

  it.each<[number, string, string, string]>([
    [90, 'cert 90 d', 'expires in 90 days', 'passing'],
    [15, 'cert 15 d', 'expires in 15 days', 'passing'],
    [14, 'cert 14 d', 'expires in 14 days', 'degraded'],
    [1, 'cert 1 d', 'expires in 1 day', 'degraded'],
    [0, 'cert expires today', 'expires today', 'failing'],
    [-1, 'cert expired', 'expired 1 day ago', 'failing'],
    [-5, 'cert expired', 'expired 5 days ago', 'failing'],
  ])('%i days remaining reads "%s" / "%s" (%s)', (days, short, long, tone) => {
    expect(certificateExpiry(days)).toEqual({ short, long, tone });
  });
});
