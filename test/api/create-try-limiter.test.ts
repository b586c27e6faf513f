import { describe, expect, it } from 'vitest';
import { createTryLimiter } from '../../src/api/create-try-limiter.js';

describe('the try limiter', () => {
  it('lets a key try max times per window, then makes it wait until the window ends', () => {
    let now = 0;
    const tries = createTryLimiter({ max: 3, windowMs: 60_000, now: () => now });
    expect([tries.count('a'), tries.count('a'), tries.count('a')]).toEqual([false, false, true]);
    expect(tries.retryAfter('a')).toBe(60);
    expect(tries.retryAfter('b')).toBe(0);
    now = 59_001;
    expect(tries.retryAfter('a')).toBe(1);
    now = 60_000;
    expect(tries.retryAfter('a')).toBe(0);
    expect(tries.count('a')).toBe(false);
  });

  it('remembers at most maxKeys keys, forgetting the least recently tried', () => {
    const tries = createTryLimiter({ max: 1, windowMs: 60_000, maxKeys: 100, now: () => 0 });
    for (let i = 0; i < 1_000; i++) tries.count(`client-${i}`);
    expect(tries.size).toBe(100);
    expect(tries.retryAfter('client-999')).toBe(60);
    expect(tries.retryAfter('client-0')).toBe(0);
  });
});
