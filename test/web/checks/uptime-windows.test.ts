import { describe, expect, it } from 'vitest';
import { availabilityOf, uptimeFigures } from '../../../web/src/checks/uptime-windows.js';

const summary = (value: number | null) => ({ values: [{ metric: 'responseTime_avg', value: 120 }, { metric: 'availability', value }] });

describe('uptime windows', () => {
  it('read the availability of a summary; nothing without runs or analytics', () => {
    expect(availabilityOf(summary(99.5))).toBe(99.5);
    expect(availabilityOf(summary(null))).toBeNull();
    expect(availabilityOf({ values: [] })).toBeNull();
    expect(availabilityOf(null)).toBeNull();
  });

  it('show 24 h, 7 d and 30 d in that order, a dash where a window has no runs', () => {
    expect(uptimeFigures({ uptime24h: summary(100), uptime7d: summary(99.254), uptime30d: null }).map((f) => [f.label, f.text]))
      .toEqual([['24 h', '100 %'], ['7 d', '99.25 %'], ['30 d', '–']]);
  });
});
