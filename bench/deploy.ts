/**
 * Deploy benchmark (issue 11): `npm run bench:deploy -- [--runs 5] [--warmup 1]
 * [--backends pglite-memory,pglite-disk,postgres] [--checks 500] [--groups 20] [--change 10] [--cpu-prof <dir>]`.
 *
 * For each storage backend it starts a server with an empty account and, --runs times (after --warmup
 * unmeasured rounds), sends what `checkly deploy` sends (gzip bodies, `Content-Encoding: gzip`) for a
 * project of 500 checks in 20 groups (mostly API checks with headers and assertions, some URL, TCP,
 * DNS and Browser checks; 5 alert channels, 90 alert channel subscriptions; see bench/deploy-project.ts):
 *
 * 1. fresh deploy into the empty account (`POST /v1/projects/deploy?dryRun=false&scheduleOnDeploy=true`);
 * 2. redeploy of the next version, where 10 % of the checks changed (name, frequency or an assertion)
 *    and nothing else did;
 * 3. preview (`dryRun=true`) of that change, sent before the redeploy (as the CLI's own preflight is);
 * 4. destroy (`DELETE /v1/projects/{logicalId}`), which leaves the account empty for the next round.
 *
 * Each figure is the wall time of one HTTP call, sent to its last byte answered, over loopback; the
 * table shows min/median/max per scenario, SQL statements per call (counted in the server child),
 * the time spent waiting for them and the server's CPU time. Targets (issue 11): fresh deploy ≤ 5 s
 * and redeploy ≤ 2 s on PostgreSQL, judged on the median. The server runs with the scheduled runner
 * off: the deployed checks are `activated` as a real project's are, but nothing runs them, so the
 * figures are the deploy's alone.
 *
 * PostgreSQL runs when DATABASE_URL or TEST_DATABASE_URL is set, in a fresh schema dropped afterwards.
 * The server runs in a child process (see bench/rest.ts for why). Exits 0, or 1 when any answer was
 * not 2xx (or not what the call should answer) or a backend could not be measured.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { StoreOptions } from '../src/store/create-store.js';
import { benchBackends } from './bench-backends.js';
import { askStats, cpuSecondsOf, forkBenchServer, stopBenchServer } from './bench-process.js';
import { deployBundle, describeBundle, type ProjectShape } from './deploy-project.js';
import type { DeployReadyMessage, DeployStatsMessage, StatementCount } from './deploy-server.js';

/** Targets of issue 11 (ms, PostgreSQL, median of the runs). */
const TARGETS = { fresh: 5000, redeploy: 2000 };
/** A call not answered within this long counts as a failure. */
const CALL_TIMEOUT_MS = 120_000;

