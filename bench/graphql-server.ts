/**
 * The server half of `bench/graphql.ts`: one Lookout (REST, GraphQL and graphql-ws on one port)
 * seeded through the REST API with groups, alert channels and checks, and with run results stored
 * through the runner's own recorder. It listens on loopback and answers the parent over IPC:
 *
 * - `{type: 'memory'}` → `{type: 'memory', ...process.memoryUsage() after a full GC, stats}`
 * - `{type: 'awaitSubscribers', count}` → `{type: 'subscribers', count}` once that many
 *   subscriptions are live (the subscription server's `subscribed` instrumentation event)
 * - `{type: 'publish', rate, seconds}` → `{type: 'published', count, cpuMs, wallMs}`: `checkResultCreated`
 *   events published on the service's event bus at `rate` per second, round-robin over the
 *   seeded checks, each carrying its publish time (epoch ms) in `result.sequenceId`; `cpuMs` is the
 *   server's CPU time (user + system) while publishing
 * - `'stop'` (or the parent going away) closes the service and exits.
 *
 * Usage (by bench/graphql.ts only), with `--expose-gc` so memory can be read after a full GC:
 *   node --expose-gc --import tsx bench/graphql-server.ts '<StoreOptions JSON>' <checks> [<cpu profile file>]
 * With a profile file, the CPU profile covers everything after seeding (written when stopping).
 */
// As `lookout serve` runs (graphql-js reads NODE_ENV when it loads).
import '../src/default-node-env.js';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type { ProbeResult } from '../src/domain/check-result.js';
import type { CheckResultCreatedEvent } from '../src/events/lookout-event.js';
import { createLookout, type Lookout } from '../src/main.js';
import type { RunnableCheck } from '../src/runner/executor.js';
import { createRunRecorder } from '../src/runner/create-run-recorder.js';
import type { StoreOptions } from '../src/store/create-store.js';
import { benchServerLifecycle } from './bench-process.js';

/** What the server tells the parent once it is ready. */
export interface GraphqlReadyMessage {
  type: 'ready';
  url: string;
  accountId: string;
  apiKey: string;
  /** Ids of the seeded checks, in creation order. */
  checkIds: string[];
  groups: number;
  channels: number;
  resultsPerCheck: number;
  storage: string;
  seedMs: number;
}

/** Process memory after a full GC, with the subscription server's counters. */
export interface MemoryMessage {
  type: 'memory';
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  sockets: number;
  sharedSubscriptions: number;
  subscribers: number;
}

export type ParentMessage = 'stop' | { type: 'memory' } | { type: 'awaitSubscribers'; count: number } | { type: 'publish'; rate: number; seconds: number };

const GROUPS = 5;
const CHANNELS = 3;
const RESULTS_PER_CHECK = 8;
const LOCATIONS = ['us-east-1', 'eu-west-1', 'eu-central-1', 'ap-southeast-1'];

type Json = Record<string, any>;

async function rest(lookout: Lookout, apiKey: string, method: 'POST' | 'GET', url: string, payload?: unknown): Promise<Json> {
  const res = await lookout.app.inject({ method, url, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, payload: payload as Json });
  if (res.statusCode >= 300) throw new Error(`seeding: ${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json() as Json;
}

/** A probe as the API executor reports it; every seventh run fails and every fifth is degraded, so statuses vary. */
function seedProbe(i: number, at: Date): ProbeResult {
  const failed = i % 7 === 3;
  const responseTime = 80 + ((i * 37) % 400);
  return {
    startedAt: at,
    stoppedAt: new Date(at.getTime() + responseTime),
    responseTime,
    hasFailures: failed,
    hasErrors: false,
    isDegraded: !failed && i % 5 === 0,
    overMaxResponseTime: false,
    errors: [],
    assertions: [{ source: 'STATUS_CODE', property: null, comparison: 'EQUALS', target: '200', regex: null, actual: failed ? '503' : '200', passed: !failed }],
    networkError: false,
    apiCheckResult: {
      assertions: [],
      request: { method: 'GET', url: `https://api.example.test/items/${i}`, data: '', headers: {}, params: {} },
      response: {
        status: failed ? 503 : 200, statusText: failed ? 'Service Unavailable' : 'OK', body: '{"ok":true}', headers: {}, timings: {},
        timingPhases: { dns: 2, tcp: 5, tls: 10, firstByte: responseTime - 20, download: 3, total: responseTime },
      },
      requestError: null,
    },
  };
}

