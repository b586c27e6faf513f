/**
 * Server CPU per operation of the GraphQL layer: `npx tsx bench/graphql-layer-cpu.ts [--ops 300]
 * [--rounds 3] [--kinds <comma-separated names>] [--cpu-prof <file>]` (PostgreSQL when DATABASE_URL or TEST_DATABASE_URL is set, else in-memory PGlite).
 *
 * Latency on a shared two-core machine moves with whatever else runs; the CPU time the server
 * process spends (user + system, from /proc) per operation moves much less. One server seeded as
 * for bench/graphql.ts (bench/graphql-server.ts); operations are sent one at a time, in rounds that
 * alternate the four kinds so all see the same load:
 * - the dashboard query (DASHBOARD_QUERY of bench/dashboard-query.ts) and the same data
 *   fetched with the REST calls the layer itself makes (check page, then statuses, groups,
 *   channels and latest results);
 * - `check(id)` and `GET /v1/checks/{id}`.
 * The layer's own CPU per operation is the difference between a GraphQL operation and its REST
 * calls (the REST work is the same for both). Reports the median over rounds. `--kinds` runs only
 * the kinds whose names contain one of the given words (`--kinds "GraphQL check"`); `--cpu-prof`
 * writes the server's CPU profile of the measured rounds to a file.
 */
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import type { StoreOptions } from '../src/store/create-store.js';
import type { GraphqlReadyMessage } from './graphql-server.js';
import { cpuSecondsOf, forkBenchServer, stopBenchServer } from './bench-process.js';
import { dropBenchSchema } from './bench-backends.js';
import { CHECK_QUERY, DASHBOARD_QUERY } from './dashboard-query.js';

const RESULT_FIELDS = 'id,checkId,hasFailures,isDegraded,responseTime,runLocation,startedAt';

type Json = Record<string, any>;

async function send(pool: Pool, headers: Record<string, string>, method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
  const res = await pool.request({
    method, path, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.body.json()) as Json;
  if (res.statusCode !== 200 || json.errors) throw new Error(`${method} ${path} answered ${res.statusCode}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** The REST calls the layer makes for the dashboard, in its order: the page, then the four keyed calls at once. */
async function restDashboard(pool: Pool, headers: Record<string, string>): Promise<void> {
  const checks = (await send(pool, headers, 'GET', '/v1/checks?page=1&limit=100')) as Json[];
  const groupIds = [...new Set(checks.map((c) => c.groupId).filter((g) => g != null))];
  const channelIds = [...new Set(checks.flatMap((c) => (c.alertChannelSubscriptions ?? []).map((s: Json) => s.alertChannelId)))];
  await Promise.all([
    send(pool, headers, 'GET', '/v1/check-statuses'),
    send(pool, headers, 'GET', `/v1/check-groups?ids=${groupIds.join(',')}&limit=100`),
    send(pool, headers, 'GET', `/v1/alert-channels?ids=${channelIds.join(',')}&limit=100`),
    send(pool, headers, 'GET', `/v2/check-results?checkIds=${checks.map((c) => c.id).join(',')}&perCheck=5&fields=${RESULT_FIELDS}`),
  ]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: {
    ops: { type: 'string', default: '300' }, rounds: { type: 'string', default: '3' },
    kinds: { type: 'string' }, 'cpu-prof': { type: 'string' },
  } });
  const ops = Number(values.ops);
  const rounds = Number(values.rounds);
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const options: StoreOptions = url ? { databaseUrl: url, schema } : {};
  console.log(`GraphQL layer CPU per operation on ${url ? 'PostgreSQL' : 'PGlite'}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const script = fileURLToPath(new URL('./graphql-server.ts', import.meta.url));
  const { child, ready } = await forkBenchServer<GraphqlReadyMessage>(script, [JSON.stringify(options), '100', ...(values['cpu-prof'] ? [values['cpu-prof']] : [])], ['--expose-gc']);
  const pool = new Pool(ready.url, { connections: 8 });
  const headers = { authorization: `Bearer ${ready.apiKey}` };
  try {
    let i = 0;
    const all: Record<string, () => Promise<unknown>> = {
      'GraphQL dashboard': () => send(pool, headers, 'POST', '/graphql', { query: DASHBOARD_QUERY }),
      'REST dashboard calls': () => restDashboard(pool, headers),
      'GraphQL check(id)': () => send(pool, headers, 'POST', '/graphql', { query: CHECK_QUERY, variables: { id: ready.checkIds[i++ % ready.checkIds.length] } }),
      'REST GET /v1/checks/{id}': () => send(pool, headers, 'GET', `/v1/checks/${ready.checkIds[i++ % ready.checkIds.length]}`),
    };
    const wanted = values.kinds?.split(',').map((k) => k.trim());
    const kinds = Object.fromEntries(Object.entries(all).filter(([name]) => !wanted || wanted.some((w) => name.includes(w))));
    // Dashboards cost ~20x a check(id): fewer of them per round keeps rounds comparable in length.
    const count = (kind: string) => (kind.includes('dashboard') ? Math.max(10, Math.round(ops / 10)) : ops);
    for (const fn of Object.values(kinds)) for (let w = 0; w < 30; w++) await fn();
    const perOp = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [kind, fn] of Object.entries(kinds)) {
        const n = count(kind);
        const before = cpuSecondsOf(child.pid)!;
        for (let k = 0; k < n; k++) await fn();
        perOp.get(kind)!.push(((cpuSecondsOf(child.pid)! - before) * 1000) / n);
      }
    }
    const m = new Map([...perOp].map(([k, xs]) => [k, median(xs)]));
    for (const [kind, xs] of perOp) console.log(`${kind.padEnd(26)} ${m.get(kind)!.toFixed(2).padStart(7)} ms CPU/op (rounds: ${xs.map((x) => x.toFixed(2)).join(', ')}; ${count(kind)} ops each)`);
    if (m.size === 4) console.log(`layer's own CPU: dashboard ${(m.get('GraphQL dashboard')! - m.get('REST dashboard calls')!).toFixed(2)} ms/op, check(id) ${(m.get('GraphQL check(id)')! - m.get('REST GET /v1/checks/{id}')!).toFixed(2)} ms/op`);
    console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await pool.close();
    await stopBenchServer(child);
    if (url) await dropBenchSchema(url, schema);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
