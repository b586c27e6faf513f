/**
 * Scale benchmark (issue 12, "Runs that survive anything: many processes"):
 * `npm run bench:scale -- [--checks 20000] [--runners 1,2] [--minutes 3] [--warmup 60]
 * [--takeover-rounds 3] [--concurrency N] [--no-analyze]`. Needs PostgreSQL (DATABASE_URL or TEST_DATABASE_URL)
 * and Redis (REDIS_URL or TEST_REDIS_URL); exits 2 without them.
 *
 * For each runner count (`--runners`) and each size (`--checks`, a comma list is a ramp, smallest
 * first, stopped at the first size that is not sustained) a fresh schema is seeded with N API checks
 * at frequency 1 (phases spread by id, as in production) against a loopback HTTP target, then one
 * `lookout serve --role api` process and R `lookout serve --role runner` processes are started on
 * it, sharing PostgreSQL and Redis:
 *
 * 1. **Sustained 1-minute checks.** After a warm-up (`--warmup` s) the slots planned in the next
 *    `--minutes` minutes are measured from the database once they are due: start delay = the stored
 *    `started_at` of the slot's FINAL result − its planned slot (the claim precedes the probe by a
 *    few ms; the runners' own claim − slot histogram from /metrics is printed alongside), p50 / p99
 *    / max per minute, a slot never run counting as infinitely late; results/s; CPU of each process.
 *    "Sustained" = p99 < 1 s in every measured minute and no slot left unrun.
 * 2. **Takeover** (on the last phase with ≥ 2 runners): SIGKILL of the scheduler leader, time until
 *    a standby logs its election and until its scheduler runs, and how late the slots around the
 *    kill started. A new standby replaces each killed leader.
 * 3. **Cross-process event latency**: `/v1/events/stream` on the API process receives the
 *    `checkResultCreated` events of runs the runner processes executed (through Redis): latency =
 *    receive time here − the result's `created_at` (PostgreSQL's clock on the same machine).
 * 4. **Re-lease after killing an agent** (`--agent-rounds 3`, `--agent-checks 20`): a private
 *    location's checks run on a `lookout agent` process; it is SIGKILLed while it holds runs and a
 *    new agent started: time from the kill until each of its runs is leased again and done, and
 *    the FINAL results those runs stored (each exactly once). `--runners ''` measures only this.
 *
 * On a PostgreSQL with autovacuum off (the test server's setting) the bench runs ANALYZE on its
 * scratch tables every 15 s, as autovacuum would (`--no-analyze` leaves the statistics stale: the
 * run queue's claim then degrades with the queue's length, see bench/RESULTS.md).
 *
 * Loopback only; bounded in time; prints a progress line every `--progress` s.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { withCheckDefaults } from '../src/domain/check-defaults.js';
import { bootstrap } from '../src/service/bootstrap.js';
import { createStore, type Store } from '../src/store/create-store.js';
import { cpuSecondsOf } from './bench-process.js';
import { measureAgentRelease } from './scale-agent.js';
import { killLeader, SCHEDULER_STARTED, scratchSchema, spawnLookout, stopLookout, within, type LookoutProcess } from './scale-processes.js';

const { values: args } = parseArgs({
  options: {
    checks: { type: 'string', default: '20000' },
    runners: { type: 'string', default: '1,2' },
    minutes: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '60' },
    'takeover-rounds': { type: 'string', default: '3' },
    concurrency: { type: 'string' },
    progress: { type: 'string', default: '15' },
    analyze: { type: 'boolean', default: true },
    'agent-rounds': { type: 'string', default: '3' },
    'agent-checks': { type: 'string', default: '20' },
  },
  allowNegative: true,
});
const sizes = args.checks.split(',').map(Number).sort((a, b) => a - b);
const runnerCounts = args.runners.split(',').filter(Boolean).map(Number);
const minutes = Number(args.minutes);
const warmupMs = Number(args.warmup) * 1000;
const takeoverRounds = Number(args['takeover-rounds']);
const progressMs = Number(args.progress) * 1000;
const agentRounds = Number(args['agent-rounds']);
const agentChecks = Number(args['agent-checks']);
const P99_BOUND_MS = 1_000;
const EVENT_P99_BOUND_MS = 50;

const out = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const fmtMs = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms)}` : '∞');

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Busy and total jiffies of the whole machine (every core), from /proc/stat. */
function machineJiffies(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * CPU seconds of every PostgreSQL process on the machine (other clients' backends included; a
 * backend that exits takes its seconds with it): how much of the machine the database takes.
 */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    total += cpuSecondsOf(Number(pid)) ?? 0;
  }
  return total;
}

