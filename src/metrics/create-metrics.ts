import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { runOutcome, type RunFlags } from '../domain/run-outcome.js';
import { processRegistry } from './process-registry.js';

/**
 * Live figures the gauges read when scraped, from parts created after the metrics (the runner,
 * the graphql-ws server). A source not given yet reads as 0.
 */
export interface MetricsSources {
  /** The run queue (all processes: due runs waiting, leases held) and this process's runs in flight. */
  scheduler?: () => Promise<{ waiting: number; leased: number; inFlight: number }>;
  /** Open graphql-ws subscriptions. */
  graphqlSubscriptions?: () => number;
}

/** One recorded result, as the run counters read it. */
export interface RecordedRun {
  resultType: string;
  check: { checkType: string };
  probe: RunFlags & { startedAt: Date; stoppedAt: Date };
}

/** Seconds buckets of a check run: from a fast TCP probe to a long browser script with retries. */
const RUN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Seconds buckets of the start delay: the scheduler aims at well under a second. */
const DELAY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds buckets of one REST request or GraphQL operation. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus instruments of one Lookout instance, in a registry of its own (the test suites run
 * many instances in one process; prom-client's global registry would mix them). Every label has a
 * small fixed set of values: check types, outcomes, channel types, route patterns, event types;
 * never an account, a check, a URL or anything else a caller chooses. `exposition()` adds the
 * process's own metrics (processRegistry).
 */
export function createMetrics() {
  const registry = new Registry();
  let sources: MetricsSources = {};
  const registers = [registry];

  const checkRuns = new Counter({
    name: 'lookout_check_runs_total', help: 'FINAL check results recorded, by check type and outcome (passed, degraded, failed, error).',
    labelNames: ['check_type', 'outcome'] as const, registers,
  });
  const checkRunDuration = new Histogram({
    name: 'lookout_check_run_duration_seconds', help: 'Duration of the run behind each FINAL check result, by check type.',
    labelNames: ['check_type'] as const, buckets: RUN_BUCKETS, registers,
  });
  const runStartDelay = new Histogram({
    name: 'lookout_run_start_delay_seconds', help: 'Delay between the planned and the actual start of each scheduled run.',
    buckets: DELAY_BUCKETS, registers,
  });
  new Gauge({
    name: 'lookout_run_queue_depth', help: 'Scheduled runs queued (due) and not yet claimed by any runner process.', registers,
    async collect() {
      this.set((await sources.scheduler?.())?.waiting ?? 0);
    },
  });
  new Gauge({
    name: 'lookout_run_leases_held', help: 'Scheduled runs leased to runner processes now (all processes).', registers,
    async collect() {
      this.set((await sources.scheduler?.())?.leased ?? 0);
    },
  });
  new Gauge({
    name: 'lookout_runs_in_flight', help: 'Scheduled runs this process executes now.', registers,
    async collect() {
      this.set((await sources.scheduler?.())?.inFlight ?? 0);
    },
  });
  const alertDeliveries = new Counter({
    name: 'lookout_alert_deliveries_total', help: 'Alert delivery attempts, by channel type and outcome (sent, failed).',
    labelNames: ['channel_type', 'outcome'] as const, registers,
  });
  const httpRequestDuration = new Histogram({
    name: 'lookout_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern ("unmatched" without a route) and status class.',
    labelNames: ['method', 'route', 'status_class'] as const, buckets: REQUEST_BUCKETS, registers,
  });
  const graphqlOperationDuration = new Histogram({
    name: 'lookout_graphql_operation_duration_seconds',
    help: 'Time to answer GraphQL operations over HTTP, by operation type ("unknown" when it never parsed) and outcome (success, error).',
    labelNames: ['operation_type', 'outcome'] as const, buckets: REQUEST_BUCKETS, registers,
  });
  new Gauge({
    name: 'lookout_graphql_subscriptions_active', help: 'GraphQL subscriptions open over graphql-ws.', registers,
    collect() {
      this.set(sources.graphqlSubscriptions?.() ?? 0);
    },
  });
  const eventBusPublished = new Counter({
    name: 'lookout_event_bus_published_total', help: 'Events this process published on the event bus, by type.',
    labelNames: ['type'] as const, registers,
  });

  return {
    registry,
    checkRuns,
    checkRunDuration,
    runStartDelay,
    alertDeliveries,
    httpRequestDuration,
    graphqlOperationDuration,
    eventBusPublished,
    /** The exposition format's content type (text/plain; version=0.0.4). */
    contentType: registry.contentType,

    /** Connects the gauges to the parts they read (called again, it adds or replaces sources). */
    watch(more: MetricsSources): void {
      sources = { ...sources, ...more };
    },

    /** Counts a recorded result: FINAL ones only (an ATTEMPT is a step of a run, not a run). */
    runRecorded(run: RecordedRun): void {
      if (run.resultType !== 'FINAL') return;
      const type = run.check.checkType;
      checkRuns.inc({ check_type: type, outcome: runOutcome(run.probe) });
      checkRunDuration.observe({ check_type: type }, Math.max(0, run.probe.stoppedAt.getTime() - run.probe.startedAt.getTime()) / 1000);
    },

    /** Observes a scheduled run's start delay, in ms (a clock step back reads as 0). */
    startDelay(delayMs: number): void {
      runStartDelay.observe(Math.max(0, delayMs) / 1000);
    },

    /** Counts one completed alert delivery attempt. */
    deliveryAttempted(attempt: { channelType: string; ok: boolean }): void {
      alertDeliveries.inc({ channel_type: attempt.channelType, outcome: attempt.ok ? 'sent' : 'failed' });
    },

    /** Everything in the Prometheus text format: this instance's series, then the process's. */
    async exposition(): Promise<string> {
      return Registry.merge([registry, processRegistry()]).metrics();
    },

    /** Drops the instruments and the sources (the runner and sockets they read are closing). */
    close(): void {
      sources = {};
      registry.clear();
    },
  };
}
/** The metrics of one Lookout instance. */
export type Metrics = ReturnType<typeof createMetrics>;
