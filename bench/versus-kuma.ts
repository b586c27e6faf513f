/**
 * Lookout beside Uptime Kuma (issue 28): what a probe costs, how much memory a server holds, what a
 * start costs and how punctual the probes are, measured the way a self-hoster runs both.
 *
 * Usage: `npx tsx bench/versus-kuma.ts [--checks 2000] [--interval 20] [--window 60] [--rounds 3]
 * [--kuma <uptime-kuma checkout>] [--postgres] [--lookout-profile <folder>]`
 *
 * Runs `lookout serve` (compiled, PGlite on disk in a fresh data folder; `--postgres` uses
 * TEST_DATABASE_URL instead) and, when `--kuma` names a checkout of Uptime Kuma 2.x with its
 * dependencies installed (see ../shared/notes/kuma-side-by-side.md), Kuma beside it, both at once
 * against one local target that notes when each check was probed. Both get the same N HTTP checks at
 * the same interval. CPU is read from /proc (user + system of the server and its children), so the
 * figures hold on a busy machine; each round measures one window of each server while the other is
 * held (SIGSTOP), and the ratios are given as min / median / max over the rounds. Also measured: a fresh-connection undici
 * loop against the same target (the physical limit of a probe), idle RSS with no checks and RSS at
 * 1,000 checks, CPU seconds of a first start and of a restart, and how many checks a restart runs
 * in its first interval (no ramp-up).
 *
 * Prints each issue-28 target with its figure and MET or MISSED.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import { ensureServerBuild } from '../bin/server-build.js';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

const { values: args } = parseArgs({
  options: {
    checks: { type: 'string', default: '2000' },
    interval: { type: 'string', default: '20' },
    window: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '3' },
    kuma: { type: 'string' },
    postgres: { type: 'boolean', default: false },
    'idle-seconds': { type: 'string', default: '15' },
    'page-seconds': { type: 'string', default: '10' },
    /** A folder for CPU profiles of each Lookout process (written when it stops). */
    'lookout-profile': { type: 'string' },
  },
});
const N = Number(args.checks);
const INTERVAL_S = Number(args.interval);
const WINDOW_S = Number(args.window);
const ROUNDS = Number(args.rounds);
if (![10, 20, 30].includes(INTERVAL_S)) throw new Error('--interval is 10, 20 or 30 (seconds; a sub-minute check)');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

// ---------------------------------------------------------------------------------------------
// /proc

function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds of `pid`, its reaped children and its live descendants. */
function treeCpuSeconds(pid: number): number {
  const own = statFields(pid);
  if (!own) return NaN;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === pid) ticks += treeCpuSeconds(Number(entry)) * TICKS;
  }
  return ticks / TICKS;
}

function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

// ---------------------------------------------------------------------------------------------
// The target

interface TargetStats { probes: number; checks: number; gaps: number; strayP50: number | null; strayP99: number | null }

async function startTarget(): Promise<{ child: ChildProcess; port: number; stats(from: number, to: number): Promise<Record<string, TargetStats>> }> {
  const child = fork(path.join(ROOT, 'bench/probe-target.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  let nextId = 0;
  return {
    child, port,
    stats: (from, to) => new Promise((resolve) => {
      const id = nextId++;
      const onMessage = (m: { type: string; id: number; stats: Record<string, TargetStats> }) => {
        if (m.type !== 'stats' || m.id !== id) return;
        child.off('message', onMessage);
        resolve(m.stats);
      };
      child.on('message', onMessage);
      child.send({ type: 'stats', id, from, to, intervalMs: INTERVAL_S * 1000 });
    }),
  };
}

/** Probes per CPU-second of a bare undici loop opening a fresh connection per probe (as both monitors do). */
async function undiciLimit(port: number, seconds = 5): Promise<number> {
  const started = process.cpuUsage();
  const until = Date.now() + seconds * 1000;
  let probes = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (Date.now() < until) {
      const dispatcher = new Agent({ pipelining: 0 });
      const res = await request(`http://127.0.0.1:${port}/limit/${probes % 100}`, { dispatcher });
      await res.body.text();
      await dispatcher.close();
      probes++;
    }
  }));
  const used = process.cpuUsage(started);
  return probes / ((used.user + used.system) / 1e6);
}