/** The HTTP target runs in its own process so it does not share anyone's event loop. */
async function startTarget(): Promise<{ url: string; pid: number | undefined; stop(): void }> {
  const child = fork(fileURLToPath(new URL('./runner-target.mjs', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  return { url: `http://127.0.0.1:${port}/ok`, pid: child.pid, stop: () => child.kill() };
}

async function seed(store: Store, accountId: string, n: number, targetUrl: string): Promise<void> {
  for (let i = 0; i < n; i += 1000) {
    await store.transaction(async (repos) => {
      for (let j = i; j < Math.min(n, i + 1000); j++) {
        const data = withCheckDefaults('API', { name: `scale ${j}`, frequency: 1, locations: ['eu-west-1'], request: { url: targetUrl, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } }, '');
        await repos.checks.insert(accountId, { id: randomUUID(), checkType: 'API', data });
      }
    });
  }
}

/** The figures of one runner process's /metrics this benchmark follows. */
interface Scrape { delayCount: number; delayUnder1s: number; buckets: [number, number][]; queueDepth: number; runs: number; inFlight: number }

async function scrape(base: string): Promise<Scrape | null> {
  try {
    const res = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5_000) });
    const text = await res.text();
    const buckets: [number, number][] = [];
    for (const m of text.matchAll(/^lookout_run_start_delay_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm)) buckets.push([m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2])]);
    const one = (re: RegExp) => Number(text.match(re)?.[1] ?? 0);
    let runs = 0;
    for (const m of text.matchAll(/^lookout_check_runs_total\{[^}]*\} (\S+)$/gm)) runs += Number(m[1]);
    return {
      buckets, runs,
      delayCount: one(/^lookout_run_start_delay_seconds_count (\S+)$/m),
      delayUnder1s: buckets.find(([le]) => le === 1)?.[1] ?? 0,
      queueDepth: one(/^lookout_run_queue_depth (\S+)$/m),
      inFlight: one(/^lookout_runs_in_flight (\S+)$/m),
    };
  } catch {
    return null;
  }
}

/** p (0–100) of the claim − slot delays between two scrapes, interpolated inside the histogram's bucket, in ms. */
function histogramPercentile(before: Scrape, after: Scrape, p: number): number {
  const total = after.delayCount - before.delayCount;
  if (total <= 0) return NaN;
  const rank = (p / 100) * total;
  let lower = 0;
  let below = 0;
  for (let i = 0; i < after.buckets.length; i++) {
    const [le, cum] = after.buckets[i]!;
    const count = cum - (before.buckets[i]?.[1] ?? 0);
    if (count >= rank) {
      if (!Number.isFinite(le)) return Infinity;
      const inBucket = count - below;
      return (lower + (inBucket > 0 ? (rank - below) / inBucket : 1) * (le - lower)) * 1000;
    }
    lower = le;
    below = count;
  }
  return NaN;
}

/** `/v1/events/stream` of the API process: records receive time − result.created_at of each checkResultCreated. */
function followEvents(base: string, apiKey: string) {
  let recording = false;
  const latencies: number[] = [];
  let received = 0;
  let req: http.ClientRequest | undefined;
  const connected = new Promise<void>((resolve, reject) => {
    req = http.get(`${base}/v1/events/stream?types=checkResultCreated`, { headers: { authorization: `Bearer ${apiKey}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`event stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = Date.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (message.startsWith(':')) {
            resolve();
            continue;
          }
          const data = message.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          received++;
          if (!recording) continue;
          const event = JSON.parse(data.slice(6)) as { result?: { created_at?: string } };
          const created = Date.parse(event.result?.created_at ?? '');
          if (Number.isFinite(created)) latencies.push(at - created);
        }
      });
      res.on('error', () => {});
    });
    req.on('error', reject);
  });
  return {
    connected,
    received: () => received,
    record(on: boolean) {
      recording = on;
    },
    latencies,
    close: () => req?.destroy(),
  };
}

