import { describe, expect, it } from 'vitest';
import { nextRetry, retryDelaySeconds, type RetryInput, type RetryStrategy } from '../../src/domain/retry-schedule.js';

const strategy = (over: Partial<RetryStrategy> = {}): RetryStrategy => ({
  type: 'FIXED', baseBackoffSeconds: 10, maxRetries: 3, maxDurationSeconds: 600, sameRegion: true, onlyOn: null, ...over,
});
const LOCATIONS = ['us-east-1', 'eu-west-1', 'ap-south-1'];
const input = (over: Partial<RetryInput> = {}): RetryInput => ({
  attempt: 1,
  elapsedMs: 2_000,
  lastResult: { networkError: false, hasFailures: true },
  lastLocation: 'eu-west-1',
  locations: LOCATIONS,
  ...over,
});

describe('retry delays', () => {
  it.each([
    ['FIXED', [10, 10, 10, 10, 10]],
    ['LINEAR', [10, 20, 30, 40, 50]],
    ['EXPONENTIAL', [10, 20, 40, 80, 160]],
    ['SINGLE_RETRY', [10, 10, 10, 10, 10]],
  ] as const)('a %s strategy with a base of 10 s waits %j before retries 1 to 5', (type, delays) => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelaySeconds(strategy({ type }), n))).toEqual(delays);
  });

  it('uses the default base of 60 s when the strategy has none', () => {
    expect(retryDelaySeconds({ type: 'EXPONENTIAL' }, 3)).toBe(240);
  });

  it('treats a retry number below 1 as the first retry', () => {
    expect(retryDelaySeconds(strategy({ type: 'EXPONENTIAL' }), 0)).toBe(10);
  });

  it('waits nothing with a base of 0', () => {
    expect(retryDelaySeconds(strategy({ type: 'LINEAR', baseBackoffSeconds: 0 }), 4)).toBe(0);
  });
});

