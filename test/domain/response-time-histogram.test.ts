import { describe, expect, it } from 'vitest';
import {
  addHistograms, estimatePercentile, histogramBucket, histogramOf, RESPONSE_TIME_BOUNDS,
} from '../../src/domain/response-time-histogram.js';
import { exactPercentile, percentileTolerance } from '../support/percentile-tolerance.js';
import { mergeRollups, rollupAnswers, rollupMetricValue, type ResultRollup } from '../../src/domain/result-rollup.js';
import { parseMetric } from '../../src/domain/analytics-metrics.js';

function rollupOf(times: number[], failures = 0, attempts = 0): ResultRollup {
  return {
    finalCount: times.length, failureCount: failures, degradedCount: 0, attemptCount: attempts,
    responseTimeSum: times.reduce((s, t) => s + t, 0), responseTimeSumSq: times.reduce((s, t) => s + t * t, 0),
    responseTimeMin: times.length ? Math.min(...times) : null, responseTimeMax: times.length ? Math.max(...times) : null,
    responseTimeHistogram: histogramOf(times),
  };
}

describe('response time histogram', () => {
  it.each([
    [-1, 0], [0, 0], [4.99, 0], [5, 1], [100, 7], [299_999, RESPONSE_TIME_BOUNDS.length - 2], [1e9, RESPONSE_TIME_BOUNDS.length - 1],
  ])('counts %d ms in bucket %d (lower bound inclusive, upper exclusive)', (ms, bucket) => {
    expect(histogramBucket(ms)).toBe(bucket);
  });

  it('adds histograms bucket by bucket', () => {
    expect(addHistograms(histogramOf([1, 120]), histogramOf([2, 7000]))).toEqual(histogramOf([1, 2, 120, 7000]));
  });

  it.each([
    ['a spread of response times', Array.from({ length: 500 }, (_v, i) => 40 + ((i * 7919) % 997) + (i % 50 === 0 ? 4000 : 0))],
    ['a few slow outliers far from the rest', [...Array.from({ length: 22 }, (_v, i) => 100 + i * 20), 3040, 3653]],
    ['a single run', [250]],
  ])('estimates each percentile of %s within the buckets of the values it lies between', (_name, times) => {
    for (const fraction of [0.5, 0.9, 0.95, 0.99]) {
      const exact = exactPercentile(times, fraction);
      const estimate = estimatePercentile(histogramOf(times), fraction, Math.min(...times), Math.max(...times))!;
      expect(Math.abs(estimate - exact), `p${fraction * 100}`).toBeLessThanOrEqual(percentileTolerance(times, fraction));
    }
  });

  it('stays within the observed minimum and maximum, and has nothing to say without runs', () => {
    expect(estimatePercentile(histogramOf([120, 121, 122]), 0.99, 120, 122)).toBeLessThanOrEqual(122);
    expect(estimatePercentile(histogramOf([120, 121, 122]), 0, 120, 122)).toBeGreaterThanOrEqual(120);
    expect(estimatePercentile(histogramOf([]), 0.5, 0, 0)).toBeNull();
  });
});

describe('result roll-ups', () => {
  const value = (r: ResultRollup, name: string) => rollupMetricValue(r, parseMetric(name)!);

  it('answer exactly what raw results say for counts, availability and sums, merged or not', () => {
    const a = rollupOf([100, 200, 300], 1, 2);
    const b = rollupOf([50], 0, 1);
    const all = mergeRollups(a, b);
    expect(value(all, 'availability')).toBe(75);
    expect(value(all, 'retries')).toBe(3);
    expect(value(all, 'responseTime')).toBe(162.5);
    expect(value(all, 'responseTime_sum')).toBe(650);
    expect(value(all, 'responseTime_min')).toBe(50);
    expect(value(all, 'responseTime_max')).toBe(300);
    // stddev_samp of 50, 100, 200, 300
    expect(value(all, 'responseTime_stddev')).toBeCloseTo(110.87, 2);
  });

  it('have no value without FINAL runs, except retries which count 0 or more', () => {
    const none = rollupOf([], 0, 2);
    expect(value(none, 'availability')).toBeNull();
    expect(value(none, 'responseTime_p95')).toBeNull();
    expect(value(none, 'retries')).toBe(2);
  });

  it.each([
    ['availability', true], ['retries', true], ['responseTime', true], ['responseTime_p99', true], ['dns', false], ['wait_avg', false],
  ])('can answer %s: %s', (name, answers) => {
    expect(rollupAnswers(parseMetric(name)!)).toBe(answers);
  });
});
