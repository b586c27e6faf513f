import { describe, expect, it } from 'vitest';
import { healthLabel, healthTone } from '../../../web/src/checks/health.js';

describe('check health as shown', () => {
  it.each([['PASSING', 'passing', 'Passing'], ['DEGRADED', 'degraded', 'Degraded'], ['FAILING', 'failing', 'Failing'], [null, 'unknown', 'No results yet']])(
    'shows %s with the tone %s and the words %s', (health, tone, label) => {
      expect(healthTone(health)).toBe(tone);
      expect(healthLabel(health)).toBe(label);
    },
  );
});
