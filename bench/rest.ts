/**
 * REST read-path benchmark: `npm run bench:rest -- [--duration 10] [--connections 50]
 * [--backends pglite-memory,pglite-disk,postgres] [--scenarios single,list,session,health] [--cpu-prof <dir>]`.
 *
 * For each storage backend it starts a server seeded with 1,000 checks and drives two scenarios
 * with autocannon over loopback: GET /v1/checks/{id} (rotating over every seeded id, so no single
 * row is hot), GET /v1/checks?limit=100, and the first again with the owner's console session
 * cookie instead of the key (a session is read from the store on every request). PostgreSQL runs when DATABASE_URL or TEST_DATABASE_URL
 * is set, in a fresh schema dropped afterwards. Each scenario is bounded by --duration; the process
 * exits 0, or 1 when any answer was non-2xx, a connection broke or a backend could not be measured
 * (requests left unanswered for 10 s are reported as timeouts: a performance result, not a failure).
 *
 * The server runs in a child process, not beside autocannon: both are single-threaded, and on a
 * two-core machine a load generator sharing the server's event loop takes a large share of it and
 * understates what the server does alone. With two processes each gets a core (PGlite still runs
 * inside the server process, PostgreSQL gets whatever is left), which is also how it is deployed.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type AutocannonRequest, type Result } from 'autocannon';
import type { StoreOptions } from '../src/store/create-store.js';
import type { ReadyMessage } from './rest-server.js';
import { benchBackends, type BackendRun } from './bench-backends.js';
import { forkBenchServer, stopBenchServer } from './bench-process.js';

const CHECKS = 1000;
const WARMUP_SECONDS = 2;

/** Targets from the performance requirements: single-check req/s per storage, and p99 for all. */
/** Issue 13: single-check req/s per engine; on PGlite also p99 < 100 ms with no connection starved (no timeouts). */
const TARGETS = { postgres: 3500, pglite: 1500, pgliteP99Ms: 100 };

interface Scenario {
  /** Short name for --scenarios. */
  key: string;
  name: string;
  /** How requests authenticate: the bootstrap API key (default) or the owner's console session cookie. */
  auth?: 'key' | 'session';
  requests(ids: string[]): AutocannonRequest[];
}

const SCENARIOS: Scenario[] = [
  {
    key: 'single',
    name: 'GET /v1/checks/{id}',
    requests(ids) {
      let next = 0;
      return [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/v1/checks/${ids[next++ % ids.length]}` }) }];
    },
  },
  { key: 'list', name: 'GET /v1/checks?limit=100', requests: () => [{ method: 'GET', path: '/v1/checks?limit=100' }] },
  {
    // Sessions are read on every request (no cache: signing out takes effect at once), keys are cached.
    key: 'session',
    name: 'GET /v1/checks/{id} (session cookie)',
    auth: 'session',
    requests(ids) {
      let next = 0;
      return [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/v1/checks/${ids[next++ % ids.length]}` }) }];
    },
  },
  // Not run by default: the same server answering without storage, i.e. the ceiling of the HTTP layer on this machine.
  { key: 'health', name: 'GET /health (no storage)', requests: () => [{ method: 'GET', path: '/health' }] },
];
const DEFAULT_SCENARIOS = ['single', 'list', 'session'];

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Starts the server child and resolves once it has seeded its store and listens. */
function startServer(options: StoreOptions, profileFile: string | undefined): Promise<{ child: ChildProcess; ready: ReadyMessage }> {
  const script = fileURLToPath(new URL('./rest-server.ts', import.meta.url));
  return forkBenchServer<ReadyMessage>(script, [JSON.stringify(options), String(CHECKS), ...(profileFile ? [profileFile] : [])]);
}

/** One request of each scenario must answer as the benchmark expects before load is put on. */
async function sanityCheck(ready: ReadyMessage, headers: Record<string, string>): Promise<void> {
  const one = await fetch(`${ready.url}/v1/checks/${ready.ids[0]}`, { headers });
  if (one.status !== 200) throw new Error(`GET /v1/checks/{id} answered ${one.status}: ${await one.text()}`);
  const list = await fetch(`${ready.url}/v1/checks?limit=100`, { headers });
  const body = (await list.json()) as unknown[];
  const range = list.headers.get('content-range');
  if (list.status !== 200 || body.length !== 100 || range !== `0-99/${CHECKS}`) {
    throw new Error(`GET /v1/checks?limit=100 answered ${list.status} with ${body.length} items and Content-Range ${range}`);
  }
}

async function load(label: string, url: string, headers: Record<string, string>, requests: AutocannonRequest[], connections: number, duration: number): Promise<Result> {
  const instance = autocannon({ url, connections, duration, headers, requests, timeout: 10 });
  let elapsed = 0;
  let count = 0;
  instance.on('tick', (tick: { counter: number }) => {
    elapsed++;
    count += tick.counter;
    if (elapsed % 5 === 0 || elapsed === duration) log(`  ${label}: ${elapsed}/${duration} s, ${count.toLocaleString('en-US')} requests`);
  });
  return instance;
}