/** Start delay of every slot planned in [fromMs, toMs) from the database: FINAL started_at − slot_at (Infinity: never ran). */
async function slotDelays(store: Store, fromMs: number, toMs: number): Promise<{ slotMs: number; delayMs: number; state: string }[]> {
  const rows = await store.db.query<{ slot: number; started: number | null; state: string }>(
    `SELECT (extract(epoch FROM j.slot_at) * 1000)::float8 AS slot, j.state,
       (SELECT (extract(epoch FROM min(r.started_at)) * 1000)::float8 FROM check_results r
        WHERE r.check_id = j.check_id AND r.result_type = 'FINAL' AND r.started_at >= j.slot_at AND r.started_at < j.slot_at + interval '60 seconds') AS started
     FROM run_jobs j WHERE j.slot_at >= $1 AND j.slot_at < $2`,
    [new Date(fromMs), new Date(toMs)],
  );
  return rows.map((r) => ({ slotMs: Number(r.slot), delayMs: r.started === null ? Infinity : Number(r.started) - Number(r.slot), state: r.state }));
}

/** Waits until no slot planned before `toMs` is queued or leased (at most `limitMs`). */
async function drained(store: Store, toMs: number, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const [row] = await store.db.query<{ open: number }>(`SELECT count(*)::int AS open FROM run_jobs WHERE state IN ('queued', 'leased') AND slot_at < $1`, [new Date(toMs)]);
    if (Number(row?.open ?? 0) === 0) return;
    await sleep(1_000);
  }
}

interface MinuteFigures { minute: number; slots: number; missing: number; p50: number; p99: number; max: number }
interface PhaseFigures {
  runners: number; checks: number; seedS: number; perMinute: MinuteFigures[]; all: MinuteFigures; resultsPerS: number;
  sustained: boolean; cpu: Record<string, number>; machineBusy: number; events: { count: number; p50: number; p99: number; max: number };
  problems: Map<string, number>; takeovers: TakeoverFigures[]; loadStart: string; loadEnd: string;
}
interface TakeoverFigures { takeoverMs: number; schedulingMs: number; slots: number; late: number; missing: number; p99: number; max: number }