/**
 * Seeds `count` API checks over GROUPS groups, each subscribed to one or two of CHANNELS alert
 * channels, and RESULTS_PER_CHECK FINAL results per check through the runner's recorder (the path a
 * real run takes: result, error groups and status in one transaction, then the events).
 */
async function seed(lookout: Lookout, apiKey: string, accountId: string, count: number): Promise<{ checkIds: string[]; lastResults: Map<string, Json> }> {
  const channelIds: number[] = [];
  for (let c = 0; c < CHANNELS; c++) {
    channelIds.push((await rest(lookout, apiKey, 'POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: `team${c}@example.test` } })).id);
  }
  const groupIds: number[] = [];
  for (let g = 0; g < GROUPS; g++) {
    groupIds.push((await rest(lookout, apiKey, 'POST', '/v1/check-groups', { name: `Bench group ${g}`, tags: [`team-${g}`], locations: ['eu-west-1'] })).id);
  }
  const checks: Json[] = [];
  for (let i = 0; i < count; i++) {
    const subscribed = i % 2 === 0 ? [channelIds[i % CHANNELS]!] : [channelIds[i % CHANNELS]!, channelIds[(i + 1) % CHANNELS]!];
    checks.push(await rest(lookout, apiKey, 'POST', '/v1/checks/api', {
      name: `Bench check ${String(i).padStart(3, '0')}`,
      groupId: groupIds[i % GROUPS],
      tags: ['bench', `tier-${i % 3}`],
      frequency: 5,
      alertChannelSubscriptions: subscribed.map((alertChannelId) => ({ alertChannelId, activated: true })),
      request: { method: 'GET', url: `https://api.example.test/items/${i}`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    }));
  }
  // The recorder publishes on its own bus here: nobody listens yet, and the service's bus stays untouched.
  const { createMemoryEventBus } = await import('../src/events/create-memory-event-bus.js');
  const recorder = createRunRecorder({ store: lookout.store, bus: createMemoryEventBus(), logger: pino({ level: 'warn' }) });
  const lastResults = new Map<string, Json>();
  const start = Date.now() - RESULTS_PER_CHECK * 60_000;
  // A few checks at a time: the recorder's transactions are what the runner would run concurrently.
  const work = checks.map((view, i) => async () => {
    const check: RunnableCheck = { id: view.id, accountId, checkType: view.checkType, name: view.name, data: view as RunnableCheck['data'], groupId: view.groupId ?? null };
    for (let r = 0; r < RESULTS_PER_CHECK; r++) {
      const result = await recorder.record({
        check, location: LOCATIONS[(i + r) % LOCATIONS.length]!, sequenceId: randomUUID(), attempts: 1, resultType: 'FINAL',
        probe: seedProbe(i * RESULTS_PER_CHECK + r, new Date(start + r * 60_000 + i * 100)),
      });
      lastResults.set(view.id, result);
    }
  });
  const lanes = Array.from({ length: 8 }, async () => {
    for (let job = work.shift(); job; job = work.shift()) await job();
  });
  await Promise.all(lanes);
  return { checkIds: checks.map((c) => c.id as string), lastResults };
}

/** Publishes `rate` events per second for `seconds`, on a fixed schedule (late ticks catch up). */
async function publish(lookout: Lookout, accountId: string, checkIds: string[], lastResults: Map<string, Json>, tags: Map<string, { groupId: number | null; tags: string[] }>, rate: number, seconds: number): Promise<number> {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
      for (; sent < due; sent++) {
        const checkId = checkIds[sent % checkIds.length]!;
        const meta = tags.get(checkId)!;
        const at = performance.timeOrigin + performance.now();
        const event: CheckResultCreatedEvent = {
          type: 'checkResultCreated', accountId, checkId, groupId: meta.groupId, tags: meta.tags,
          result: { ...lastResults.get(checkId)!, id: randomUUID(), sequenceId: at.toFixed(3) },
        };
        void lookout.bus.publish(event);
      }
      if (sent >= total) return resolve();
      setTimeout(tick, Math.max(0, (sent / rate) * 1000 - (performance.now() - started)));
    };
    tick();
  });
  return sent;
}

async function main(): Promise<void> {
  const storeOptions = JSON.parse(process.argv[2] ?? '{}') as StoreOptions;
  const count = Number(process.argv[3] ?? 100);
  const profileFile = process.argv[4];
  const lookout = await createLookout({
    // Rate limiting off: one dashboard operation makes a burst of REST calls and the benchmark repeats
    // it for seconds. The runner off: nothing but the benchmark's own load runs.
    config: {
      port: 0, host: '127.0.0.1', rateLimitMax: 0, runnerEnabled: false, logLevel: 'warn', bootstrapAccountId: undefined, bootstrapApiKey: undefined,
      graphqlBackendUrl: undefined,
    },
    storeOptions,
    logger: pino({ level: 'warn' }),
  });
  const lifecycle = benchServerLifecycle(lookout, profileFile);
  const stop = lifecycle.stop;

  // The bootstrap account is made once the server listens.
  const url = await lookout.listen();
  const apiKey = lookout.bootstrap.apiKey!;
  const accountId = lookout.bootstrap.accountId;
  const started = performance.now();
  const { checkIds, lastResults } = await seed(lookout, apiKey, accountId, count);
  const seedMs = performance.now() - started;
  const meta = new Map<string, { groupId: number | null; tags: string[] }>();
  for (const id of checkIds) {
    const view = await rest(lookout, apiKey, 'GET', `/v1/checks/${id}`);
    meta.set(id, { groupId: view.groupId ?? null, tags: view.tags ?? [] });
  }
  await lifecycle.startProfiling();

  let live = 0;
  let awaited: { count: number } | null = null;
  lookout.graphqlSubscriptions!.monitor.on('subscribed', () => {
    live++;
    if (awaited && live >= awaited.count) {
      awaited = null;
      process.send!({ type: 'subscribers', count: live });
    }
  });

  process.on('message', (msg: ParentMessage) => {
    if (msg === 'stop') return stop();
    if (msg.type === 'memory') {
      const gc = (globalThis as { gc?: () => void }).gc;
      // Twice: the first pass may only queue finalizers whose memory the second frees.
      gc?.();
      gc?.();
      const m = process.memoryUsage();
      const reply: MemoryMessage = { type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, ...lookout.graphqlSubscriptions!.stats() };
      process.send!(reply);
    } else if (msg.type === 'awaitSubscribers') {
      live = lookout.graphqlSubscriptions!.stats().subscribers;
      if (live >= msg.count) process.send!({ type: 'subscribers', count: live });
      else awaited = { count: msg.count };
    } else if (msg.type === 'publish') {
      const cpu = process.cpuUsage();
      const wall = performance.now();
      void publish(lookout, accountId, checkIds, lastResults, meta, msg.rate, msg.seconds)
        .then((n) => {
          const used = process.cpuUsage(cpu);
          process.send!({ type: 'published', count: n, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall });
        });
    }
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);

  const ready: GraphqlReadyMessage = {
    type: 'ready', url, accountId, apiKey, checkIds, groups: GROUPS, channels: CHANNELS, resultsPerCheck: RESULTS_PER_CHECK, storage: lookout.store.db.kind, seedMs,
  };
  process.send!(ready);
}

main().catch((err: Error) => {
  process.stderr.write(`bench server: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
