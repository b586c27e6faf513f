/**
 * Public status page benchmark (issue 10): `npm run bench:status-page -- [--duration 10] [--connections 50]
 * [--backends pglite-memory,pglite-disk,postgres] [--scenarios page,summary,health] [--updates 50]
 * [--live idle,load] [--load-seconds 60] [--redis-url <url>] [--cpu-prof <dir>]`.
 *
 * For each storage backend it starts a server seeded with one public page (20 services on 4 cards,
 * 104 incidents backfilled over the past year, 2–4 updates each, and one open incident) and:
 *
 * 1. drives `GET /status/{url}` (HTML) and `GET /status/{url}/api/v2/summary.json` with autocannon
 *    over loopback, each for --duration seconds after a warm-up; targets ≥ 3,000 req/s on PostgreSQL
 *    and ≥ 1,000 on PGlite;
 * 2. opens the page in Chromium (playwright-core; LOOKOUT_CHROMIUM_PATH, default /usr/bin/chromium)
 *    and --updates times posts an update with a unique description to the open incident, takes the
 *    time its 2xx arrives and waits, event-driven (a MutationObserver on the swapped `#content`),
 *    until the page shows the text; the figure is shown − 2xx, target p99 < 2 s. "idle": nothing else
 *    loads the server; "load": autocannon (in a worker thread, so the timing thread stays free)
 *    alternates the page and summary.json on --connections connections meanwhile.
 *
 * "Shown" is the first animation frame after the DOM holds the text (the frame that paints it);
 * both sides read the same system clock (`Date.now()`), so the difference is good to ~1 ms.
 *
 * PostgreSQL runs when DATABASE_URL or TEST_DATABASE_URL is set, in a fresh schema dropped afterwards.
 * The server runs in a child process (see bench/rest.ts for why). With --redis-url the server's event
 * bus goes through Redis, as a multi-process deployment's would; otherwise it stays in memory. Exits
 * 0, or 1 when any answer was non-2xx, a connection broke, an update did not show within 10 s or a
 * backend could not be measured (requests left unanswered for 10 s are reported as timeouts).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type AutocannonRequest, type Options, type Result } from 'autocannon';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { StoreOptions } from '../src/store/create-store.js';
import type { StatusPageReadyMessage, StatusPageStatsMessage } from './status-page-server.js';
import { benchBackends, type BackendRun } from './bench-backends.js';
import { askStats, cpuSecondsOf, forkBenchServer, stopBenchServer } from './bench-process.js';

const WARMUP_SECONDS = 2;
/** Updates posted before each live phase and not measured: they prove the page's event stream is connected. */
const LIVE_WARMUP_UPDATES = 2;
/** An update not shown within this long counts as a failure. */
const SHOW_TIMEOUT_MS = 10_000;
const CHROMIUM = process.env.LOOKOUT_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Targets of issue 10: req/s of each public document per storage, and p99 of shown − 2xx. */
const TARGETS = { postgres: 3000, pglite: 1000, liveP99Ms: 2000 };

interface Scenario {
  key: string;
  name: string;
  path(slug: string): string;
}

const SCENARIOS: Scenario[] = [
  { key: 'page', name: 'GET /status/{url}', path: (slug) => `/status/${slug}` },
  { key: 'summary', name: 'GET /status/{url}/api/v2/summary.json', path: (slug) => `/status/${slug}/api/v2/summary.json` },
  // Not run by default: the same server answering without storage, i.e. the ceiling of the HTTP layer on this machine.
  { key: 'health', name: 'GET /health (no storage)', path: () => '/health' },
];
const DEFAULT_SCENARIOS = ['page', 'summary'];

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** How many times the server has built the page model so far. */
const modelBuildsOf = async (child: ChildProcess) => (await askStats<StatusPageStatsMessage>(child)).modelBuilds;

