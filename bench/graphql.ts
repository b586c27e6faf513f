/**
 * GraphQL layer benchmark: `npm run bench:graphql -- [--scenarios dashboard,check,fanout]
 * [--duration 10] [--connections 50] [--subscribers 10000] [--rate 100] [--fanout-seconds 20]
 * [--fanout-mode per-check|all] [--clients 2] [--cpu-prof <dir>]`.
 *
 * One server (REST, GraphQL and graphql-ws on one loopback port; PostgreSQL when DATABASE_URL or
 * TEST_DATABASE_URL is set, else in-memory PGlite) seeded with 100 API checks in 5 groups, each
 * subscribed to alert channels and with 8 stored results. Three scenarios, side by side:
 *
 * (a) dashboard: DASHBOARD_QUERY (100 checks with group, status, latest results and alert channels)
 *     against a hand-written REST client fetching the same data as fast as it can (undici Pool,
 *     keep-alive, every independent call concurrent). Operations alternate one at a time, so both see
 *     the same machine load; both answers are checked to hold the same data first. Reports p50/p99,
 *     the p50 ratio (target ≤ 1.2) and REST calls per operation (`extensions.cost`; target ≤ the
 *     distinct resource kinds the query touches).
 * (b) check: `check(id)` throughput with autocannon (rotating over the 100 ids) next to REST
 *     `GET /v1/checks/{id}` on the same server.
 * (c) fanout: --subscribers graphql-ws sockets, one `checkResultCreated` subscription each, from
 *     --clients processes; then --rate results per second published on the service's event bus.
 *     Reports publish-to-receipt p50/p99 (target p99 < 100 ms) and memory per idle subscribed socket
 *     (server heap and RSS after a full GC, delta over the sockets; target ≤ 20 KB). With
 *     `per-check` (default) each socket filters on one of the 100 checks, so every result reaches
 *     subscribers/100 sockets (10,000 messages/s at the defaults); `all` sends every result to
 *     every socket.
 *
 * The server and the subscriber fleets are child processes: on two cores a load generator sharing
 * the server's event loop would understate what the server does alone. 10,000 sockets need
 * `ulimit -n` above ~10,500 for the server (the fleets split theirs); the script checks the limit.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type AutocannonRequest, type Result } from 'autocannon';
import { Pool } from 'undici';
import type { StoreOptions } from '../src/store/create-store.js';
import type { GraphqlReadyMessage, MemoryMessage, ParentMessage } from './graphql-server.js';
import type { ConnectedMessage, ConnectMessage, ReportMessage } from './graphql-ws-clients.js';
import { forkBenchServer, stopBenchServer } from './bench-process.js';
import { dropBenchSchema } from './bench-backends.js';
import { CHECK_QUERY, DASHBOARD_QUERY } from './dashboard-query.js';

const CHECKS = 100;
const WARMUP_SECONDS = 2;


/** Resource kinds DASHBOARD_QUERY touches (the REST-calls target). */
const DASHBOARD_KINDS = ['checks', 'check-groups', 'check-statuses', 'check-results', 'alert-channels'];


/** The live feed of scenario (c). */
const SUBSCRIPTION = `subscription Feed($filter: CheckResultFilter) {
  checkResultCreated(filter: $filter) {
    checkId groupId
    result { id name resultType hasFailures isDegraded runLocation startedAt stoppedAt responseTime sequenceId }
  }
}`;

const TARGETS = { dashboardRatio: 1.2, checkThroughputRatio: 0.7, fanoutP99Ms: 100, bytesPerSocket: 20 * 1024 };

type Json = Record<string, any>;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function summary(values: number[]): { n: number; p50: number; p99: number; mean: number; max: number } {
  const sorted = Float64Array.from(values).sort();
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean, max: sorted[sorted.length - 1] ?? NaN };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const ok = (pass: boolean) => (pass ? 'met' : 'MISSED');

// ---------------------------------------------------------------------------------------------
// The server child

interface Server {
  child: ChildProcess;
  ready: GraphqlReadyMessage;
  ask<T>(msg: ParentMessage, replyType: string): Promise<T>;
  stop(): Promise<void>;
}