interface Row {
  scenario: string;
  result: Result;
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function table(title: string, rows: Row[]): string {
  const header = ['scenario', 'req/s (avg)', 'p50 ms', 'p97.5 ms', 'p99 ms', 'max ms', 'requests', 'timeouts', 'other errors', 'non-2xx'];
  const body = rows.map(({ scenario, result: r }) => [
    scenario, fmt(r.requests.average), fmt(r.latency.p50), fmt(r.latency.p97_5), fmt(r.latency.p99), fmt(r.latency.max),
    fmt(r.requests.total), fmt(r.timeouts), fmt(r.errors - r.timeouts), fmt(r.non2xx),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [title, line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** The figures against the targets: req/s of the single-check scenario, p99 of every scenario. */
function verdict(b: BackendRun, rows: Row[]): string {
  const ok = (pass: boolean) => (pass ? 'met' : 'MISSED');
  const parts: string[] = [];
  const single = rows.find((r) => r.scenario === SCENARIOS[0]!.name)?.result;
  if (single) {
    const target = TARGETS[b.kind];
    parts.push(`${SCENARIOS[0]!.name} >= ${fmt(target)} req/s: ${ok(single.requests.average >= target)} (${fmt(single.requests.average)})`);
  }
  if (single && b.kind === 'pglite') {
    parts.push(`${SCENARIOS[0]!.name} p99 < ${TARGETS.pgliteP99Ms} ms: ${ok(single.latency.p99 < TARGETS.pgliteP99Ms)} (${fmt(single.latency.p99)})`);
  }
  // A starved connection is a request with no answer within the timeout, in any scenario.
  for (const r of rows) parts.push(`${r.scenario} no connection starved: ${ok(r.result.timeouts === 0)} (${fmt(r.result.timeouts)} timeouts)`);
  return `targets: ${parts.join('; ')}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      backends: { type: 'string', default: 'pglite-memory,pglite-disk,postgres' },
      scenarios: { type: 'string', default: DEFAULT_SCENARIOS.join(',') },
      'cpu-prof': { type: 'string' },
    },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (!Number.isInteger(duration) || duration < 1 || duration > 600) throw new Error('--duration must be whole seconds, 1..600');
  if (!Number.isInteger(connections) || connections < 1 || connections > 1000) throw new Error('--connections must be 1..1000');
  const wanted = values.scenarios.split(',').map((s) => s.trim());
  const scenarios = SCENARIOS.filter((s) => wanted.includes(s.key));
  if (scenarios.length === 0) throw new Error(`--scenarios takes a comma-separated subset of ${SCENARIOS.map((s) => s.key).join(',')}`);
  const cpuProfDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });

  log(`Lookout REST benchmark: ${CHECKS} checks, ${connections} connections, ${duration} s per scenario (+${WARMUP_SECONDS} s warm-up)`);
  // Load from other processes skews every figure; the load average makes that visible in the log.
  log(`Node ${process.version}, ${os.cpus().length} CPUs, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const runs = benchBackends(values.backends.split(',').map((s) => s.trim()), log);
  let failures = 0;
  let timeouts = 0;
  for (const b of runs) {
    log(`\n[${b.name}] starting server and seeding ${CHECKS} checks...`);
    let child: ChildProcess | undefined;
    try {
      const started = await startServer(b.options, cpuProfDir && path.join(cpuProfDir, `${b.name}.cpuprofile`));
      child = started.child;
      const { ready } = started;
      log(`[${b.name}] seeded in ${fmt(ready.seedMs / 1000, 1)} s; server at ${ready.url}`);
      const headers = { authorization: `Bearer ${ready.apiKey}`, 'x-checkly-account': ready.accountId };
      await sanityCheck(ready, headers);
      log(`[${b.name}] warming up for ${WARMUP_SECONDS} s`);
      await load(`${b.name} warm-up`, ready.url, headers, SCENARIOS[0]!.requests(ready.ids), connections, WARMUP_SECONDS);
      const rows: Row[] = [];
      for (const s of scenarios) {
        log(`[${b.name}] ${s.name}`);
        const auth = s.auth === 'session' ? { cookie: ready.session.cookie, 'x-lookout-csrf': ready.session.csrf } : headers;
        const result = await load(`${b.name} ${s.name}`, ready.url, auth, s.requests(ready.ids), connections, duration);
        rows.push({ scenario: s.name, result });
        // A wrong status or a broken connection is a failure; a timeout (no answer within 10 s) is a
        // performance result, reported in the table and below.
        failures += result.non2xx + result.errors - result.timeouts;
        timeouts += result.timeouts;
      }
      process.stdout.write(`\n${table(`${b.name} (${connections} connections, ${duration} s each)`, rows)}\n${verdict(b, rows)}\n`);
    } catch (err) {
      failures++;
      log(`[${b.name}] failed: ${(err as Error).message}`);
    } finally {
      if (child) await stopBenchServer(child);
      await b.cleanup();
    }
  }
  if (cpuProfDir) log(`\nCPU profiles of the server processes are in ${cpuProfDir}`);
  if (timeouts > 0) log(`\nWARNING: ${timeouts} requests got no answer within 10 s (see the timeouts column)`);
  if (failures > 0) log(`\n${failures} non-2xx answers, connection errors or failed backends: exiting 1`);
  return failures > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    log(`bench: ${err.message}`);
    process.exit(2);
  },
);