function summarise(minute: number, delays: number[]): MinuteFigures {
  const sorted = [...delays].sort((a, b) => a - b);
  return { minute, slots: sorted.length, missing: sorted.filter((d) => !Number.isFinite(d)).length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

/** One phase: `runnerCount` runner processes on `checks` checks; `takeover(missed)` (given the slots it left unrun) says whether to kill leaders after measuring. */
async function phase(runnerCount: number, checks: number, url: string, redisUrl: string, takeover: (missed: number) => boolean): Promise<PhaseFigures> {
  const tag = `[${runnerCount} runner${runnerCount > 1 ? 's' : ''}, ${checks} checks]`;
  const scratch = await scratchSchema(url, 'bench_scale');
  const store = await createStore({ databaseUrl: url, schema: scratch.schema, poolSize: 2 });
  const target = await startTarget();
  const live: LookoutProcess[] = [];
  cleanupOnSignal.schemas.add(scratch.drop);
  const events: ReturnType<typeof followEvents>[] = [];
  let analyzer: NodeJS.Timeout | undefined;
  try {
    const apiKey = `lo_bench_scale_${randomBytes(12).toString('hex')}`;
    const { accountId } = await bootstrap(store, { accountId: randomUUID(), apiKey });
    const seedStart = Date.now();
    await seed(store, accountId, checks, target.url);
    const seedS = (Date.now() - seedStart) / 1000;
    out(`${tag} seeded ${checks} API checks (frequency 1) in ${seedS.toFixed(1)} s; starting 1 API + ${runnerCount} runner processes`);
    const env: Record<string, string> = {
      DATABASE_URL: scratch.databaseUrl, REDIS_URL: redisUrl, LOOKOUT_ACCOUNT_ID: accountId, LOOKOUT_API_KEY: apiKey,
      ...(args.concurrency ? { LOOKOUT_RUNNER_CONCURRENCY: args.concurrency } : {}),
    };
    const api = await spawnLookout({ ...env, LOOKOUT_ROLE: 'api' });
    live.push(api);
    cleanupOnSignal.processes.add(api);
    const runners: LookoutProcess[] = [];
    for (let i = 0; i < runnerCount; i++) {
      const r = await spawnLookout({ ...env, LOOKOUT_ROLE: 'runner' });
      runners.push(r);
      live.push(r);
      cleanupOnSignal.processes.add(r);
    }
    await within(Promise.race(runners.map((r) => r.logged(SCHEDULER_STARTED))), 60_000, 'the first scheduler start');
    // Without autovacuum the planner never learns that run_jobs grew, and the claim (an anti-join
    // on it) turns quadratic in the queue: do what autovacuum would, unless told not to.
    const autovacuum = (await store.db.query<{ autovacuum: string }>('SHOW autovacuum'))[0]?.autovacuum;
    if (autovacuum === 'off' && args.analyze) {
      out(`${tag} this PostgreSQL runs with autovacuum off: ANALYZE of run_jobs, check_results and checks every 15 s stands in for it (--no-analyze: do not)`);
      analyzer = setInterval(() => void store.db.query('ANALYZE run_jobs, check_results, checks').catch(() => {}), 15_000);
    } else if (autovacuum === 'off') {
      out(`${tag} this PostgreSQL runs with autovacuum off and --no-analyze: the tables' statistics stay those of empty tables`);
    }
    const stream = followEvents(api.url, apiKey);
    events.push(stream);
    await within(stream.connected, 10_000, 'the event stream');

    const started = Date.now();
    const windowFrom = started + warmupMs;
    const windowTo = windowFrom + minutes * 60_000;
    const names = new Map<LookoutProcess, string>([[api, 'api'], ...runners.map((r, i) => [r, `runner${i + 1}`] as [LookoutProcess, string])]);
    const cpuAt = new Map<string, number>();
    let machineAt = machineJiffies();
    let loadStart = loadavg();
    const scrapes = new Map<LookoutProcess, Scrape>();
    // Runs each runner process had recorded when measuring started (its share of the work).
    const runsAt = new Map<LookoutProcess, number>();
    out(`${tag} warm-up ${warmupMs / 1000} s, then ${minutes} measured minute(s); a progress line every ${progressMs / 1000} s`);
    let measuring = false;
    let measuredFrom = windowFrom;
    while (Date.now() < windowTo) {
      if (!measuring && Date.now() >= windowFrom) {
        measuring = true;
        measuredFrom = Date.now();
        stream.record(true);
        for (const [p, name] of names) cpuAt.set(name, cpuSecondsOf(p.child.pid) ?? 0);
        cpuAt.set('target', cpuSecondsOf(target.pid) ?? 0);
        cpuAt.set('bench', process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6);
        cpuAt.set('postgres', postgresCpuSeconds());
        for (const r of runners) {
          const s = await scrape(r.url);
          if (s) runsAt.set(r, s.runs);
        }
        machineAt = machineJiffies();
        loadStart = loadavg();
      }
      const next = Math.min(Date.now() + progressMs, !measuring ? windowFrom : windowTo);
      await sleep(Math.max(0, next - Date.now()));
      const parts: string[] = [];
      let runs = 0;
      let depth = 0;
      const inFlight: number[] = [];
      // The claim − slot histograms of every runner since the last line, added up.
      const sum = (x: Scrape[]): Scrape => ({
        delayCount: x.reduce((a, b) => a + b.delayCount, 0), delayUnder1s: x.reduce((a, b) => a + b.delayUnder1s, 0), queueDepth: 0, runs: 0, inFlight: 0,
        buckets: (x[0]?.buckets ?? []).map(([le], i) => [le, x.reduce((a, b) => a + (b.buckets[i]?.[1] ?? 0), 0)]),
      });
      const befores: Scrape[] = [];
      const afters: Scrape[] = [];
      for (const r of runners.filter((x) => x.alive())) {
        const s = await scrape(r.url);
        if (!s) continue;
        const before = scrapes.get(r);
        if (before) {
          befores.push(before);
          afters.push(s);
        }
        runs += s.runs;
        depth = s.queueDepth;
        inFlight.push(s.inFlight);
        scrapes.set(r, s);
      }
      const [b, a] = [sum(befores), sum(afters)];
      const delayCount = a.delayCount - b.delayCount;
      const under = a.delayUnder1s - b.delayUnder1s;
      const p99 = histogramPercentile(b, a, 99);
      for (const [p, name] of names) parts.push(`${name}=${cpuSecondsOf(p.child.pid)?.toFixed(0) ?? '-'}s`);
      out(`${tag} t=${Math.round((Date.now() - started) / 1000)}s ${measuring ? 'measuring' : 'warm-up'} runs=${runs} queue=${depth} inFlight=${inFlight.join('+')} ` +
        `claim−slot ≤1s ${delayCount > 0 ? `${((100 * under) / delayCount).toFixed(2)}% (p99≈${fmtMs(p99)} ms, ${delayCount} runs)` : '-'} events=${stream.received()} ` +
        `cpu ${parts.join(' ')} load ${loadavg()}`);
    }
    stream.record(false);
    const window = (Date.now() - measuredFrom) / 1000;
    const cpu: Record<string, number> = {};
    for (const [p, name] of names) cpu[name] = ((cpuSecondsOf(p.child.pid) ?? 0) - (cpuAt.get(name) ?? 0)) / window;
    cpu.target = ((cpuSecondsOf(target.pid) ?? 0) - (cpuAt.get('target') ?? 0)) / window;
    cpu.bench = (process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 - (cpuAt.get('bench') ?? 0)) / window;
    cpu['postgres(all)'] = (postgresCpuSeconds() - (cpuAt.get('postgres') ?? 0)) / window;
    const share: string[] = [];
    for (const r of runners) {
      const s = await scrape(r.url);
      if (s && runsAt.has(r)) share.push(`${names.get(r)}=${s.runs - runsAt.get(r)!}`);
    }
    const m = machineJiffies();
    const machineBusy = (m.busy - machineAt.busy) / (m.total - machineAt.total);
    const loadEnd = loadavg();

    out(`${tag} window over; waiting for its last slots to finish, then reading the start delays from the database`);
    await drained(store, windowTo, 30_000);
    const delays = await slotDelays(store, windowFrom, windowTo);
    const perMinute: MinuteFigures[] = [];
    for (let i = 0; i < minutes; i++) {
      const from = windowFrom + i * 60_000;
      // A slot never queued is a slot missed too: each check has one slot per minute.
      const got = delays.filter((d) => d.slotMs >= from && d.slotMs < from + 60_000).map((d) => d.delayMs);
      const neverQueued = Math.max(0, checks - got.length);
      perMinute.push(summarise(i + 1, [...got, ...Array<number>(neverQueued).fill(Infinity)]));
    }
    const neverQueuedAll = Math.max(0, checks * minutes - delays.length);
    const all = summarise(0, [...delays.map((d) => d.delayMs), ...Array<number>(neverQueuedAll).fill(Infinity)]);
    const resultsPerS = delays.filter((d) => Number.isFinite(d.delayMs)).length / (minutes * 60);
    const sustained = perMinute.every((f) => f.p99 < P99_BOUND_MS) && all.missing === 0;
    const lat = [...stream.latencies].sort((a, b) => a - b);
    const eventFigures = { count: lat.length, p50: percentile(lat, 50), p99: percentile(lat, 99), max: lat.at(-1) ?? NaN };
    for (const f of perMinute) {
      out(`${tag} minute ${f.minute}: slots=${f.slots} missed=${f.missing} start delay p50=${fmtMs(f.p50)} p99=${fmtMs(f.p99)} max=${fmtMs(f.max)} ms`);
    }
    out(`${tag} RESULT results/s=${resultsPerS.toFixed(1)} (needed ${(checks / 60).toFixed(1)}) start delay p50=${fmtMs(all.p50)} p99=${fmtMs(all.p99)} max=${fmtMs(all.max)} ms ` +
      `missed=${all.missing} sustained=${sustained ? 'yes' : 'NO'}`);
    out(`${tag} CPU (cores) ${Object.entries(cpu).map(([k, v]) => `${k}=${v.toFixed(2)}`).join(' ')} machine busy=${(machineBusy * 100).toFixed(0)}% of ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} cores; load ${loadStart} → ${loadEnd}`);
    out(`${tag} FINAL results recorded per runner process during the window: ${share.join(' ')}`);
    out(`${tag} events: ${eventFigures.count} checkResultCreated over /v1/events/stream (API process) from the runner processes: ` +
      `latency p50=${fmtMs(eventFigures.p50)} p99=${fmtMs(eventFigures.p99)} max=${fmtMs(eventFigures.max)} ms (bound p99 < ${EVENT_P99_BOUND_MS} ms)`);

    const takeovers: TakeoverFigures[] = [];
    if (takeover(all.missing)) {
      for (let round = 1; round <= takeoverRounds; round++) {
        const leaders = [];
        for (const r of runners.filter((x) => x.alive())) {
          const health = await fetch(`${r.url}/health`).then((res) => res.json() as Promise<{ scheduler?: string }>).catch(() => ({ scheduler: undefined }));
          if (health.scheduler === 'leader') leaders.push(r);
        }
        const leader = leaders[0];
        if (!leader) throw new Error('no runner process reports itself leader on /health');
        const standbys = runners.filter((x) => x.alive() && x !== leader);
        const t = await killLeader(leader, standbys);
        const scheduling = await within(t.leader.logged(SCHEDULER_STARTED), 60_000, 'the new leader\'s scheduler start');
        // The dead leader's leased runs come back after their leases expire (15 s): wait past that, and past the slots measured.
        // 60 s of slots, so every check has exactly one in it: 10 s before the kill to 50 s after.
        const from = t.killedAt - 10_000;
        const to = t.killedAt + 50_000;
        await sleep(Math.max(0, to + 5_000 - Date.now()));
        await drained(store, to, 30_000);
        const around = await slotDelays(store, from, to);
        const sorted = around.map((d) => d.delayMs).sort((a, b) => a - b);
        const fig: TakeoverFigures = {
          takeoverMs: t.takeoverMs, schedulingMs: scheduling - t.killedAt, slots: around.length,
          late: sorted.filter((d) => d >= P99_BOUND_MS).length, missing: Math.max(0, checks - around.length) + sorted.filter((d) => !Number.isFinite(d)).length,
          p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN,
        };
        takeovers.push(fig);
        // A fresh standby replaces the dead leader (after the slots measured: starting one takes CPU), so each round kills a leader that has one.
        if (round < takeoverRounds) {
          const replacement = await spawnLookout({ ...env, LOOKOUT_ROLE: 'runner' });
          runners.push(replacement);
          live.push(replacement);
          cleanupOnSignal.processes.add(replacement);
          names.set(replacement, `runner${runners.length}`);
        }
        out(`${tag} takeover round ${round}: elected after ${fig.takeoverMs} ms, scheduler running after ${fig.schedulingMs} ms; ` +
          `slots planned from 10 s before to 50 s after the kill: ${fig.slots} of ${checks}, ≥1 s late ${fig.late}, missed ${fig.missing}, p99 ${fmtMs(fig.p99)} ms, max ${fmtMs(fig.max)} ms`);
      }
    }
    const problems = new Map<string, number>();
    for (const p of live) for (const [msg, n] of p.problems()) problems.set(msg, (problems.get(msg) ?? 0) + n);
    for (const [msg, n] of problems) out(`${tag} logged ${n}× (warn/error): ${msg}`);
    return { runners: runnerCount, checks, seedS, perMinute, all, resultsPerS, sustained, cpu, machineBusy, events: eventFigures, problems, takeovers, loadStart, loadEnd };
  } finally {
    clearInterval(analyzer);
    for (const s of events) s.close();
    await Promise.all(live.map((p) => stopLookout(p)));
    target.stop();
    await store.close();
    await scratch.drop();
    cleanupOnSignal.schemas.delete(scratch.drop);
    for (const p of live) cleanupOnSignal.processes.delete(p);
  }
}

/** What an interrupted run must not leave behind: its children and its scratch schema. */
const cleanupOnSignal = { processes: new Set<LookoutProcess>(), schemas: new Set<() => Promise<void>>() };
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // `on`, not `once`: a second signal (a terminal and npm both forward Ctrl-C) must not kill us mid-cleanup.
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    out(`\n${signal}: stopping the children and dropping the scratch schema`);
    for (const p of cleanupOnSignal.processes) if (p.alive()) p.child.kill('SIGKILL');
    void Promise.all([...cleanupOnSignal.processes].map((p) => p.exited))
      .then(() => Promise.allSettled([...cleanupOnSignal.schemas].map((drop) => drop())))
      .finally(() => process.exit(130));
  });
}