async function startServer(options: StoreOptions, profileFile: string | undefined): Promise<Server> {
  const script = fileURLToPath(new URL('./graphql-server.ts', import.meta.url));
  const args = [JSON.stringify(options), String(CHECKS), ...(profileFile ? [profileFile] : [])];
  const { child, ready } = await forkBenchServer<GraphqlReadyMessage>(script, args, ['--expose-gc']);
  return {
    child,
    ready,
    ask<T>(msg: ParentMessage, replyType: string) {
      return new Promise<T>((resolve) => {
        const onMessage = (reply: { type?: string }) => {
          if (reply?.type !== replyType) return;
          child.off('message', onMessage);
          resolve(reply as T);
        };
        child.on('message', onMessage);
        child.send(msg);
      });
    },
    stop: () => stopBenchServer(child),
  };
}

// ---------------------------------------------------------------------------------------------
// (a) the dashboard

/** The result fields the dashboard shows, for `fields=`. */
const RESULT_FIELDS = 'id,checkId,hasFailures,isDegraded,responseTime,runLocation,startedAt';

/** What both clients must agree on, per check: the data the dashboard shows. */
type DashboardRow = { name: string; group: string | null; failing: boolean | null; degraded: boolean | null; results: string[]; channels: number[] };

async function getJson(pool: Pool, headers: Record<string, string>, pathAndQuery: string): Promise<any> {
  const res = await pool.request({ method: 'GET', path: pathAndQuery, headers });
  const body = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`GET ${pathAndQuery} answered ${res.statusCode}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * The hand-written REST client, as fast as the REST API allows: the check page and every status
 * (the account has no more checks than the page) at once, then everything keyed by the page's ids
 * at once: groups and alert channels through their `ids` filters, the 5 latest results of every
 * check through the batch `GET /v2/check-results?checkIds=` (only the fields shown). Returns the
 * rows and the calls made.
 */
async function restDashboard(pool: Pool, headers: Record<string, string>): Promise<{ rows: Map<string, DashboardRow>; calls: number }> {
  const [checks, statuses] = await Promise.all([
    getJson(pool, headers, '/v1/checks?limit=100') as Promise<Json[]>,
    getJson(pool, headers, '/v1/check-statuses') as Promise<Json[]>,
  ]);
  const groupIds = [...new Set(checks.map((c) => c.groupId).filter((g) => g != null))];
  const channelIds = [...new Set(checks.flatMap((c) => (c.alertChannelSubscriptions ?? []).map((s: Json) => s.alertChannelId)))];
  const checkIds = checks.map((c) => c.id as string);
  const none = Promise.resolve([] as Json[]);
  const [groups, channels, results] = await Promise.all([
    groupIds.length ? getJson(pool, headers, `/v1/check-groups?ids=${groupIds.join(',')}&limit=100`) as Promise<Json[]> : none,
    channelIds.length ? getJson(pool, headers, `/v1/alert-channels?ids=${channelIds.join(',')}&limit=100`) as Promise<Json[]> : none,
    checkIds.length
      ? getJson(pool, headers, `/v2/check-results?checkIds=${checkIds.join(',')}&perCheck=5&fields=${RESULT_FIELDS}`).then((r: { entries: Json[] }) => r.entries)
      : none,
  ]);
  const groupName = new Map(groups.map((g) => [g.id, g.name as string]));
  const channelById = new Map(channels.map((c) => [c.id, c]));
  const statusOf = new Map(statuses.map((st) => [st.checkId, st]));
  const resultsOf = new Map<string, string[]>();
  for (const r of results) resultsOf.set(r.checkId, [...(resultsOf.get(r.checkId) ?? []), r.id]);
  const rows = new Map<string, DashboardRow>();
  for (const c of checks) {
    const st = statusOf.get(c.id);
    rows.set(c.id, {
      name: c.name,
      group: c.groupId == null ? null : groupName.get(c.groupId) ?? null,
      failing: st ? Boolean(st.hasFailures) : null,
      degraded: st ? Boolean(st.isDegraded) : null,
      results: resultsOf.get(c.id) ?? [],
      channels: (c.alertChannelSubscriptions ?? []).map((s: Json) => s.alertChannelId).filter((id: number) => channelById.has(id)).sort(),
    });
  }
  return { rows, calls: 2 + [groupIds, channelIds, checkIds].filter((ids) => ids.length > 0).length };
}

async function graphqlDashboard(pool: Pool, headers: Record<string, string>): Promise<{ rows: Map<string, DashboardRow>; calls: number }> {
  const res = await pool.request({ method: 'POST', path: '/graphql', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: DASHBOARD_QUERY }) });
  const body = (await res.body.json()) as { data?: Json; errors?: unknown[]; extensions?: { cost?: { restCalls: number } } };
  if (res.statusCode !== 200 || body.errors) throw new Error(`the dashboard query answered ${res.statusCode}: ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
  const rows = new Map<string, DashboardRow>();
  for (const n of body.data!.checks.nodes as Json[]) {
    rows.set(n.checkId, {
      name: n.name,
      group: n.group?.name ?? null,
      failing: n.status ? n.status.hasFailures : null,
      degraded: n.status ? n.status.isDegraded : null,
      results: n.latestResults.map((r: Json) => r.resultId),
      channels: n.alertChannels.map((c: Json) => c.alertChannelId).sort(),
    });
  }
  return { rows, calls: body.extensions?.cost?.restCalls ?? NaN };
}