/** Share of a core the server child and this process (autocannon, browser driver) used while `run` ran. */
async function withCpu<T>(child: ChildProcess, run: () => Promise<T>): Promise<{ value: T; server: number | null; client: number; builds: number }> {
  const buildsBefore = await modelBuildsOf(child);
  const serverBefore = cpuSecondsOf(child.pid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  const seconds = (performance.now() - started) / 1000;
  const serverAfter = cpuSecondsOf(child.pid);
  const client = process.cpuUsage(clientBefore);
  const builds = (await modelBuildsOf(child)) - buildsBefore;
  return {
    value,
    builds,
    server: serverBefore === null || serverAfter === null ? null : (serverAfter - serverBefore) / seconds,
    client: (client.user + client.system) / 1e6 / seconds,
  };
}

function startServer(options: StoreOptions, redisUrl: string, profileFile: string | undefined) {
  const script = fileURLToPath(new URL('./status-page-server.ts', import.meta.url));
  return forkBenchServer<StatusPageReadyMessage>(script, [JSON.stringify(options), redisUrl, ...(profileFile ? [profileFile] : [])]);
}

/** Both documents must answer as the benchmark expects before load is put on. */
async function sanityCheck(ready: StatusPageReadyMessage): Promise<{ pageBytes: number; summaryBytes: number }> {
  const page = await fetch(`${ready.url}/status/${ready.slug}`);
  const html = await page.text();
  const missing = ready.serviceNames.filter((name) => !html.includes(name));
  if (page.status !== 200 || !page.headers.get('content-type')?.startsWith('text/html') || missing.length > 0 || !html.includes('Delayed check results')) {
    throw new Error(`GET /status/${ready.slug} answered ${page.status} (${page.headers.get('content-type')}) without ${missing.join(', ') || 'the open incident'}`);
  }
  const summary = await fetch(`${ready.url}/status/${ready.slug}/api/v2/summary.json`);
  const text = await summary.text();
  const body = JSON.parse(text) as { components?: Array<{ group: boolean }>; incidents?: unknown[] };
  const services = body.components?.filter((c) => !c.group).length;
  if (summary.status !== 200 || services !== ready.serviceNames.length || body.incidents?.length !== 1) {
    throw new Error(`summary.json answered ${summary.status} with ${services} services and ${body.incidents?.length} open incidents`);
  }
  return { pageBytes: Buffer.byteLength(html), summaryBytes: Buffer.byteLength(text) };
}

function load(label: string, url: string, requests: AutocannonRequest[], connections: number, duration: number): Promise<Result> {
  const instance = autocannon({ url, connections, duration, requests, timeout: 10 });
  let elapsed = 0;
  let count = 0;
  instance.on('tick', (tick: { counter: number }) => {
    elapsed++;
    count += tick.counter;
    if (elapsed % 5 === 0 || elapsed === duration) log(`  ${label}: ${elapsed}/${duration} s, ${count.toLocaleString('en-US')} requests`);
  });
  return Promise.resolve(instance);
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function render(title: string, header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [title, line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

interface Row {
  scenario: string;
  result: Result;
  /** Cores used by the server and by this process (the load generator) meanwhile. */
  serverCpu: number | null;
  clientCpu: number;
  /** Page model builds meanwhile (one per content version and minute when nothing races). */
  builds: number;
}

const pct = (cores: number | null) => (cores === null ? '-' : `${fmt(cores * 100)} %`);

function loadTable(title: string, rows: Row[]): string {
  const header = ['scenario', 'req/s (avg)', 'KB/answer', 'p50 ms', 'p97.5 ms', 'p99 ms', 'max ms', 'requests', 'timeouts', 'other errors', 'non-2xx', 'server CPU', 'autocannon CPU', 'model builds'];
  return render(title, header, rows.map(({ scenario, result: r, serverCpu, clientCpu, builds }) => [
    scenario, fmt(r.requests.average), fmt(r.throughput.average / Math.max(r.requests.average, 1) / 1024, 1), fmt(r.latency.p50),
    fmt(r.latency.p97_5), fmt(r.latency.p99), fmt(r.latency.max), fmt(r.requests.total), fmt(r.timeouts), fmt(r.errors - r.timeouts), fmt(r.non2xx),
    pct(serverCpu), pct(clientCpu), fmt(builds),
  ]));
}

/** Nearest-rank percentile of ascending values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

interface LiveResult {
  phase: 'idle' | 'load';
  /** shown − 2xx per measured update, ms. */
  shown: number[];
  /** DOM holds the text − 2xx, ms (shown minus the wait for the next frame). */
  dom: number[];
  /** POST sent → 2xx, ms. */
  post: number[];
  wanted: number;
  failures: number;
  load?: Result;
  /** Cores the server used during the phase. */
  serverCpu?: number | null;
  /** Page model builds during the phase. */
  builds?: number;
}

function liveTable(title: string, results: LiveResult[]): string {
  const header = ['phase', 'updates', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'DOM p99 ms', 'POST p50 ms', 'failures', 'load req/s', 'load requests', 'load non-2xx/errors', 'server CPU', 'model builds'];
  return render(title, header, results.map((r) => {
    const shown = [...r.shown].sort((a, b) => a - b);
    const dom = [...r.dom].sort((a, b) => a - b);
    const post = [...r.post].sort((a, b) => a - b);
    const q = (values: number[], p: number) => (values.length ? fmt(percentile(values, p)) : '-');
    return [
      r.phase === 'idle' ? 'idle' : 'under load', `${r.shown.length}/${r.wanted}`, q(shown, 50), q(shown, 95), q(shown, 99), q(shown, 100), q(dom, 99), q(post, 50),
      fmt(r.failures), r.load ? fmt(r.load.requests.average) : '-', r.load ? fmt(r.load.requests.total) : '-', r.load ? `${fmt(r.load.non2xx)}/${fmt(r.load.errors)}` : '-',
      pct(r.serverCpu ?? null), r.builds === undefined ? '-' : fmt(r.builds),
    ];
  }));
}

/**
 * Installed in the page before each update (plain JavaScript: functions from this file would be
 * serialised with the TypeScript compiler's helpers). Resolves when `#content` holds the text, at
 * the next animation frame; rejects after the timeout.
 */
const WAIT_FOR_TEXT = `(text, timeoutMs) => {
  const content = document.getElementById('content');
  window.benchShown = new Promise((resolve, reject) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      const dom = Date.now();
      requestAnimationFrame(() => resolve({ dom, shown: Date.now() }));
    };
    const observer = new MutationObserver(() => { if (content.textContent.includes(text)) done(); });
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error('not shown within ' + timeoutMs + ' ms')); }, timeoutMs);
    observer.observe(content, { childList: true, subtree: true, characterData: true });
  });
}`;

interface LiveContext {
  ready: StatusPageReadyMessage;
  tab: Page;
}

/** Posts one update and measures until the open page shows it; null when it failed. */
async function oneUpdate(live: LiveContext, i: number): Promise<{ shown: number; dom: number; post: number } | null> {
  const { ready, tab } = live;
  const description = `Bench update ${i}: ${randomUUID()}`;
  await tab.evaluate(`(${WAIT_FOR_TEXT})(${JSON.stringify(description)}, ${SHOW_TIMEOUT_MS})`);
  const sent = Date.now();
  const res = await fetch(`${ready.url}/v1/status-pages/incidents/${ready.liveIncidentId}/incident-updates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ready.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ description, status: i % 2 === 0 ? 'IDENTIFIED' : 'MONITORING' }),
  });
  const acked = Date.now();
  const answer = await res.text();
  if (res.status < 200 || res.status > 299) {
    log(`  update ${i}: POST answered ${res.status}: ${answer.slice(0, 200)}`);
    // The waiter times out by itself; wait for it so the next one starts clean.
    await tab.evaluate('window.benchShown').catch(() => undefined);
    return null;
  }
  try {
    const at = (await tab.evaluate('window.benchShown')) as { dom: number; shown: number };
    return { shown: at.shown - acked, dom: at.dom - acked, post: acked - sent };
  } catch (err) {
    log(`  update ${i}: ${(err as Error).message.split('\n')[0]}`);
    return null;
  }
}

/** Opens the page in a fresh browser context (the warm-up updates of each phase prove its event stream works). */
async function openLivePage(browser: Browser, ready: StatusPageReadyMessage): Promise<LiveContext> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const tab = await context.newPage();
  const res = await tab.goto(`${ready.url}/status/${ready.slug}`);
  if (res?.status() !== 200) throw new Error(`the browser got ${res?.status()} for the page`);
  return { ready, tab };
}

/**
 * `count` measured updates, one after the other, after LIVE_WARMUP_UPDATES unmeasured ones; stops
 * early when `until()` says so (the load ended).
 */
async function measureLive(live: LiveContext, phase: LiveResult['phase'], count: number, firstIndex: number, until: () => boolean = () => false): Promise<LiveResult> {
  const result: LiveResult = { phase, shown: [], dom: [], post: [], wanted: count, failures: 0 };
  for (let w = 0; w < LIVE_WARMUP_UPDATES; w++) {
    if (!(await oneUpdate(live, firstIndex + w))) result.failures++;
  }
  for (let i = 0; i < count && !until(); i++) {
    const m = await oneUpdate(live, firstIndex + LIVE_WARMUP_UPDATES + i);
    if (!m) result.failures++;
    else {
      result.shown.push(m.shown);
      result.dom.push(m.dom);
      result.post.push(m.post);
    }
    if ((i + 1) % 10 === 0 || i + 1 === count) log(`  live ${phase}: ${i + 1}/${count} updates`);
  }
  return result;
}

/** The live measurement while autocannon, in a worker thread, loads both documents. */
async function measureLiveUnderLoad(live: LiveContext, count: number, firstIndex: number, connections: number, seconds: number): Promise<LiveResult> {
  const { ready } = live;
  // A worker thread: the load generator must not delay this thread's reading of the 2xx times.
  const options = {
    url: ready.url, connections, duration: seconds, timeout: 10, workers: 1,
    requests: SCENARIOS.filter((s) => DEFAULT_SCENARIOS.includes(s.key)).map((s) => ({ method: 'GET', path: s.path(ready.slug) })),
  } as Options;
  let loading = true;
  const loadDone = Promise.resolve(autocannon(options)).finally(() => {
    loading = false;
  });
  log(`  live load: ${connections} connections on both documents for ${seconds} s`);
  const result = await measureLive(live, 'load', count, firstIndex, () => !loading);
  if (!loading) log(`  live load: the load ended after ${result.shown.length} of ${count} updates (raise --load-seconds)`);
  result.load = await loadDone;
  return result;
}

function verdict(b: BackendRun, rows: Row[], live: LiveResult[]): string {
  const ok = (pass: boolean) => (pass ? 'met' : 'MISSED');
  const target = TARGETS[b.kind];
  const parts = rows.filter((r) => !r.scenario.startsWith('GET /health')).map((r) => `${r.scenario} >= ${fmt(target)} req/s: ${ok(r.result.requests.average >= target)} (${fmt(r.result.requests.average)})`);
  for (const l of live) {
    if (l.shown.length === 0) continue;
    const p99 = percentile([...l.shown].sort((a, c) => a - c), 99);
    parts.push(`live ${l.phase} shown − 2xx p99 < ${fmt(TARGETS.liveP99Ms)} ms: ${ok(p99 < TARGETS.liveP99Ms && l.failures === 0)} (${fmt(p99)})`);
  }
  return `targets: ${parts.join('; ')}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      backends: { type: 'string', default: 'pglite-memory,postgres' },
      scenarios: { type: 'string', default: DEFAULT_SCENARIOS.join(',') },
      updates: { type: 'string', default: '50' },
      live: { type: 'string', default: 'idle,load' },
      'load-seconds': { type: 'string', default: '60' },
      'redis-url': { type: 'string', default: '' },
      'cpu-prof': { type: 'string' },
    },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const updates = Number(values.updates);
  const loadSeconds = Number(values['load-seconds']);
  if (!Number.isInteger(duration) || duration < 1 || duration > 600) throw new Error('--duration must be whole seconds, 1..600');
  if (!Number.isInteger(connections) || connections < 1 || connections > 1000) throw new Error('--connections must be 1..1000');
  if (!Number.isInteger(updates) || updates < 1 || updates > 1000) throw new Error('--updates must be 1..1000');
  if (!Number.isInteger(loadSeconds) || loadSeconds < 1 || loadSeconds > 600) throw new Error('--load-seconds must be whole seconds, 1..600');
  const wanted = values.scenarios.split(',').map((s) => s.trim()).filter(Boolean);
  const scenarios = SCENARIOS.filter((s) => wanted.includes(s.key));
  const phases = values.live.split(',').map((s) => s.trim()).filter((s) => s && s !== 'none');
  if (phases.some((p) => p !== 'idle' && p !== 'load')) throw new Error('--live takes idle, load, both (idle,load) or none');
  if (scenarios.length === 0 && phases.length === 0) throw new Error('nothing to run: give --scenarios page,summary or --live idle,load');
  if (phases.length > 0 && !existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: set LOOKOUT_CHROMIUM_PATH, or --live none`);
  const cpuProfDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });

  log(`Lookout status page benchmark: ${connections} connections, ${duration} s per scenario (+${WARMUP_SECONDS} s warm-up); live: ${phases.join(', ') || 'none'}, ${updates} updates per phase`);
  // Load from other processes skews every figure; the load average makes that visible in the log.
  log(`Node ${process.version}, ${os.cpus().length} CPUs, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const runs = benchBackends(values.backends.split(',').map((s) => s.trim()), log);
  let failures = 0;
  let timeouts = 0;
  let browser: Browser | undefined;
  try {
    for (const b of runs) {
      log(`\n[${b.name}] starting server and seeding the page...`);
      let child: ChildProcess | undefined;
      try {
        const started = await startServer(b.options, values['redis-url'], cpuProfDir && path.join(cpuProfDir, `${b.name}.cpuprofile`));
        child = started.child;
        const { ready } = started;
        log(`[${b.name}] seeded ${ready.serviceNames.length} services, ${ready.pastIncidents} past incidents (${ready.pastUpdates} updates) and an open one in ${fmt(ready.seedMs / 1000, 1)} s; server at ${ready.url}, event bus: ${ready.bus}`);
        const sizes = await sanityCheck(ready);
        log(`[${b.name}] page ${fmt(sizes.pageBytes / 1024, 1)} KB, summary.json ${fmt(sizes.summaryBytes / 1024, 1)} KB`);
        const rows: Row[] = [];
        if (scenarios.length > 0) {
          log(`[${b.name}] warming up for ${WARMUP_SECONDS} s`);
          await load(`${b.name} warm-up`, ready.url, scenarios.map((s) => ({ method: 'GET', path: s.path(ready.slug) })), connections, WARMUP_SECONDS);
        }
        for (const s of scenarios) {
          log(`[${b.name}] ${s.name}`);
          const measured = await withCpu(child, () => load(`${b.name} ${s.name}`, ready.url, [{ method: 'GET', path: s.path(ready.slug) }], connections, duration));
          const result = measured.value;
          rows.push({ scenario: s.name, result, serverCpu: measured.server, clientCpu: measured.client, builds: measured.builds });
          // A wrong status or a broken connection is a failure; a timeout is a performance result.
          failures += result.non2xx + result.errors - result.timeouts;
          timeouts += result.timeouts;
        }
        const liveResults: LiveResult[] = [];
        if (phases.length > 0) {
          browser ??= await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
          const live = await openLivePage(browser, ready);
          let next = 0;
          for (const phase of phases) {
            log(`[${b.name}] live updates, ${phase === 'idle' ? 'server otherwise idle' : 'under load'}`);
            const measured = await withCpu(child, () => (phase === 'idle'
              ? measureLive(live, 'idle', updates, next)
              : measureLiveUnderLoad(live, updates, next, connections, loadSeconds)));
            const r = { ...measured.value, serverCpu: measured.server, builds: measured.builds };
            next += LIVE_WARMUP_UPDATES + updates;
            liveResults.push(r);
            failures += r.failures + (r.shown.length === 0 ? 1 : 0);
            if (r.load) {
              failures += r.load.non2xx + r.load.errors - r.load.timeouts;
              timeouts += r.load.timeouts;
            }
          }
          await live.tab.context().close();
        }
        const out: string[] = [];
        if (rows.length) out.push(loadTable(`${b.name} (${connections} connections, ${duration} s each)`, rows));
        if (liveResults.length) out.push(liveTable(`${b.name}: live updates, shown − 2xx (ms)`, liveResults));
        process.stdout.write(`\n${out.join('\n\n')}\n${verdict(b, rows, liveResults)}\n`);
      } catch (err) {
        failures++;
        log(`[${b.name}] failed: ${(err as Error).message}`);
      } finally {
        if (child) await stopBenchServer(child);
        await b.cleanup();
      }
    }
  } finally {
    await browser?.close();
  }
  log(`\nload average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (cpuProfDir) log(`CPU profiles of the server processes are in ${cpuProfDir}`);
  if (timeouts > 0) log(`\nWARNING: ${timeouts} requests got no answer within 10 s (see the timeouts column)`);
  if (failures > 0) log(`\n${failures} non-2xx answers, connection errors, updates not shown or failed backends: exiting 1`);
  return failures > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    log(`bench: ${err.message}`);
    process.exit(2);
  },
);
