/**
 * Worst-request benchmark: `npx tsx bench/worst-requests.ts [--rounds 5]`.
 *
 * Forks a server (PGlite in memory, 20 seeded checks, rate limits off) and sends it, one kind at a
 * time, the requests issue 8 found could stall the whole process: huge lists of invalid values over
 * REST and through a GraphQL mutation, 1,000 aliases of `__schema`, a 2.6 MB document with a made-up
 * key, a body nested 100,000 levels deep. While each runs, `/health` is polled back to back; the
 * table shows each worst request's median latency and answer size, and the slowest `/health` answer
 * seen meanwhile (the time another account would have waited). Bounded: `--rounds` requests of each
 * kind, each with a 60 s time limit; exits 1 when a request fails or times out.
 */
import { parseArgs } from 'node:util';
import { forkBenchServer, stopBenchServer } from './bench-process.js';
import type { ReadyMessage } from './rest-server.js';

interface WorstRequest {
  name: string;
  method: string;
  path: string;
  body: () => string;
  headers?: Record<string, string>;
}

const many = (n: number, item: (i: number) => unknown) => Array.from({ length: n }, (_, i) => item(i));

const WORST: WorstRequest[] = [
  {
    name: 'REST: API check with 100,000 unknown locations',
    method: 'POST',
    path: '/v1/checks/api',
    body: () => JSON.stringify({ name: 'Worst', locations: many(100_000, (i) => `nowhere-${i}`), request: { method: 'GET', url: 'https://example.test' } }),
  },
  {
    name: 'REST: alert channel config nested 100,000 levels',
    method: 'POST',
    path: '/v1/alert-channels',
    body: () => `{"type":"WEBHOOK","config":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  },
  {
    name: 'GraphQL: createApiCheck with 100,000 invalid locations',
    method: 'POST',
    path: '/graphql',
    body: () => JSON.stringify({
      query: 'mutation($input: ApiCheckInput!) { createApiCheck(input: $input) { check { id } userErrors { field code message } } }',
      variables: { input: { name: 'Worst', locations: many(100_000, () => 'x'), request: { url: 'https://example.test/' } } },
    }),
  },
  {
    name: 'GraphQL: 1,000 aliases of __schema',
    method: 'POST',
    path: '/graphql',
    body: () => JSON.stringify({ query: `{ ${many(1000, (i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }` }),
  },
  {
    name: 'GraphQL: 2.6 MB document with a made-up key',
    method: 'POST',
    path: '/graphql',
    headers: { authorization: 'Bearer lo_made_up_key_0000000000' },
    body: () => JSON.stringify({ query: `{ ${many(130_000, (i) => `a${i}: __typename`).join(' ')} }` }),
  },
];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
  const rounds = Math.max(1, Number(values.rounds));
  const script = new URL('./rest-server.ts', import.meta.url).pathname;
  const { child, ready } = await forkBenchServer<ReadyMessage>(script, ['{}', '20']);
  let failed = false;
  try {
    console.log(`server ${ready.url} (${ready.storage}), ${rounds} rounds per request\n`);
    console.log('| request | body sent | median latency | answer | status | slowest /health meanwhile | /health p99 | /health answers |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const worst of WORST) {
      const body = worst.body();
      const latencies: number[] = [];
      const health: number[] = [];
      let answerBytes = 0;
      let status = 0;
      for (let round = 0; round < rounds; round++) {
        let polling = true;
        const poll = (async () => {
          while (polling) {
            const started = performance.now();
            await fetch(`${ready.url}/health`, { signal: AbortSignal.timeout(60_000) });
            health.push(performance.now() - started);
          }
        })();
        const started = performance.now();
        try {
          const res = await fetch(ready.url + worst.path, {
            method: worst.method,
            body,
            headers: { authorization: `Bearer ${ready.apiKey}`, 'content-type': 'application/json', ...worst.headers },
            signal: AbortSignal.timeout(60_000),
          });
          answerBytes = (await res.arrayBuffer()).byteLength;
          status = res.status;
        } catch (err) {
          failed = true;
          console.error(`${worst.name}: ${(err as Error).message}`);
        }
        latencies.push(performance.now() - started);
        polling = false;
        await poll;
      }
      latencies.sort((a, b) => a - b);
      health.sort((a, b) => a - b);
      console.log(`| ${worst.name} | ${(Buffer.byteLength(body) / 1024).toFixed(0)} KB | ${percentile(latencies, 50).toFixed(0)} ms | ${(answerBytes / 1024).toFixed(1)} KB | ${status} | ${(health[health.length - 1] ?? 0).toFixed(0)} ms | ${percentile(health, 99).toFixed(1)} ms | ${health.length} |`);
    }
  } finally {
    await stopBenchServer(child);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