function sameRows(a: Map<string, DashboardRow>, b: Map<string, DashboardRow>): string | null {
  if (a.size !== b.size) return `${a.size} checks against ${b.size}`;
  for (const [id, row] of a) {
    if (JSON.stringify(row) !== JSON.stringify(b.get(id))) return `check ${id}: ${JSON.stringify(row)} against ${JSON.stringify(b.get(id))}`;
  }
  return null;
}

async function dashboardScenario(s: Server, duration: number): Promise<{ out: string; failed: boolean }> {
  const { url, apiKey, accountId } = s.ready;
  const headers = { authorization: `Bearer ${apiKey}`, 'x-lookout-account': accountId };
  // As many sockets as the GraphQL layer's own pool to the REST API (createRestClient's default).
  const pool = new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    const g = await graphqlDashboard(pool, headers);
    const r = await restDashboard(pool, headers);
    const diff = sameRows(g.rows, r.rows);
    if (diff) throw new Error(`GraphQL and REST disagree: ${diff}`);
    if (g.rows.size !== CHECKS) throw new Error(`the dashboard shows ${g.rows.size} checks, not ${CHECKS}`);
    const lat = { graphql: [] as number[], rest: [] as number[] };
    let gqlCalls = g.calls;
    const restCalls = r.calls;
    const run = async (seconds: number, keep: boolean) => {
      const until = performance.now() + seconds * 1000;
      while (performance.now() < until) {
        let t = performance.now();
        const one = await graphqlDashboard(pool, headers);
        if (keep) lat.graphql.push(performance.now() - t);
        gqlCalls = Math.max(gqlCalls, one.calls);
        t = performance.now();
        await restDashboard(pool, headers);
        if (keep) lat.rest.push(performance.now() - t);
      }
    };
    log(`  dashboard: warming up ${WARMUP_SECONDS} s, then ${duration * 2} s alternating GraphQL and REST`);
    await run(WARMUP_SECONDS, false);
    await run(duration * 2, true);
    const G = summary(lat.graphql);
    const R = summary(lat.rest);
    const ratio = G.p50 / R.p50;
    const rows = [
      ['GraphQL dashboard query', fmt(G.n), fmt(G.p50, 1), fmt(G.p99, 1), fmt(G.mean, 1), fmt(G.max, 1), fmt(gqlCalls)],
      ['direct REST client', fmt(R.n), fmt(R.p50, 1), fmt(R.p99, 1), fmt(R.mean, 1), fmt(R.max, 1), fmt(restCalls)],
    ];
    const out = [
      `(a) dashboard: ${CHECKS} checks, one operation at a time, ${duration * 2} s alternating`,
      table(['client', 'operations', 'p50 ms', 'p99 ms', 'mean ms', 'max ms', 'REST calls/op'], rows),
      `targets: GraphQL p50 <= ${TARGETS.dashboardRatio}x direct: ${ok(ratio <= TARGETS.dashboardRatio)} (${fmt(ratio, 2)}x); `
        + `REST calls/op <= ${DASHBOARD_KINDS.length} kinds (${DASHBOARD_KINDS.join(', ')}): ${ok(gqlCalls <= DASHBOARD_KINDS.length)} (${gqlCalls})`,
    ].join('\n');
    return { out, failed: false };
  } finally {
    await pool.close();
  }
}

// ---------------------------------------------------------------------------------------------
// (b) check(id) throughput

