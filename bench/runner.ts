/**
 * Runner benchmark: `npx tsx bench/runner.ts [--checks 10000] [--duration 300] [--backend pglite|postgres]
 * [--concurrency 500]` and `npx tsx bench/runner.ts --ingest [--duration 20] [--backend postgres]`.
 *
 * Scheduled mode seeds N API checks at frequency 1 (phases spread by id, as in production) against
 * a local HTTP target running in a child process, runs the real scheduler, API executor and result
 * recorder for --duration seconds and reports the start delay (actual minus planned start) and
 * results stored per second. "Sustained" means p99 start delay under 1 s with no growing backlog.
 *
 * Ingest mode measures the recorder alone: FINAL results of synthetic probes written as fast as
 * 50 concurrent writers can, the number that bounds every runner.
 *
 * Loopback only; bounded in time; stops by itself.
 */
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { withCheckDefaults } from '../src/domain/check-defaults.js';
import type { ProbeResult } from '../src/domain/check-result.js';
import { createMemoryEventBus } from '../src/events/create-memory-event-bus.js';
import { createRunner } from '../src/runner/create-runner.js';
import { runApiCheck } from '../src/runner/executors/run-api-check.js';
import { toRunnable } from '../src/runner/prepare-run.js';
import { createRunRecorder } from '../src/runner/create-run-recorder.js';
import { createStore, type StoreOptions } from '../src/store/create-store.js';
import { dropBenchSchema } from './bench-backends.js';

const { values: args } = parseArgs({
  options: {
    checks: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '300' },
    backend: { type: 'string', default: 'pglite' },
    concurrency: { type: 'string', default: '500' },
    ingest: { type: 'boolean', default: false },
  },
});
const durationS = Number(args.duration);
const logger = pino({ level: 'warn' });

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function openStore(): Promise<{ options: StoreOptions; cleanup(): Promise<void> }> {
  if (args.backend === 'postgres') {
    const url = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('--backend postgres needs DATABASE_URL or TEST_DATABASE_URL');
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    return {
      options: { databaseUrl: url, schema, poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10) },
      cleanup: () => dropBenchSchema(url, schema),
    };
  }
  return { options: {}, cleanup: async () => {} };
}