type ScenarioKey = 'fresh' | 'redeploy' | 'preview' | 'destroy';
const SCENARIO_NAMES: Record<ScenarioKey, string> = {
  fresh: '1. fresh deploy',
  redeploy: '2. redeploy, 10 % changed',
  preview: '3. preview of that change',
  destroy: '4. destroy',
};
const SCENARIO_ORDER: ScenarioKey[] = ['fresh', 'redeploy', 'preview', 'destroy'];

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function render(title: string, header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [title, line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** What the server counted since the previous ask (each ask starts a new count). */
const statsOf = (child: ChildProcess) => askStats<DeployStatsMessage>(child);

function startServer(options: StoreOptions, profileFile: string | undefined) {
  const script = fileURLToPath(new URL('./deploy-server.ts', import.meta.url));
  return forkBenchServer<DeployReadyMessage>(script, [JSON.stringify(options), ...(profileFile ? [profileFile] : [])]);
}

interface Call {
  status: number;
  ms: number;
  body: any;
  text: string;
}

/** One HTTP call, timed from sending to the last byte of the answer. */
async function call(ready: DeployReadyMessage, method: string, route: string, gzipped?: Buffer): Promise<Call> {
  const headers: Record<string, string> = { authorization: `Bearer ${ready.apiKey}`, 'x-checkly-account': ready.accountId };
  if (gzipped) Object.assign(headers, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  const started = performance.now();
  const res = await fetch(`${ready.url}${route}`, { method, headers, body: gzipped && new Uint8Array(gzipped), signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  const text = await res.text();
  const ms = performance.now() - started;
  let body: any;
  try { body = JSON.parse(text); } catch { body = undefined; }
  return { status: res.status, ms, body, text };
}

/** How many checks the account has (from `Content-Range`), to see a deploy and a destroy did their work. */
async function checkCount(ready: DeployReadyMessage): Promise<number> {
  const res = await fetch(`${ready.url}/v1/checks?limit=1`, { headers: { authorization: `Bearer ${ready.apiKey}` } });
  await res.arrayBuffer();
  return Number(res.headers.get('content-range')?.split('/')[1] ?? NaN);
}

interface Sample {
  ms: number;
  statements: number;
  inTransaction: number;
  sqlMs: number;
  serverCpuMs: number | null;
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function scenarioTable(title: string, samples: Map<ScenarioKey, Sample[]>): string {
  const header = ['scenario', 'runs', 'min ms', 'median ms', 'max ms', 'SQL statements', 'of them in tx', 'SQL wait ms (median)', 'server CPU ms (median)'];
  const rows = SCENARIO_ORDER.filter((k) => samples.get(k)?.length).map((k) => {
    const s = samples.get(k)!;
    const ms = s.map((x) => x.ms);
    const cpu = s.map((x) => x.serverCpuMs).filter((x): x is number => x !== null);
    return [
      SCENARIO_NAMES[k], String(s.length), fmt(Math.min(...ms)), fmt(median(ms)), fmt(Math.max(...ms)), fmt(median(s.map((x) => x.statements))),
      fmt(median(s.map((x) => x.inTransaction))), fmt(median(s.map((x) => x.sqlMs))), cpu.length ? fmt(median(cpu)) : '-',
    ];
  });
  return render(title, header, rows);
}

/** The statement shapes a call ran most, by count. */
function statementTable(title: string, byStatement: StatementCount[], top: number): string {
  const rows = [...byStatement].sort((a, b) => b.count - a.count || b.ms - a.ms).slice(0, top)
    .map((s) => [s.sql.length > 110 ? `${s.sql.slice(0, 107)}...` : s.sql, fmt(s.count), fmt(s.ms)]);
  return render(title, ['statement', 'count', 'ms'], rows);
}

/** The verdict line: the targets are PostgreSQL's; on PGlite it is shown for comparison only. */
function targetLine(backend: string, kind: 'pglite' | 'postgres', samples: Map<ScenarioKey, Sample[]>): string {
  const part = (key: 'fresh' | 'redeploy') => {
    const s = samples.get(key) ?? [];
    if (s.length === 0) return `${SCENARIO_NAMES[key].slice(3)} ≤ ${fmt(TARGETS[key])} ms: not measured`;
    const m = median(s.map((x) => x.ms));
    const mark = kind === 'postgres' ? (m <= TARGETS[key] ? 'PASS' : 'MISS') : (m <= TARGETS[key] ? 'would pass' : 'would miss');
    return `${SCENARIO_NAMES[key].slice(3)} ≤ ${fmt(TARGETS[key])} ms: ${mark} (median ${fmt(m)}, max ${fmt(Math.max(...s.map((x) => x.ms)))})`;
  };
  const scope = kind === 'postgres' ? 'targets (issue 11, PostgreSQL)' : `targets (issue 11 sets them for PostgreSQL; ${backend} for comparison)`;
  return `${scope}: ${part('fresh')}; ${part('redeploy')}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '1' },
      backends: { type: 'string', default: 'pglite-memory,pglite-disk,postgres' },
      checks: { type: 'string', default: '500' },
      groups: { type: 'string', default: '20' },
      change: { type: 'string', default: '10' },
      'cpu-prof': { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  const warmup = Number(values.warmup);
  const shape: ProjectShape = { checks: Number(values.checks), groups: Number(values.groups), changePercent: Number(values.change) };
  if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new Error('--runs must be 1..100');
  if (!Number.isInteger(warmup) || warmup < 0 || warmup > 10) throw new Error('--warmup must be 0..10');
  if (!Number.isInteger(shape.checks) || shape.checks < 1 || shape.checks > 5000) throw new Error('--checks must be 1..5000');
  if (!Number.isInteger(shape.groups) || shape.groups < 1 || shape.groups > shape.checks) throw new Error('--groups must be 1..checks');
  if (!(shape.changePercent > 0 && shape.changePercent <= 100)) throw new Error('--change must be a percentage above 0');
  const cpuProfDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });

  const first = deployBundle(shape, 0);
  const next = deployBundle(shape, 1);
  const firstJson = JSON.stringify(first);
  const nextJson = JSON.stringify(next);
  const firstGz = gzipSync(firstJson);
  const nextGz = gzipSync(nextJson);
  const logicalId = first.project.logicalId;
  const deployRoute = (dryRun: boolean) => `/v1/projects/deploy?dryRun=${dryRun}&scheduleOnDeploy=true`;
  const changedChecks = first.resources.filter((r, i) => JSON.stringify(r) !== JSON.stringify(next.resources[i])).length;

  log(`Lookout deploy benchmark: ${runs} runs (+${warmup} warm-up) per backend`);
  // Load from other processes skews every figure; the load average makes that visible in the log.
  log(`Node ${process.version}, ${os.cpus().length} CPUs, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const summary = [
    `project: ${first.resources.length} resources (${describeBundle(first)})`,
    `body: ${fmt(Buffer.byteLength(firstJson) / 1024, 1)} KB JSON, ${fmt(firstGz.length / 1024, 1)} KB gzipped (Content-Encoding: gzip, as the checkly CLI sends it); `
      + `changed version: ${changedChecks} checks changed, ${fmt(Buffer.byteLength(nextJson) / 1024, 1)} KB, ${fmt(nextGz.length / 1024, 1)} KB gzipped`,
    'server: scheduled runner off (LOOKOUT_RUNNER=off): the checks are deployed activated, but nothing runs them; rate limit off',
  ];
  process.stdout.write(`${summary.join('\n')}\n`);

  let failures = 0;
  for (const b of benchBackends(values.backends.split(',').map((s) => s.trim()), log)) {
    log(`\n[${b.name}] starting server...`);
    let child: ChildProcess | undefined;
    try {
      const started = await startServer(b.options, cpuProfDir && path.join(cpuProfDir, `deploy-${b.name}.cpuprofile`));
      child = started.child;
      const { ready } = started;
      const samples = new Map<ScenarioKey, Sample[]>(SCENARIO_ORDER.map((k) => [k, []]));
      const lastStatements = new Map<ScenarioKey, StatementCount[]>();

      /** One measured call; answers whether it was what it should be. */
      const step = async (key: ScenarioKey, measured: boolean, method: string, route: string, body: Buffer | undefined, expect: (c: Call) => boolean): Promise<string> => {
        await statsOf(child!);
        const cpuBefore = cpuSecondsOf(child!.pid);
        const c = await call(ready, method, route, body);
        const cpuAfter = cpuSecondsOf(child!.pid);
        const stats = await statsOf(child!);
        const ok = c.status >= 200 && c.status <= 299 && expect(c);
        if (!ok) {
          failures++;
          log(`  ${SCENARIO_NAMES[key]}: answered ${c.status}: ${c.text.slice(0, 400)}`);
          return 'FAILED';
        }
        if (measured) {
          samples.get(key)!.push({
            ms: c.ms, statements: stats.statements, inTransaction: stats.inTransaction, sqlMs: stats.sqlMs,
            serverCpuMs: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) * 1000,
          });
          lastStatements.set(key, stats.byStatement);
        }
        return `${fmt(c.ms)} ms`;
      };
      const members = first.resources.length;
      const succeeded = (kind: string) => (c: Call) => c.status === 202 && c.body?.status === 'SUCCEEDED' && c.body?.kind === kind;
      for (let round = 0; round < warmup + runs; round++) {
        const measured = round >= warmup;
        const label = measured ? `run ${round - warmup + 1}/${runs}` : `warm-up ${round + 1}/${warmup}`;
        const fresh = await step('fresh', measured, 'POST', deployRoute(false), firstGz, (c) => succeeded('DEPLOY')(c)
          && c.body.result.diff.length === members && c.body.result.diff.every((d: { action: string }) => d.action === 'CREATE'));
        if (round === 0) {
          const count = await checkCount(ready);
          if (count !== shape.checks) {
            failures++;
            log(`  after the fresh deploy the account has ${count} checks, not ${shape.checks}`);
          }
        }
        const preview = await step('preview', measured, 'POST', deployRoute(true), nextGz, (c) => c.status === 200 && c.body?.diff?.length === members);
        const redeploy = await step('redeploy', measured, 'POST', deployRoute(false), nextGz, (c) => succeeded('DEPLOY')(c)
          && c.body.result.diff.every((d: { action: string }) => d.action === 'UPDATE'));
        const destroy = await step('destroy', measured, 'DELETE', `/v1/projects/${logicalId}?preserveResources=false&dryRun=false`, undefined, succeeded('DESTROY'));
        const left = await checkCount(ready);
        if (left !== 0) {
          failures++;
          log(`  after the destroy the account still has ${left} checks: stopping this backend`);
          break;
        }
        // Warm-up figures are shown too: the first deploy after a start pays for JIT compilation and cold caches.
        log(`[${b.name}] ${label}: fresh ${fresh}, preview ${preview}, redeploy ${redeploy}, destroy ${destroy}`);
      }
      const mem = await statsOf(child);
      const out = [
        scenarioTable(`${b.name} (${ready.storage}): wall time of each call over loopback, ${runs} runs`, samples),
        `server RSS after the runs: ${fmt(mem.rss / 2 ** 20)} MB${mem.peakRss ? ` (peak ${fmt(mem.peakRss / 2 ** 20)} MB)` : ''}`,
        targetLine(b.name, b.kind, samples),
      ];
      for (const k of ['fresh', 'redeploy'] as const) {
        const s = lastStatements.get(k);
        if (s) out.push(statementTable(`${b.name}: statements of the last ${SCENARIO_NAMES[k].slice(3)}, most frequent first`, s, 8));
      }
      process.stdout.write(`\n${out.join('\n\n')}\n`);
    } catch (err) {
      failures++;
      log(`[${b.name}] failed: ${(err as Error).message}`);
    } finally {
      if (child) await stopBenchServer(child);
      await b.cleanup();
    }
  }
  log(`\nload average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (cpuProfDir) log(`CPU profiles of the server processes are in ${cpuProfDir}`);
  if (failures > 0) log(`\n${failures} answers were not 2xx (or not what the call should answer), or a backend failed: exiting 1`);
  return failures > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    log(`bench: ${err.message}`);
    process.exit(2);
  },
);
