/**
 * Memory benchmark (issue 13): `npm run bench:memory -- [--backend pglite-disk,pglite,postgres] [--checks 10000]
 * [--subscribers 10000] [--minutes 2] [--clients 2] [--shared]`.
 *
 * One Lookout process (REST, GraphQL, graphql-ws and the runner, as `lookout serve` runs) with
 * --checks API checks at frequency 1 (one run per check per minute, phases spread by id) against a
 * loopback HTTP target in its own process, and --subscribers idle graphql-ws sockets from --clients
 * processes (bench/graphql-ws-clients.ts), each following `checkStatusChanged` of one check: that
 * many distinct shared subscriptions, the worst case for memory, and idle once each check's first
 * result has set its status (the target always answers 200). `--shared` makes every socket follow
 * the same check (one shared subscription) instead.
 *
 * Prints the server's RSS (VmRSS) and peak RSS (VmHWM) from /proc/<pid>/status every 10 s for
 * --minutes scheduled minutes after the subscribers are live, with its V8 heap and external memory
 * and the results stored so far, then the peak against the 1 GiB target. PostgreSQL is used with
 * DATABASE_URL or TEST_DATABASE_URL (a scratch schema, dropped afterwards); PGlite runs in memory,
 * inside the server process, so its memory counts.
 *
 * `BENCH_PROMOTED_PROFILE=<file>` also writes a sampling heap profile of the allocations that
 * survived young-generation collections (what fills the old space between full collections), for
 * Chrome DevTools' Memory panel.
 *
 * Internally the script forks itself as the server (`--serve <StoreOptions JSON> <checks> <target url>`).
 */
import '../src/default-node-env.js';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { StoreOptions } from '../src/store/create-store.js';
import type { ConnectedMessage, ConnectMessage } from './graphql-ws-clients.js';
import { dropBenchSchema } from './bench-backends.js';

const TARGET_BYTES = 2 ** 30;
const SAMPLE_MS = 10_000;
const IDLE_SUBSCRIPTION = 'subscription Idle($ids: [ID!]) { checkStatusChanged(checkIds: $ids) { checkId current } }';

interface ReadyMessage { type: 'ready'; url: string; apiKey: string; accountId: string; checkIds: string[]; seedMs: number }
interface StatsMessage { type: 'stats'; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; results: number; sockets: number; sharedSubscriptions: number; subscribers: number }
type ServerCommand = 'stop' | { type: 'stats' };

const log = (line: string) => process.stderr.write(`${line}\n`);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

// ---------------------------------------------------------------------------------------------
// The server child

async function serve(storeOptions: StoreOptions, checks: number, targetUrl: string): Promise<void> {
  const { pino } = await import('pino');
  const { createLookout } = await import('../src/main.js');
  const { createAccountWithKey } = await import('../src/service/bootstrap.js');
  const { withCheckDefaults } = await import('../src/domain/check-defaults.js');
  const lookout = await createLookout({
    config: {
      port: 0, host: '127.0.0.1', rateLimitMax: 0, runnerEnabled: true, logLevel: 'warn', bootstrapAccountId: undefined, bootstrapApiKey: undefined,
      graphqlBackendUrl: undefined,
    },
    storeOptions,
    // Errors only: on a loaded machine the runner's warnings (slots skipped) would flood the output;
    // the results stored per sample tell whether it keeps up.
    logger: pino({ level: 'error' }),
  });
  const started = performance.now();
  // Seeded before listening, so the scheduler plans every check from its first read.
  const { accountId, apiKey } = await createAccountWithKey(lookout.store, { name: 'memory bench' });
  const checkIds: string[] = [];
  for (let i = 0; i < checks; i += 500) {
    await lookout.store.transaction(async (repos) => {
      for (let j = i; j < Math.min(checks, i + 500); j++) {
        const data = withCheckDefaults('API', {
          name: `memory ${j}`, frequency: 1, locations: ['eu-west-1'],
          request: { url: targetUrl, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
        }, '');
        const id = randomUUID();
        await repos.checks.insert(accountId, { id, checkType: 'API', data });
        checkIds.push(id);
      }
    });
  }
  const seedMs = performance.now() - started;
  const url = await lookout.listen();
  let results = 0;
  lookout.bus.subscribe('checkResultCreated', () => {
    results++;
  });
  const subscriptions = lookout.graphqlSubscriptions!;
  let stopping = false;
  const promoted = process.env.BENCH_PROMOTED_PROFILE ? await startPromotedSampling() : null;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    (promoted ? promoted.writeTo(process.env.BENCH_PROMOTED_PROFILE!) : Promise.resolve())
      .then(() => lookout.close())
      .then(() => process.exit(0), () => process.exit(1));
  };
  process.on('message', (msg: ServerCommand) => {
    if (msg === 'stop') return stop();
    if (msg.type === 'stats') {
      const m = process.memoryUsage();
      const reply: StatsMessage = { type: 'stats', heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, results, ...subscriptions.stats() };
      process.send!(reply);
    }
  });
  process.on('disconnect', stop);
  const ready: ReadyMessage = { type: 'ready', url, apiKey, accountId, checkIds, seedMs };
  process.send!(ready);
}

