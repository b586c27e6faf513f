import type { CheckType } from './catalog.js';

/** Per-run timings that analytics aggregate (ms). */
export const TIMING_METRICS = ['responseTime', 'wait', 'dns', 'tcp', 'firstByte', 'download'] as const;
export type TimingMetric = (typeof TIMING_METRICS)[number];

/** Suffixes of the aggregated forms (`responseTime_p95`). */
export const AGGREGATIONS = ['avg', 'max', 'median', 'min', 'p50', 'p90', 'p95', 'p99', 'stddev', 'sum'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** Every metric name of the spec: the base metrics, then each timing with each suffix. */
export const ANALYTICS_METRICS: readonly string[] = [
  ...TIMING_METRICS,
  'availability',
  'retries',
  ...TIMING_METRICS.flatMap((m) => AGGREGATIONS.map((a) => `${m}_${a}`)),
];

/** A metric name taken apart. A timing without suffix is its average. */
export type MetricSpec =
  | { name: string; kind: 'timing'; timing: TimingMetric; aggregation: Aggregation }
  | { name: string; kind: 'availability' }
  | { name: string; kind: 'retries' };

/** The metric `name` means, or undefined when it is not one of ANALYTICS_METRICS. */
export function parseMetric(name: string): MetricSpec | undefined {
  if (name === 'availability') return { name, kind: 'availability' };
  if (name === 'retries') return { name, kind: 'retries' };
  const [timing, aggregation, extra] = name.split('_');
  if (extra !== undefined || !(TIMING_METRICS as readonly string[]).includes(timing!)) return undefined;
  if (aggregation === undefined) return { name, kind: 'timing', timing: timing as TimingMetric, aggregation: 'avg' };
  if (!(AGGREGATIONS as readonly string[]).includes(aggregation)) return undefined;
  return { name, kind: 'timing', timing: timing as TimingMetric, aggregation: aggregation as Aggregation };
}

/**
 * Which timings each check type records: the HTTP phases only for API checks and URL monitors,
 * the response time for every type that runs, nothing for heartbeats (a ping has no duration).
 */
const TIMINGS_OF: Record<CheckType, readonly TimingMetric[]> = {
  API: TIMING_METRICS,
  URL: TIMING_METRICS,
  BROWSER: ['responseTime'],
  MULTI_STEP: ['responseTime'],
  TCP: ['responseTime'],
  DNS: ['responseTime'],
  ICMP: ['responseTime'],
  AGENTIC: ['responseTime'],
  PLAYWRIGHT: ['responseTime'],
  HEARTBEAT: [],
  SSL: ['responseTime'],
  TRACEROUTE: ['responseTime'],
  GRPC: ['responseTime'],
};

/** Whether `metric` says something about checks of `type` (heartbeats have no retries either). */
export function metricAppliesTo(metric: MetricSpec, type: CheckType): boolean {
  if (metric.kind === 'availability') return true;
  if (metric.kind === 'retries') return type !== 'HEARTBEAT';
  return TIMINGS_OF[type].includes(metric.timing);
}

/** The metric names valid for `type`, in ANALYTICS_METRICS order. */
export function metricsFor(type: CheckType): string[] {
  return ANALYTICS_METRICS.filter((name) => metricAppliesTo(parseMetric(name)!, type));
}

/** Path segment of `/v1/analytics/{segment}/{id}` per check type. */
export const ANALYTICS_ROUTE_SEGMENTS = {
  'api-checks': 'API',
  'browser-checks': 'BROWSER',
  'multistep-checks': 'MULTI_STEP',
  'tcp-checks': 'TCP',
  'url-monitors': 'URL',
  dns: 'DNS',
  icmp: 'ICMP',
  'heartbeat-checks': 'HEARTBEAT',
  ssl: 'SSL',
  traceroute: 'TRACEROUTE',
} as const satisfies Record<string, CheckType>;

/** Metrics of `POST /v1/analytics/checks` when the body names none (each kept where it applies). */
export const DEFAULT_SUMMARY_METRICS = ['availability', 'responseTime_avg', 'responseTime_p50', 'responseTime_p95', 'responseTime_p99'];

/** How a report describes a metric: `unit` is ms, percentage or count, as the checkly CLI reads it. */
export interface MetricMetadata {
  label: string;
  unit: 'ms' | 'percentage' | 'count';
  aggregation: Aggregation | 'percentage' | 'count';
}

const TIMING_LABELS: Record<TimingMetric, string> = {
  responseTime: 'Response time',
  wait: 'Wait (time to first byte)',
  dns: 'DNS lookup',
  tcp: 'TCP connect',
  firstByte: 'First byte',
  download: 'Download',
};

const AGGREGATION_LABELS: Record<Aggregation, string> = {
  avg: 'average', max: 'maximum', median: 'median', min: 'minimum', p50: 'p50', p90: 'p90', p95: 'p95', p99: 'p99',
  stddev: 'standard deviation', sum: 'sum',
};

/** Label, unit and aggregation of a metric. */
export function metricMetadata(metric: MetricSpec): MetricMetadata {
  if (metric.kind === 'availability') return { label: 'Availability', unit: 'percentage', aggregation: 'percentage' };
  if (metric.kind === 'retries') return { label: 'Retries', unit: 'count', aggregation: 'count' };
  return { label: `${TIMING_LABELS[metric.timing]} (${AGGREGATION_LABELS[metric.aggregation]})`, unit: 'ms', aggregation: metric.aggregation };
}