// ---------------------------------------------------------------------------------------------
// Lookout

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Server {
  name: string;
  pid: () => number;
  /** CPU seconds from spawn to ready. */
  startCpu: number;
  addChecks(from: number, to: number): Promise<void>;
  /** Publishes a status page of the first 20 checks; answers the URL a visitor's page reads. */
  publishPage(): Promise<string[]>;
  restart?(): Promise<number>;
  stop(): Promise<void>;
}

async function spawnLookout(dataDir: string, databaseUrl: string | undefined): Promise<{ child: ChildProcess; url: string; keyFile?: string; accountId: string; cpu: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOOKOUT_DATA_DIR: dataDir, LOG_LEVEL: 'info', LOOKOUT_RATE_LIMIT: '0' };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const profile = args['lookout-profile'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['lookout-profile'])}`] : [];
  const child = spawn(process.execPath, [...profile, path.join(ROOT, 'bin/lookout.js'), 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let keyFile: string | undefined;
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const ready = await new Promise<{ url: string; accountId: string }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let msg: { msg?: string; keyFile?: string; url?: string; accountId?: string } = {};
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (msg.keyFile) keyFile = msg.keyFile;
      if (msg.msg === 'lookout listening') resolve({ url: msg.url!, accountId: msg.accountId! });
    });
    void exited.then((code) => reject(new Error(`lookout exited (${code}) before listening`)));
  });
  return { child, ...ready, keyFile, cpu: treeCpuSeconds(child.pid!) };
}

async function startLookout(targetPort: number): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'versus-kuma-lookout-'));
  // PostgreSQL: a database of its own, dropped at the end.
  const baseUrl = process.env.TEST_DATABASE_URL;
  let databaseUrl: string | undefined;
  const database = `versus_kuma_${process.pid}`;
  if (args.postgres) {
    if (!baseUrl) throw new Error('--postgres needs TEST_DATABASE_URL');
    await adminQuery(baseUrl, `CREATE DATABASE ${database}`);
    const url = new URL(baseUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  let current = await spawnLookout(dataDir, databaseUrl);
  const key = readFileSync(current.keyFile!, 'utf8').trim().split('\n').at(-1)!;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-lookout-account': current.accountId };
  const dispatcher = new Agent({ connections: 8 });
  const checkIds: string[] = [];
  const post = async (url: string, payload: object): Promise<{ id: string }> => {
    const res = await request(`${current.url}${url}`, { method: 'POST', headers, dispatcher, body: JSON.stringify(payload) });
    const body = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`lookout refused POST ${url}: ${res.statusCode} ${body}`);
    return JSON.parse(body) as { id: string };
  };
  const stop = async (child: ChildProcess) => {
    // A server that failed to start has exited already: its 'exit' will not come again.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return {
    name: 'lookout',
    pid: () => current.child.pid!,
    startCpu: current.cpu,
    async addChecks(from, to) {
      let next = from;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (next < to) {
          const i = next++;
          const { id } = await post('/v1/checks/api', {
            name: `probe ${i}`, activated: true, frequency: 0, frequencyOffset: INTERVAL_S, locations: ['eu-west-1'],
            request: { method: 'GET', url: `http://127.0.0.1:${targetPort}/lookout/${i}`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', property: '' }] },
          });
          checkIds[i] = id;
        }
      }));
    },
    async publishPage() {
      const services: { id: string }[] = [];
      for (const [i, id] of checkIds.slice(0, 20).entries()) services.push({ id: (await post('/v1/status-pages/services', { name: `Service ${i}`, checks: [{ id }] })).id });
      await post('/v1/status-pages', { name: 'Bench', url: 'bench', cards: [{ name: 'Services', services }] });
      return [`${current.url}/status/bench`];
    },
    async restart() {
      await stop(current.child);
      current = await spawnLookout(dataDir, databaseUrl);
      return current.cpu;
    },
    async stop() {
      await stop(current.child);
      await dispatcher.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl && baseUrl) await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Kuma