/**
 * Samples allocations that survive young-generation collections (BENCH_PROMOTED_PROFILE=<file>):
 * what fills the old space between full collections, kept in the profile even once a full
 * collection frees it. Written as a .heapprofile (Chrome DevTools) when the server stops.
 */
async function startPromotedSampling() {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false,
  } as object);
  return {
    async writeTo(file: string) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      await writeFile(file, JSON.stringify(profile));
      log(`promoted-allocation profile written to ${file}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The parent

function nextMessage<T>(child: ChildProcess, type: string, timeoutMs = 600_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no ${type} message within ${timeoutMs / 1000} s`)), timeoutMs);
    const onMessage = (msg: { type?: string }) => {
      if (msg?.type === type) done(null, msg as T);
    };
    const onExit = (code: number | null) => done(new Error(`a child process exited with code ${code} while waiting for ${type}`));
    function done(err: Error | null, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value!);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** VmRSS and VmHWM (peak) of a process, in bytes. */
function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

function stopChild(child: ChildProcess, message: unknown = 'stop'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send(message as string);
    else child.kill();
  });
}

interface Run { backend: string; checks: number; subscribers: number; minutes: number; clients: number; shared: boolean }

async function measure(storeOptions: StoreOptions, o: Run): Promise<{ peak: number; line: string }> {
  const self = fileURLToPath(import.meta.url);
  const tsx = ['--import', import.meta.resolve('tsx')];
  const target = fork(fileURLToPath(new URL('./runner-target.mjs', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const fleets: ChildProcess[] = [];
  let server: ChildProcess | undefined;
  try {
    const port = await new Promise<number>((resolve) => target.once('message', (m: { port: number }) => resolve(m.port)));
    server = fork(self, ['--serve', JSON.stringify(storeOptions), String(o.checks), `http://127.0.0.1:${port}/ok`], { execArgv: tsx, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const pid = server.pid!;
    const ready = await nextMessage<ReadyMessage>(server, 'ready');
    const ask = () => {
      const reply = nextMessage<StatsMessage>(server!, 'stats');
      server!.send({ type: 'stats' });
      return reply;
    };
    const sample = async (label: string) => {
      const s = await ask();
      const m = rssOf(pid);
      log(`  ${label.padEnd(22)} RSS ${mib(m.rss).padStart(7)} MiB  peak ${mib(m.peak).padStart(7)} MiB  heap ${mib(s.heapUsed).padStart(6)}/${mib(s.heapTotal)} MiB  `
        + `external ${mib(s.external).padStart(6)} MiB  results ${s.results}  sockets ${s.sockets}  shared subscriptions ${s.sharedSubscriptions}  load ${load()}`);
      return m;
    };
    log(`[${o.backend}] seeded ${o.checks} checks in ${(ready.seedMs / 1000).toFixed(1)} s; server pid ${pid} at ${ready.url}`);
    await sample('listening, no sockets');

    const script = fileURLToPath(new URL('./graphql-ws-clients.ts', import.meta.url));
    const variables = o.shared ? [{ ids: [ready.checkIds[0]] }] : ready.checkIds.map((id) => ({ ids: [id] }));
    let offset = 0;
    const connected = await Promise.all(Array.from({ length: o.clients }, (_, i) => {
      const fleet = fork(script, [], { execArgv: tsx, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      fleets.push(fleet);
      const sockets = Math.floor(o.subscribers / o.clients) + (i < o.subscribers % o.clients ? 1 : 0);
      const msg: ConnectMessage = { type: 'connect', url: ready.url, apiKey: ready.apiKey, accountId: ready.accountId, sockets, offset, query: IDLE_SUBSCRIPTION, variables, concurrency: 64 };
      offset += sockets;
      const reply = nextMessage<ConnectedMessage>(fleet, 'connected');
      fleet.send(msg);
      return reply;
    }));
    const failures = connected.reduce((n, c) => n + c.failures, 0);
    if (failures > 0) throw new Error(`${failures} sockets failed to connect (first: ${connected.find((c) => c.firstError)?.firstError})`);
    log(`[${o.backend}] ${o.subscribers} sockets connected in ${(Math.max(...connected.map((c) => c.ms)) / 1000).toFixed(1)} s; waiting for their subscriptions`);
    for (const deadline = Date.now() + 300_000; ;) {
      const s = await ask();
      if (s.subscribers >= o.subscribers) break;
      if (Date.now() > deadline) throw new Error(`only ${s.subscribers} of ${o.subscribers} subscriptions live after 5 min`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    await sample(`${o.subscribers} subscribers live`);

    const started = Date.now();
    const end = started + o.minutes * 60_000;
    const resultsBefore = (await ask()).results;
    let last = { rss: 0, peak: 0 };
    while (Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(SAMPLE_MS, end - Date.now())));
      last = await sample(`t=${Math.round((Date.now() - started) / 1000)} s`);
    }
    const results = (await ask()).results - resultsBefore;
    const line = `[${o.backend}] ${o.checks} checks, ${o.subscribers} idle subscribers (${o.shared ? 'one shared subscription' : 'one subscription per check'}), `
      + `${o.minutes} min (${results} results stored, ${o.checks * o.minutes} scheduled): RSS at the end ${mib(last.rss)} MiB, peak (VmHWM) ${mib(last.peak)} MiB; target < 1 GiB: ${last.peak < TARGET_BYTES ? 'met' : 'MISSED'}; load ${load()}`;
    return { peak: last.peak, line };
  } finally {
    await Promise.all(fleets.map((f) => stopChild(f)));
    if (server) await stopChild(server);
    target.kill();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      backend: { type: 'string' },
      checks: { type: 'string', default: '10000' },
      subscribers: { type: 'string', default: '10000' },
      minutes: { type: 'string', default: '2' },
      clients: { type: 'string', default: '2' },
      shared: { type: 'boolean', default: false },
    },
  });
  const num = (name: 'checks' | 'subscribers' | 'minutes' | 'clients', min: number, max: number) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number, ${min}..${max}`);
    return n;
  };
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  const backends = (values.backend ?? (url ? 'pglite-disk,pglite,postgres' : 'pglite-disk,pglite')).split(',').map((b) => b.trim());
  for (const b of backends) {
    if (!['pglite', 'pglite-disk', 'postgres'].includes(b)) throw new Error(`--backend: unknown backend ${b} (pglite, pglite-disk or postgres)`);
    if (b === 'postgres' && !url) throw new Error('--backend postgres needs DATABASE_URL or TEST_DATABASE_URL');
  }
  const run = { checks: num('checks', 1, 100_000), subscribers: num('subscribers', 1, 50_000), minutes: num('minutes', 1, 30), clients: num('clients', 1, 16), shared: values.shared };
  log(`Lookout memory benchmark: Node ${process.version}, ${os.cpus().length} CPUs, ${mib(os.totalmem())} MiB, load average ${load()}`);
  const lines: string[] = [];
  let failed = false;
  for (const backend of backends) {
    const schema = `bench_${randomBytes(5).toString('hex')}`;
    // pglite-disk is what `npm start` runs (a data folder); pglite keeps the whole database in this process's memory.
    const dataDir = backend === 'pglite-disk' ? mkdtempSync(join(os.tmpdir(), 'lookout-memory-bench-')) : undefined;
    const storeOptions: StoreOptions = backend === 'postgres' ? { databaseUrl: url, schema } : dataDir ? { dataDir } : {};
    try {
      const r = await measure(storeOptions, { backend, ...run });
      lines.push(r.line);
      failed ||= r.peak >= TARGET_BYTES;
    } catch (err) {
      failed = true;
      lines.push(`[${backend}] failed: ${(err as Error).message}`);
      log(lines.at(-1)!);
    } finally {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (backend === 'postgres') await dropBenchSchema(url!, schema);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  return failed ? 1 : 0;
}

if (process.argv[2] === '--serve') {
  serve(JSON.parse(process.argv[3]!) as StoreOptions, Number(process.argv[4]), process.argv[5]!).catch((err: Error) => {
    process.stderr.write(`memory bench server: ${err.stack ?? err.message}\n`);
    process.exit(1);
  });
} else {
  main().then((code) => process.exit(code), (err: Error) => {
    log(`bench: ${err.message}`);
    process.exit(2);
  });
}