async function main(): Promise<number> {
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.REDIS_URL || process.env.TEST_REDIS_URL;
  if (!url || !redisUrl) {
    process.stderr.write('set DATABASE_URL (or TEST_DATABASE_URL) and REDIS_URL (or TEST_REDIS_URL): the processes share both\n');
    return 2;
  }
  out(`scale bench: checks ${sizes.join(', ')}; runner processes ${runnerCounts.join(', ')}; warm-up ${warmupMs / 1000} s + ${minutes} min each; load ${loadavg()}`);
  const results: PhaseFigures[] = [];
  const takeoverOn = Math.max(...runnerCounts) >= 2 && takeoverRounds > 0 ? Math.max(...runnerCounts) : 0;
  for (const runnerCount of runnerCounts) {
    for (const n of sizes) {
      const last = n === sizes.at(-1);
      // Takeover is measured once, on the last size this runner count runs.
      const f = await phase(runnerCount, n, url, redisUrl, (missed) => runnerCount === takeoverOn && (last || missed > 0));
      results.push(f);
      // Slots left unrun (a backlog): a larger size will not keep up either. (A p99 over 1 s alone does not stop the ramp: on a shared machine it can be a neighbour's burst.)
      if (f.all.missing > 0 && !last) {
        out(`[${runnerCount} runner(s)] ${n} checks left slots unrun: larger sizes skipped`);
        break;
      }
    }
  }
  // 4. Re-lease after killing a private-location agent.
  const release = agentRounds > 0 ? await measureAgentRelease(url, redisUrl, agentRounds, agentChecks, out) : [];

  out('\nSUMMARY');
  out('| runners | checks | results/s (needed) | start delay p50 / p99 / max (ms) | missed | sustained | CPU cores (api, runners…) | events p50 / p99 (n) |');
  out('|---:|---:|---:|---|---:|---|---|---|');
  for (const f of results) {
    const cpu = Object.entries(f.cpu).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ');
    out(`| ${f.runners} | ${f.checks} | ${f.resultsPerS.toFixed(1)} (${(f.checks / 60).toFixed(1)}) | ${fmtMs(f.all.p50)} / ${fmtMs(f.all.p99)} / ${fmtMs(f.all.max)} | ${f.all.missing} | ` +
      `${f.sustained ? 'yes' : 'no'} | ${cpu}; machine ${(f.machineBusy * 100).toFixed(0)} % | ${fmtMs(f.events.p50)} / ${fmtMs(f.events.p99)} (${f.events.count}) |`);
  }
  if (release.length > 0) {
    const rel = release.flatMap((r) => r.releasedMs).sort((a, b) => a - b);
    const done = release.flatMap((r) => r.doneMs).sort((a, b) => a - b);
    out(`agent re-lease after SIGKILL (${release.length} rounds, ${rel.length} runs): re-leased p50 ${fmtMs(percentile(rel, 50))} / max ${fmtMs(rel.at(-1) ?? NaN)} ms; ` +
      `done p50 ${fmtMs(percentile(done, 50))} / max ${fmtMs(done.at(-1) ?? NaN)} ms; FINAL results ${release.reduce((n, r) => n + r.finals, 0)} for ${rel.length} runs`);
  }
  for (const f of results) {
    for (const t of f.takeovers) {
      out(`takeover (${f.runners} runners, ${f.checks} checks): elected ${t.takeoverMs} ms, scheduling ${t.schedulingMs} ms, slots ≥1 s late ${t.late}/${t.slots}, missed ${t.missing}, max ${fmtMs(t.max)} ms`);
    }
  }
  return 0;
}

main().then((code) => process.exit(code), (err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