interface KumaSocket {
  emit(event: string, ...args: unknown[]): void;
  once(event: string, listener: (...args: unknown[]) => void): void;
  close(): void;
}

async function startKuma(checkout: string, targetPort: number): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'versus-kuma-kuma-'));
  const port = 30000 + (process.pid % 20000);
  const spawnKuma = async () => {
    const child = spawn(process.execPath, ['server/server.js'], {
      cwd: checkout,
      env: {
        ...process.env, UPTIME_KUMA_DB_TYPE: 'sqlite', DATA_DIR: dataDir, UPTIME_KUMA_HOST: '127.0.0.1',
        UPTIME_KUMA_PORT: String(port), NODE_ENV: 'production', https_proxy: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const onLine = (line: string) => {
        if (process.env.VERSUS_KUMA_DEBUG) console.error(`kuma: ${line}`);
        // Its database migration serves a page of its own first; the server proper logs as SERVER.
        if (/\[SERVER\] INFO: Listening on/.test(line.replace(/\x1b\[[0-9;]*m/g, ''))) resolve();
      };
      createInterface({ input: child.stdout! }).on('line', onLine);
      createInterface({ input: child.stderr! }).on('line', onLine);
      void exited.then((code) => reject(new Error(`kuma exited (${code}) before listening`)));
    });
    return { child, cpu: treeCpuSeconds(child.pid!) };
  };
  let current = await spawnKuma();
  const requireFromKuma = createRequire(path.join(path.resolve(checkout), 'package.json'));
  const { io } = requireFromKuma('socket.io-client') as { io: (url: string, opts: object) => KumaSocket };
  const call = (socket: KumaSocket, event: string, ...rest: unknown[]) => new Promise<{ ok: boolean; msg?: string; monitorID?: number }>((resolve) => socket.emit(event, ...rest, resolve));
  const monitorIds: number[] = [];
  /** A connected socket; Kuma registers its handlers after an await, so wait for its first event. */
  const connect = async (): Promise<KumaSocket> => {
    const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve) => {
      socket.once('loginRequired', () => resolve());
      socket.once('setup', () => resolve());
    });
    return socket;
  };
  const setupSocket = await connect();
  const setup = await call(setupSocket, 'setup', 'bench', 'bench-password-1A');
  if (!setup.ok) throw new Error(`kuma setup: ${setup.msg}`);
  setupSocket.close();
  const login = async () => {
    const socket = await connect();
    const res = await call(socket, 'login', { username: 'bench', password: 'bench-password-1A', token: '' });
    if (!res.ok) throw new Error(`kuma login: ${res.msg}`);
    return socket;
  };
  const stop = async (child: ChildProcess) => {
    // A server that failed to start has exited already: its 'exit' will not come again.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
  };
  return {
    name: 'kuma',
    pid: () => current.child.pid!,
    startCpu: current.cpu,
    async addChecks(from, to) {
      const socket = await login();
      try {
        for (let i = from; i < to; i++) {
          const res = await call(socket, 'add', {
            type: 'http', name: `probe ${i}`, url: `http://127.0.0.1:${targetPort}/kuma/${i}`, method: 'GET',
            interval: INTERVAL_S, retryInterval: INTERVAL_S, resendInterval: 0, maxretries: 0, timeout: INTERVAL_S * 0.8,
            accepted_statuscodes: ['200-299'], notificationIDList: {}, ignoreTls: false, upsideDown: false,
            maxredirects: 10, expiryNotification: false, active: true, conditions: [], kafkaProducerBrokers: [],
            kafkaProducerSaslOptions: { mechanism: 'None' }, rabbitmqNodes: [], httpBodyEncoding: 'json',
          });
          if (!res.ok) throw new Error(`kuma refused monitor ${i}: ${res.msg}`);
          monitorIds[i] = res.monitorID!;
        }
      } finally {
        socket.close();
      }
    },
    async publishPage() {
      const socket = await login();
      try {
        const added = await call(socket, 'addStatusPage', 'Bench', 'bench');
        if (!added.ok) throw new Error(`kuma addStatusPage: ${added.msg}`);
        const saved = await call(socket, 'saveStatusPage', 'bench', {
          slug: 'bench', title: 'Bench', description: '', logo: '/icon.svg', autoRefreshInterval: 300, theme: 'light', showTags: false,
          footerText: '', customCSS: '', showPoweredBy: true, rssTitle: '', showOnlyLastHeartbeat: false, showCertificateExpiry: false,
          analyticsId: null, analyticsScriptUrl: null, analyticsType: null, domainNameList: [],
        }, '/icon.svg', [{ name: 'Services', monitorList: monitorIds.slice(0, 20).map((id) => ({ id })) }]);
        if (!saved.ok) throw new Error(`kuma saveStatusPage: ${saved.msg}`);
      } finally {
        socket.close();
      }
      // What its status page polls: the page's data (cached 5 min) and the heartbeats (cached 1 min).
      return [`http://127.0.0.1:${port}/api/status-page/bench`, `http://127.0.0.1:${port}/api/status-page/heartbeat/bench`];
    },
    async restart() {
      await stop(current.child);
      current = await spawnKuma();
      return current.cpu;
    },
    async stop() {
      await stop(current.child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The run

function verdict(met: boolean | null): string {
  return met === null ? 'NOT MEASURED' : met ? 'MET' : 'MISSED';
}

function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0]!.toFixed(2)} / ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} / ${sorted.at(-1)!.toFixed(2)}`;
}

await ensureServerBuild();
log(`versus-kuma: ${N} checks every ${INTERVAL_S} s, ${ROUNDS} rounds of ${WINDOW_S} s, storage ${args.postgres ? 'PostgreSQL' : 'PGlite on disk'}${args.kuma ? `, Kuma from ${args.kuma}` : ', Lookout alone'}; load ${load()}`);
const target = await startTarget();
const limit = await undiciLimit(target.port);
log(`fresh-connection undici loop: ${limit.toFixed(0)} probes per CPU-second`);

const servers: Server[] = [];
const idle = new Map<string, number>();
const at1000 = new Map<string, number>();
try {
  servers.push(await startLookout(target.port));
  log(`lookout: first start ${servers[0]!.startCpu.toFixed(2)} CPU-s`);
  if (args.kuma) {
    servers.push(await startKuma(args.kuma, target.port));
    log(`kuma: first start ${servers[1]!.startCpu.toFixed(2)} CPU-s`);
  }
  await sleep(Number(args['idle-seconds']) * 1000);
  for (const s of servers) idle.set(s.name, rssMiB(s.pid()));
  log(`idle RSS with no checks: ${servers.map((s) => `${s.name} ${idle.get(s.name)!.toFixed(0)} MiB`).join(', ')}`);

  const first = Math.min(N, 1000);
  let added = Date.now();
  await Promise.all(servers.map((s) => s.addChecks(0, first)));
  log(`${first} checks added in ${((Date.now() - added) / 1000).toFixed(0)} s; one interval to settle`);
  await sleep((INTERVAL_S + 10) * 1000);
  if (first === 1000) {
    for (const s of servers) at1000.set(s.name, rssMiB(s.pid()));
    log(`RSS at 1,000 checks: ${servers.map((s) => `${s.name} ${at1000.get(s.name)!.toFixed(0)} MiB`).join(', ')}`);
  }
  if (N > first) {
    added = Date.now();
    await Promise.all(servers.map((s) => s.addChecks(first, N)));
    log(`${N} checks added (${((Date.now() - added) / 1000).toFixed(0)} s)`);
  }
  await sleep(2 * INTERVAL_S * 1000);

  const rounds: { name: string; msPerProbe: number; probes: number; checks: number; strayP50: number | null; strayP99: number | null; rss: number }[][] = [];
  // Two servers at 2,000 checks each saturate two cores, and a saturated machine measures its
  // queues, not the servers: the rounds alternate, the other server held with SIGSTOP meanwhile
  // (resumed, it catches up for one settle period before its own window).
  const hold = (s: Server, stopped: boolean) => process.kill(s.pid(), stopped ? 'SIGSTOP' : 'SIGCONT');
  for (let r = 1; r <= ROUNDS; r++) {
    const round: typeof rounds[number] = [];
    for (const s of servers) {
      for (const other of servers) hold(other, other !== s);
      if (servers.length > 1) await sleep((INTERVAL_S + 10) * 1000);
      const from = Date.now();
      const cpu0 = treeCpuSeconds(s.pid());
      await sleep(WINDOW_S * 1000);
      const cpu1 = treeCpuSeconds(s.pid());
      const to = Date.now();
      const st = (await target.stats(from, to))[s.name] ?? { probes: 0, checks: 0, gaps: 0, strayP50: null, strayP99: null };
      round.push({ name: s.name, msPerProbe: ((cpu1 - cpu0) * 1000) / Math.max(1, st.probes), probes: st.probes, checks: st.checks, strayP50: st.strayP50, strayP99: st.strayP99, rss: rssMiB(s.pid()) });
    }
    for (const other of servers) hold(other, false);
    rounds.push(round);
    log(`round ${r}: ${round.map((f) => `${f.name} ${f.msPerProbe.toFixed(2)} ms CPU/probe (${f.probes} probes of ${f.checks} checks, ${(f.probes / WINDOW_S).toFixed(0)}/s), gap stray p50 ${f.strayP50?.toFixed(0)} ms p99 ${f.strayP99?.toFixed(0)} ms, RSS ${f.rss.toFixed(0)} MiB`).join('; ')}; load ${load()}`);
  }

  // The public page of 20 checks: Lookout's server-rendered page against the JSON Kuma's page reads.
  const pageFigures = new Map<string, { url: string; rps: number; kb: number }[]>();
  const pageUrls = new Map<string, string[]>();
  for (const s of servers) pageUrls.set(s.name, await s.publishPage());
  for (const s of servers) {
    for (const other of servers) hold(other, other !== s);
    const figures: { url: string; rps: number; kb: number }[] = [];
    for (const url of pageUrls.get(s.name)!) {
      const first = await request(url, { headers: { 'accept-encoding': 'gzip, br' } });
      await first.body.arrayBuffer();
      if (first.statusCode !== 200) throw new Error(`${url} answered ${first.statusCode}`);
      const r = await autocannon({ url, connections: 10, duration: Number(args['page-seconds']), headers: { 'accept-encoding': 'gzip, br' } });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
      figures.push({ url: new URL(url).pathname, rps: r.requests.average, kb: r.throughput.average / Math.max(1, r.requests.average) / 1024 });
    }
    pageFigures.set(s.name, figures);
    log(`${s.name} public page: ${figures.map((f) => `${f.url} ${f.rps.toFixed(0)} req/s (${f.kb.toFixed(1)} KB on the wire)`).join(', ')}`);
  }
  for (const other of servers) hold(other, false);

  const restartCpu = new Map<string, number>();
  const rampUp = new Map<string, number>();
  for (const s of servers) {
    if (!s.restart) continue;
    restartCpu.set(s.name, await s.restart());
    const readyAt = Date.now();
    await sleep((INTERVAL_S + 5) * 1000);
    const stats = await target.stats(readyAt, Date.now());
    rampUp.set(s.name, (stats[s.name]?.checks ?? 0) / N);
    log(`${s.name}: restart ${restartCpu.get(s.name)!.toFixed(2)} CPU-s; ${stats[s.name]?.checks ?? 0} of ${N} checks probed within ${INTERVAL_S + 5} s of it`);
  }

  // -------------------------------------------------------------------------------------------
  const of = (name: string) => rounds.map((round) => round.find((f) => f.name === name)!);
  const lookout = of('lookout');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const msPerProbe = median(lookout.map((f) => f.msPerProbe));
  const probesPerCpuS = 1000 / msPerProbe;
  const strayP50 = median(lookout.map((f) => f.strayP50 ?? Infinity));
  console.log(`\n== Issue 28 targets (${N} checks every ${INTERVAL_S} s, ${args.postgres ? 'PostgreSQL' : 'PGlite on disk'}; load ${load()}) ==`);
  console.log(`lookout CPU per probe over rounds (min / median / max): ${spread(lookout.map((f) => f.msPerProbe))} ms; ${probesPerCpuS.toFixed(0)} probes per CPU-second, ${((probesPerCpuS / limit) * 100).toFixed(1)} % of the undici limit (${limit.toFixed(0)})`);
  let ratio: number | null = null;
  if (args.kuma) {
    const kuma = of('kuma');
    const ratios = lookout.map((f, i) => f.msPerProbe / kuma[i]!.msPerProbe);
    ratio = median(ratios);
    console.log(`kuma CPU per probe (min / median / max): ${spread(kuma.map((f) => f.msPerProbe))} ms; ${((1000 / median(kuma.map((f) => f.msPerProbe)) / limit) * 100).toFixed(1)} % of the limit`);
    console.log(`lookout ÷ kuma CPU per probe, per round (min / median / max): ${spread(ratios)}`);
    console.log(`kuma gap stray p50 (median of rounds) ${median(kuma.map((f) => f.strayP50 ?? Infinity)).toFixed(0)} ms`);
  }
  const lines: [string, string, boolean | null][] = [
    ['CPU per probe ≤ 0.5× Kuma', ratio === null ? 'no Kuma checkout given' : `${ratio.toFixed(2)}×`, ratio === null ? null : ratio <= 0.5],
    ['≥ 300 probes per CPU-second', `${probesPerCpuS.toFixed(0)}`, probesPerCpuS >= 300],
    ['idle RSS with no checks ≤ 200 MiB', `${idle.get('lookout')!.toFixed(0)} MiB${idle.has('kuma') ? ` (kuma ${idle.get('kuma')!.toFixed(0)})` : ''}`, idle.get('lookout')! <= 200],
    ['RSS at 1,000 checks ≤ 350 MiB', at1000.has('lookout') ? `${at1000.get('lookout')!.toFixed(0)} MiB${at1000.has('kuma') ? ` (kuma ${at1000.get('kuma')!.toFixed(0)})` : ''}` : 'fewer than 1,000 checks', at1000.has('lookout') ? at1000.get('lookout')! <= 350 : null],
    ['first start ≤ 5 CPU-s', `${servers[0]!.startCpu.toFixed(2)}${servers[1] ? ` (kuma ${servers[1].startCpu.toFixed(2)})` : ''}`, servers[0]!.startCpu <= 5],
    ['restart ≤ 3 CPU-s', `${restartCpu.get('lookout')!.toFixed(2)}${restartCpu.has('kuma') ? ` (kuma ${restartCpu.get('kuma')!.toFixed(2)})` : ''}`, restartCpu.get('lookout')! <= 3],
    ['no ramp-up after a restart (≥ 99 % of checks in the first interval)', `${(rampUp.get('lookout')! * 100).toFixed(1)} %${rampUp.has('kuma') ? ` (kuma ${(rampUp.get('kuma')! * 100).toFixed(1)} %)` : ''}`, rampUp.get('lookout')! >= 0.99],
    (() => {
      const lookoutPage = pageFigures.get('lookout')![0]!;
      const kumaPage = pageFigures.get('kuma');
      if (!kumaPage) return ['public page ≥ 2× Kuma\'s cached JSON', `${lookoutPage.rps.toFixed(0)} req/s; no Kuma checkout given`, null] as [string, string, boolean | null];
      const fastest = Math.max(...kumaPage.map((f) => f.rps));
      return ['public page ≥ 2× Kuma\'s cached JSON', `${lookoutPage.rps.toFixed(0)} req/s vs ${kumaPage.map((f) => `${f.url} ${f.rps.toFixed(0)}`).join(', ')} (${(lookoutPage.rps / fastest).toFixed(2)}× the faster)`, lookoutPage.rps >= 2 * fastest] as [string, string, boolean | null];
    })(),
    [`gap jitter p50 ≤ 20 ms at ${N} checks`, `${strayP50.toFixed(0)} ms (p99 ${median(lookout.map((f) => f.strayP99 ?? Infinity)).toFixed(0)} ms)`, strayP50 <= 20],
  ];
  for (const [what, figure, met] of lines) console.log(`${verdict(met).padEnd(12)} ${what}: ${figure}`);
} finally {
  for (const s of servers) await s.stop().catch((err: unknown) => console.error(`stopping ${s.name}:`, err));
  target.child.kill();
}