function load(label: string, url: string, headers: Record<string, string>, requests: AutocannonRequest[], connections: number, duration: number): Promise<Result> {
  const instance = autocannon({ url, connections, duration, headers, requests, timeout: 10 });
  let elapsed = 0;
  let count = 0;
  instance.on('tick', (tick: { counter: number }) => {
    elapsed++;
    count += tick.counter;
    if (elapsed % 5 === 0 || elapsed === duration) log(`  ${label}: ${elapsed}/${duration} s, ${fmt(count)} requests`);
  });
  return instance as unknown as Promise<Result>;
}

async function checkScenario(s: Server, duration: number, connections: number): Promise<{ out: string; failed: boolean }> {
  const { url, apiKey, accountId, checkIds } = s.ready;
  const headers = { authorization: `Bearer ${apiKey}`, 'x-lookout-account': accountId };
  const one = await fetch(`${url}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: CHECK_QUERY, variables: { id: checkIds[0] } }) });
  const body = (await one.json()) as Json;
  if (one.status !== 200 || body.errors || body.data?.check?.checkId !== checkIds[0]) throw new Error(`check(id) answered ${one.status}: ${JSON.stringify(body).slice(0, 500)}`);
  let next = 0;
  const graphqlReq: AutocannonRequest[] = [{
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setupRequest: (req) => ({ ...req, path: '/graphql', body: JSON.stringify({ query: CHECK_QUERY, variables: { id: checkIds[next++ % checkIds.length] } }) }),
  }];
  let nextRest = 0;
  const restReq: AutocannonRequest[] = [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/v1/checks/${checkIds[nextRest++ % checkIds.length]}` }) }];
  log(`  check(id): warming up ${WARMUP_SECONDS} s`);
  await load('warm-up', url, headers, graphqlReq, connections, WARMUP_SECONDS);
  const rows: string[][] = [];
  const throughput: number[] = [];
  let failures = 0;
  for (const [name, requests] of [['GraphQL check(id)', graphqlReq], ['REST GET /v1/checks/{id}', restReq]] as const) {
    const r = await load(name, url, headers, requests as AutocannonRequest[], connections, duration);
    throughput.push(r.requests.average);
    failures += r.non2xx + r.errors - r.timeouts;
    rows.push([name, fmt(r.requests.average), fmt(r.latency.p50), fmt(r.latency.p97_5), fmt(r.latency.p99), fmt(r.latency.max), fmt(r.requests.total), fmt(r.timeouts), fmt(r.errors - r.timeouts), fmt(r.non2xx)]);
  }
  const out = [
    `(b) check(id): ${connections} connections, ${duration} s each, rotating over ${checkIds.length} checks`,
    table(['scenario', 'req/s (avg)', 'p50 ms', 'p97.5 ms', 'p99 ms', 'max ms', 'requests', 'timeouts', 'other errors', 'non-2xx'], rows),
    `targets: GraphQL check(id) >= ${TARGETS.checkThroughputRatio}x REST throughput: ${throughput[0]! / throughput[1]! >= TARGETS.checkThroughputRatio ? 'met' : 'MISSED'} (${fmt(throughput[0]! / throughput[1]!, 2)}x)`,
  ].join('\n');
  return { out, failed: failures > 0 };
}

// ---------------------------------------------------------------------------------------------
// (c) graphql-ws fan-out

