import { describe, expect, it } from 'vitest';
import { RECONNECT_MAX_MS, RECONNECT_MIN_MS, reconnectDelay } from '../../../web/src/shell/reconnect-delay.js';

describe('reconnect delays', () => {
  it('double from 1 s and stop growing at 30 s, however many attempts failed', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50, 10_000].map((n) => reconnectDelay(n, 0))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('are shortened by at most a quarter at random, never below zero nor above the cap', () => {
    for (const random of [0, 0.3, 0.999, 1, -1, 2]) {
      for (const attempt of [0, 3, 9]) {
        const wait = reconnectDelay(attempt, random);
        const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt);
        expect(wait).toBeGreaterThanOrEqual(base * 0.75);
        expect(wait).toBeLessThanOrEqual(base);
      }
    }
    expect(reconnectDelay(0, 1)).toBe(750);
  });
});
