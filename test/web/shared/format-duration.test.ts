import { describe, expect, it } from 'vitest';
import { formatDuration, formatPercent, percentileLabel } from '../../../web/src/shared/format-duration.js';

describe('formatting durations and percentiles', () => {
  it.each<[number | null | undefined, string]>([
    [null, '–'], [undefined, '–'], [Number.NaN, '–'],
    [0, '0 ms'], [12.4, '12 ms'], [999.4, '999 ms'],
    [1000, '1 s'], [1250, '1.25 s'], [1500, '1.5 s'], [12_500, '12.5 s'], [59_940, '59.9 s'],
    [60_000, '1 min'], [125_000, '2 min 5 s'], [3_600_000, '1 h'], [3_780_000, '1 h 3 min'],
    [-250, '-250 ms'],
  ])('writes %s ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each<[number | null, string]>([[null, '–'], [100, '100 %'], [0, '0 %'], [99.95, '99.95 %'], [99.5, '99.5 %'], [33.3333, '33.33 %']])(
    'writes availability %s as %s', (value, text) => {
      expect(formatPercent(value)).toBe(text);
    },
  );

  it.each([['responseTime_p95', 'p95'], ['responseTime_p50', 'p50'], ['dns_median', 'median'], ['availability', 'availability']])(
    'labels the metric %s as %s', (metric, label) => {
      expect(percentileLabel(metric)).toBe(label);
    },
  );
});