/** The HTTP target runs in its own process so it does not share the runner's event loop. */
async function startTarget(): Promise<{ url: string; stop(): void }> {
  const child = fork(fileURLToPath(new URL('./runner-target.mjs', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  return { url: `http://127.0.0.1:${port}/ok`, stop: () => child.kill() };
}

async function scheduled(): Promise<void> {
  const n = Number(args.checks);
  const { options, cleanup } = await openStore();
  const store = await createStore(options);
  const target = await startTarget();
  const account = await store.accounts.create({ name: 'bench' });
  process.stdout.write(`seeding ${n} API checks (frequency 1) on ${args.backend}...\n`);
  for (let i = 0; i < n; i += 500) {
    await store.transaction(async (repos) => {
      for (let j = i; j < Math.min(n, i + 500); j++) {
        const data = withCheckDefaults('API', { name: `bench ${j}`, frequency: 1, locations: ['eu-west-1'], request: { url: target.url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } }, '');
        await repos.checks.insert(account.id, { id: randomUUID(), checkType: 'API', data });
      }
    });
  }
  const bus = createMemoryEventBus();
  const recorder = createRunRecorder({ store, bus, logger });
  const delays: number[] = [];
  let stored = 0;
  let failed = 0;
  bus.subscribe('checkResultCreated', (e) => {
    stored++;
    if (e.result.hasFailures) failed++;
  });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const runner = createRunner({
    store, logger, record: (input) => recorder.record(input), executors: { API: runApiCheck },
    concurrency: Number(args.concurrency), refreshMs: 3_600_000, onStartDelay: (d) => delays.push(d),
  });
  await runner.startScheduling();
  runner.startWorking();
  const started = Date.now();
  process.stdout.write(`running for ${durationS} s; one progress line every 15 s\n`);
  let lastStored = 0;
  while (Date.now() - started < durationS * 1000) {
    await new Promise((r) => setTimeout(r, Math.min(15_000, durationS * 1000 - (Date.now() - started))));
    const window = delays.slice(-20_000).sort((a, b) => a - b);
    const s = runner.scheduler.stats();
    process.stdout.write(
      `  t=${Math.round((Date.now() - started) / 1000)}s results=${stored} (+${stored - lastStored}) failed=${failed} ` +
        `inFlight=${s.inFlight} waiting=${s.waiting} startDelay p50=${percentile(window, 50).toFixed(0)}ms p99=${percentile(window, 99).toFixed(0)}ms ` +
        `loopLag p99=${(loop.percentile(99) / 1e6).toFixed(0)}ms\n`,
    );
    lastStored = stored;
  }
  await runner.close();
  target.stop();
  const all = delays.sort((a, b) => a - b);
  // The first minute fills the schedule; measure the steady state after it.
  const elapsed = (Date.now() - started) / 1000;
  process.stdout.write(
    `\nRESULT backend=${args.backend} checks=${n} duration=${elapsed.toFixed(0)}s runs=${all.length} results=${stored} ` +
      `(${(stored / elapsed).toFixed(1)}/s, expected ${(n / 60).toFixed(1)}/s) failed=${failed} ` +
      `startDelay p50=${percentile(all, 50).toFixed(0)}ms p99=${percentile(all, 99).toFixed(0)}ms max=${all.at(-1)?.toFixed(0)}ms ` +
      `overlapsSkipped=${runner.scheduler.stats().overlapsSkipped}\n`,
  );
  await store.close();
  await cleanup();
}

async function ingest(): Promise<void> {
  const { options, cleanup } = await openStore();
  const store = await createStore(options);
  const account = await store.accounts.create({ name: 'ingest' });
  const checks: ReturnType<typeof toRunnable>[] = [];
  for (let i = 0; i < 100; i++) {
    const id = randomUUID();
    const data = withCheckDefaults('API', { name: `ingest ${i}`, request: { url: 'http://127.0.0.1/' } }, '');
    await store.checks.insert(account.id, { id, checkType: 'API', data });
    checks.push(toRunnable({ ...(await store.runner.check(id))! }));
  }
  const recorder = createRunRecorder({ store, bus: createMemoryEventBus(), logger });
  const probe = (): ProbeResult => {
    const at = new Date();
    return {
      startedAt: at, stoppedAt: at, responseTime: 42, hasFailures: false, hasErrors: false, isDegraded: false, overMaxResponseTime: false,
      errors: [], assertions: [], networkError: false,
      apiCheckResult: { response: { status: 200, timingPhases: { dns: 1, tcp: 1, tls: 0, firstByte: 20, download: 1, total: 42 } } },
      details: { statusCode: 200, timingPhases: { dns: 1, tcp: 1, tls: 0, firstByte: 20, download: 1, total: 42, wait: 20 } },
    };
  };
  let done = 0;
  const deadline = Date.now() + durationS * 1000;
  process.stdout.write(`ingesting FINAL results on ${args.backend} for ${durationS} s with 50 writers...\n`);
  await Promise.all(Array.from({ length: 50 }, async (_, w) => {
    while (Date.now() < deadline) {
      const check = checks[(done + w) % checks.length]!;
      await recorder.record({ check, location: 'eu-west-1', sequenceId: randomUUID(), attempts: 1, resultType: 'FINAL', probe: probe() });
      done++;
    }
  }));
  process.stdout.write(`RESULT ingest backend=${args.backend} results=${done} rate=${(done / durationS).toFixed(0)}/s\n`);
  await store.close();
  await cleanup();
}

await (args.ingest ? ingest() : scheduled());
process.exit(0);