function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    return Number(line?.split(/\s+/)[3]) || Infinity;
  } catch {
    return Infinity;
  }
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { type?: string }) => {
      if (msg?.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(msg as T);
    };
    const onExit = (code: number | null) => reject(new Error(`a subscriber fleet exited with code ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

interface FanoutOptions {
  subscribers: number;
  rate: number;
  seconds: number;
  clients: number;
  mode: 'per-check' | 'all';
}

async function fanoutScenario(s: Server, o: FanoutOptions): Promise<{ out: string; failed: boolean }> {
  const { url, apiKey, accountId, checkIds } = s.ready;
  const limit = openFileLimit();
  if (o.subscribers + 500 > limit) throw new Error(`ulimit -n is ${limit}: ${o.subscribers} sockets need about ${o.subscribers + 500} (raise it with ulimit -n before running)`);
  const script = fileURLToPath(new URL('./graphql-ws-clients.ts', import.meta.url));
  const fleets = Array.from({ length: o.clients }, () =>
    fork(script, [], { execArgv: ['--import', import.meta.resolve('tsx')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  try {
    const variables = o.mode === 'all' ? [{}] : checkIds.map((id) => ({ filter: { checkIds: [id] } }));
    const before = await s.ask<MemoryMessage>({ type: 'memory' }, 'memory');
    const live = s.ask<{ count: number }>({ type: 'awaitSubscribers', count: o.subscribers }, 'subscribers');
    log(`  fan-out: opening ${fmt(o.subscribers)} sockets from ${o.clients} processes`);
    const started = performance.now();
    let offset = 0;
    const connected = await Promise.all(fleets.map((f, i) => {
      const sockets = Math.floor(o.subscribers / o.clients) + (i < o.subscribers % o.clients ? 1 : 0);
      const msg: ConnectMessage = { type: 'connect', url, apiKey, accountId, sockets, offset, query: SUBSCRIPTION, variables, concurrency: 64 };
      offset += sockets;
      const reply = nextMessage<ConnectedMessage>(f, 'connected');
      f.send(msg);
      return reply;
    }));
    const failures = connected.reduce((n, c) => n + c.failures, 0);
    if (failures > 0) throw new Error(`${failures} sockets failed to connect (first: ${connected.find((c) => c.firstError)?.firstError})`);
    await live;
    const connectMs = performance.now() - started;
    log(`  fan-out: ${fmt(o.subscribers)} subscriptions live after ${fmt(connectMs / 1000, 1)} s`);
    const idle = await s.ask<MemoryMessage>({ type: 'memory' }, 'memory');
    const perSocket = {
      heap: (idle.heapUsed + idle.external - before.heapUsed - before.external) / o.subscribers,
      rss: (idle.rss - before.rss) / o.subscribers,
    };

    for (const f of fleets) f.send({ type: 'measure' });
    log(`  fan-out: publishing ${o.rate} results/s for ${o.seconds} s`);
    const published = await s.ask<{ count: number; cpuMs: number; wallMs: number }>({ type: 'publish', rate: o.rate, seconds: o.seconds }, 'published');
    // Deliveries still in flight get a grace period; anything later is counted as missing.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const reports = await Promise.all(fleets.map((f) => {
      const reply = nextMessage<ReportMessage>(f, 'report');
      f.send({ type: 'report' });
      return reply;
    }));
    const latencies = reports.flatMap((r) => r.latencies);
    const received = reports.reduce((n, r) => n + r.received, 0);
    const closed = reports.reduce((n, r) => n + r.closed, 0);
    const closeCodes: Record<string, number> = {};
    for (const r of reports) for (const [code, n] of Object.entries(r.closeCodes)) closeCodes[code] = (closeCodes[code] ?? 0) + n;
    const perEvent = o.mode === 'all' ? o.subscribers : o.subscribers / checkIds.length;
    const expected = published.count * perEvent;
    const L = summary(latencies);
    const after = await s.ask<MemoryMessage>({ type: 'memory' }, 'memory');
    const rows = [[
      `${fmt(o.subscribers)} sockets, ${o.mode}`, fmt(idle.sharedSubscriptions), fmt(published.count),
      fmt(expected), fmt(received), fmt(L.p50, 1), fmt(L.p99, 1), fmt(L.max, 1), fmt(perSocket.heap / 1024, 1), fmt(perSocket.rss / 1024, 1),
    ]];
    const out = [
      `(c) graphql-ws fan-out: ${fmt(o.subscribers)} sockets (1 subscription each, ${o.clients} client processes), ${o.rate} results/s for ${o.seconds} s, `
        + `${o.mode === 'all' ? 'every socket unfiltered' : `filtered on one of ${checkIds.length} checks`} (${fmt(perEvent)} deliveries per result, ${fmt(perEvent * o.rate)}/s)`,
      table(['subscribers', 'shared subscriptions', 'published', 'deliveries expected', 'received', 'p50 ms', 'p99 ms', 'max ms', 'heap KB/socket', 'RSS KB/socket'], rows),
      `connect + subscribe: ${fmt(connectMs / 1000, 1)} s; server after GC: heap+external ${fmt((before.heapUsed + before.external) / 2 ** 20, 1)} → ${fmt((idle.heapUsed + idle.external) / 2 ** 20, 1)} MiB idle `
        + `→ ${fmt((after.heapUsed + after.external) / 2 ** 20, 1)} MiB after publishing; RSS ${fmt(before.rss / 2 ** 20, 1)} → ${fmt(idle.rss / 2 ** 20, 1)} → ${fmt(after.rss / 2 ** 20, 1)} MiB; `
        + `sockets closed during the run: ${closed}${closed ? ` ${JSON.stringify(closeCodes)}` : ''}`,
      `server CPU while publishing: ${fmt((published.cpuMs / published.wallMs) * 100)} % of one core `
        + `(${fmt((published.cpuMs * 1000) / Math.max(1, received), 1)} µs per delivery); subscriber fleets: ${fmt((reports.reduce((n, r) => n + r.cpuMs, 0) / published.wallMs) * 100)} % of one core`,
      `targets: p99 < ${TARGETS.fanoutP99Ms} ms: ${ok(L.p99 < TARGETS.fanoutP99Ms)} (${fmt(L.p99, 1)}); <= 20 KB per idle socket (heap+external): `
        + `${ok(perSocket.heap <= TARGETS.bytesPerSocket)} (${fmt(perSocket.heap / 1024, 1)} KB; RSS ${fmt(perSocket.rss / 1024, 1)} KB)`
        + `${received < expected ? `; ${fmt(expected - received)} deliveries missing after a 2 s grace period` : ''}`,
    ].join('\n');
    return { out, failed: closed > 0 || received < expected };
  } finally {
    await Promise.all(fleets.map((f) => new Promise<void>((resolve) => {
      if (f.exitCode !== null) return resolve();
      f.once('exit', () => resolve());
      f.send('stop');
    })));
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      scenarios: { type: 'string', default: 'dashboard,check,fanout' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      subscribers: { type: 'string', default: '10000' },
      rate: { type: 'string', default: '100' },
      'fanout-seconds': { type: 'string', default: '20' },
      'fanout-mode': { type: 'string', default: 'per-check' },
      clients: { type: 'string', default: '2' },
      'cpu-prof': { type: 'string' },
    },
  });
  const num = (name: keyof typeof values, min: number, max: number) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number, ${min}..${max}`);
    return n;
  };
  const duration = num('duration', 1, 120);
  const connections = num('connections', 1, 1000);
  const fanout: FanoutOptions = {
    subscribers: num('subscribers', 1, 50_000), rate: num('rate', 1, 10_000), seconds: num('fanout-seconds', 1, 120), clients: num('clients', 1, 16),
    mode: values['fanout-mode'] === 'all' ? 'all' : 'per-check',
  };
  const scenarios = values.scenarios.split(',').map((x) => x.trim());
  const cpuProfDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });

  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const storeOptions: StoreOptions = url ? { databaseUrl: url, schema } : {};
  log(`Lookout GraphQL benchmark on ${url ? 'PostgreSQL' : 'PGlite in memory'}: scenarios ${scenarios.join(', ')}`);
  log(`Node ${process.version}, ${os.cpus().length} CPUs, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  let failed = false;
  let server: Server | undefined;
  try {
    server = await startServer(storeOptions, cpuProfDir && path.join(cpuProfDir, 'graphql-server.cpuprofile'));
    const { ready } = server;
    log(`seeded ${ready.checkIds.length} checks in ${ready.groups} groups, ${ready.channels} alert channels, ${ready.resultsPerCheck} results per check in ${fmt(ready.seedMs / 1000, 1)} s (${ready.storage}); server at ${ready.url}`);
    const outputs: string[] = [];
    const runOne = async (name: string, fn: () => Promise<{ out: string; failed: boolean }>) => {
      if (!scenarios.includes(name)) return;
      try {
        const r = await fn();
        failed ||= r.failed;
        outputs.push(r.out);
        process.stdout.write(`\n${r.out}\n`);
      } catch (err) {
        failed = true;
        log(`[${name}] failed: ${(err as Error).message}`);
      }
    };
    await runOne('dashboard', () => dashboardScenario(server!, duration));
    await runOne('check', () => checkScenario(server!, duration, connections));
    await runOne('fanout', () => fanoutScenario(server!, fanout));
    log(`\nload average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } catch (err) {
    failed = true;
    log(`bench: ${(err as Error).message}`);
  } finally {
    await server?.stop();
    if (url) await dropBenchSchema(url, schema);
  }
  if (cpuProfDir) log(`CPU profile of the server (everything after seeding) is in ${cpuProfDir}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    log(`bench: ${err.message}`);
    process.exit(2);
  },
);
