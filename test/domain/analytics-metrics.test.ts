import { describe, expect, it } from 'vitest';
import { ANALYTICS_METRICS, metricAppliesTo, metricMetadata, metricsFor, parseMetric } from '../../src/domain/analytics-metrics.js';

describe('analytics metrics', () => {
  it('has the 8 base metrics and the 10 suffixed forms of each of the 6 timings', () => {
    expect(ANALYTICS_METRICS).toHaveLength(68);
    expect(new Set(ANALYTICS_METRICS).size).toBe(68);
    for (const name of ANALYTICS_METRICS) expect(parseMetric(name)?.name).toBe(name);
  });

  it.each([
    ['responseTime', { kind: 'timing', timing: 'responseTime', aggregation: 'avg' }],
    ['firstByte_p99', { kind: 'timing', timing: 'firstByte', aggregation: 'p99' }],
    ['availability', { kind: 'availability' }],
    ['retries', { kind: 'retries' }],
  ])('reads %s', (name, spec) => {
    expect(parseMetric(name)).toEqual({ name, ...spec });
  });

  it.each(['', 'latency', 'responseTime_p42', 'availability_avg', 'retries_sum', 'dns_avg_max', 'ResponseTime'])('does not know %j', (name) => {
    expect(parseMetric(name)).toBeUndefined();
  });

  it.each([
    ['API', 'dns_p95', true],
    ['URL', 'download', true],
    ['BROWSER', 'dns_p95', false],
    ['BROWSER', 'responseTime_p95', true],
    ['TCP', 'tcp_avg', false],
    ['HEARTBEAT', 'responseTime', false],
    ['HEARTBEAT', 'retries', false],
    ['HEARTBEAT', 'availability', true],
    ['ICMP', 'retries', true],
  ] as const)('for %s checks, %s applies: %s', (type, name, applies) => {
    expect(metricAppliesTo(parseMetric(name)!, type)).toBe(applies);
  });

  it('lists per type only metrics that apply', () => {
    expect(metricsFor('HEARTBEAT')).toEqual(['availability']);
    expect(metricsFor('DNS')).toHaveLength(13);
  });

  it('describes metrics with a label and the unit the checkly CLI formats by', () => {
    expect(metricMetadata(parseMetric('tcp_stddev')!)).toEqual({ label: 'TCP connect (standard deviation)', unit: 'ms', aggregation: 'stddev' });
    expect(metricMetadata(parseMetric('availability')!).unit).toBe('percentage');
  });
});