describe('whether and where to retry', () => {
  it.each([
    { name: 'a check without a retry strategy never retries', s: null, i: input(), expected: { retry: false, reason: 'NO_STRATEGY' } },
    { name: 'an undefined retry strategy never retries', s: undefined, i: input(), expected: { retry: false, reason: 'NO_STRATEGY' } },
    { name: 'an attempt that passed is final', s: strategy(), i: input({ lastResult: { networkError: false, hasFailures: false } }), expected: { retry: false, reason: 'PASSED' } },
    { name: 'a failed first attempt is retried after the base delay in the same location', s: strategy(), i: input(), expected: { retry: true, delayMs: 10_000, location: 'eu-west-1' } },
    { name: 'an assertion failure is not retried when only network errors are', s: strategy({ onlyOn: ['NETWORK_ERROR'] }), i: input(), expected: { retry: false, reason: 'NOT_NETWORK_ERROR' } },
    { name: 'a network error is retried when only network errors are', s: strategy({ onlyOn: ['NETWORK_ERROR'] }), i: input({ lastResult: { networkError: true, hasFailures: true } }), expected: { retry: true, delayMs: 10_000, location: 'eu-west-1' } },
    { name: 'an empty onlyOn list retries any failure', s: strategy({ onlyOn: [] }), i: input(), expected: { retry: true, delayMs: 10_000, location: 'eu-west-1' } },
    { name: 'the last allowed retry is still made', s: strategy({ maxRetries: 3 }), i: input({ attempt: 3 }), expected: { retry: true, delayMs: 10_000, location: 'eu-west-1' } },
    { name: 'no retry is made beyond maxRetries', s: strategy({ maxRetries: 3 }), i: input({ attempt: 4 }), expected: { retry: false, reason: 'MAX_RETRIES' } },
    { name: 'a single retry strategy retries once', s: strategy({ type: 'SINGLE_RETRY', maxRetries: 5 }), i: input(), expected: { retry: true, delayMs: 10_000, location: 'eu-west-1' } },
    { name: 'a single retry strategy never retries twice whatever maxRetries says', s: strategy({ type: 'SINGLE_RETRY', maxRetries: 5 }), i: input({ attempt: 2 }), expected: { retry: false, reason: 'MAX_RETRIES' } },
    { name: 'the default of two retries applies when maxRetries is unset', s: { type: 'FIXED', baseBackoffSeconds: 1 } as RetryStrategy, i: input({ attempt: 3 }), expected: { retry: false, reason: 'MAX_RETRIES' } },
    { name: 'an exponential third retry waits four times the base', s: strategy({ type: 'EXPONENTIAL', maxRetries: 5 }), i: input({ attempt: 3, elapsedMs: 40_000 }), expected: { retry: true, delayMs: 40_000, location: 'eu-west-1' } },
    { name: 'a linear second retry waits twice the base', s: strategy({ type: 'LINEAR' }), i: input({ attempt: 2, elapsedMs: 15_000 }), expected: { retry: true, delayMs: 20_000, location: 'eu-west-1' } },
    { name: 'a retry starting exactly at the max duration is made', s: strategy({ maxDurationSeconds: 30 }), i: input({ elapsedMs: 20_000 }), expected: { retry: true, delayMs: 10_000, location: 'eu-west-1' } },
    { name: 'a retry that would start after the max duration is not made', s: strategy({ maxDurationSeconds: 30 }), i: input({ elapsedMs: 20_001 }), expected: { retry: false, reason: 'MAX_DURATION' } },
    { name: 'the run time of the attempts counts against the max duration', s: strategy({ maxDurationSeconds: 60, baseBackoffSeconds: 5 }), i: input({ elapsedMs: 58_000 }), expected: { retry: false, reason: 'MAX_DURATION' } },
    { name: 'a max duration of 0 allows no waiting retry', s: strategy({ maxDurationSeconds: 0 }), i: input({ elapsedMs: 0 }), expected: { retry: false, reason: 'MAX_DURATION' } },
    { name: 'the max-retries limit is checked before the max duration', s: strategy({ maxRetries: 1, maxDurationSeconds: 0 }), i: input({ attempt: 2 }), expected: { retry: false, reason: 'MAX_RETRIES' } },
    { name: 'the network-error rule is checked before the retry limit', s: strategy({ onlyOn: ['NETWORK_ERROR'], maxRetries: 1 }), i: input({ attempt: 2 }), expected: { retry: false, reason: 'NOT_NETWORK_ERROR' } },
    { name: 'other regions retry in the next location', s: strategy({ sameRegion: false }), i: input(), expected: { retry: true, delayMs: 10_000, location: 'ap-south-1' } },
    { name: 'other regions wrap around to the first location', s: strategy({ sameRegion: false }), i: input({ lastLocation: 'ap-south-1' }), expected: { retry: true, delayMs: 10_000, location: 'us-east-1' } },
    { name: 'other regions start at the first location when the last is not in the list', s: strategy({ sameRegion: false }), i: input({ lastLocation: 'private-dc' }), expected: { retry: true, delayMs: 10_000, location: 'us-east-1' } },
    { name: 'other regions skip a duplicate of the last location', s: strategy({ sameRegion: false }), i: input({ lastLocation: 'a', locations: ['a', 'a', 'b'] }), expected: { retry: true, delayMs: 10_000, location: 'b' } },
    { name: 'other regions stay in the only location there is', s: strategy({ sameRegion: false }), i: input({ lastLocation: 'us-east-1', locations: ['us-east-1'] }), expected: { retry: true, delayMs: 10_000, location: 'us-east-1' } },
    { name: 'other regions stay put without a location list', s: strategy({ sameRegion: false }), i: input({ locations: [] }), expected: { retry: true, delayMs: 10_000, location: 'eu-west-1' } },
    { name: 'the same region is the default', s: { type: 'FIXED', baseBackoffSeconds: 1 } as RetryStrategy, i: input(), expected: { retry: true, delayMs: 1_000, location: 'eu-west-1' } },
  ])('$name', ({ s, i, expected }) => {
    expect(nextRetry(s, i)).toEqual(expected);
  });

  it('walks the locations round-robin over successive retries', () => {
    const s = strategy({ sameRegion: false, maxRetries: 10, maxDurationSeconds: 600 });
    let location = 'us-east-1';
    const visited: string[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const decision = nextRetry(s, input({ attempt, lastLocation: location, elapsedMs: attempt * 1000 }));
      if (!decision.retry) throw new Error(`no retry: ${decision.reason}`);
      location = decision.location;
      visited.push(location);
    }
    expect(visited).toEqual(['eu-west-1', 'ap-south-1', 'us-east-1', 'eu-west-1']);
  });
});
