/**
 * The server half of `bench/status-page.ts`: seeds a fresh store through the REST API with one
 * public status page (20 services on 4 cards, a year of resolved incidents and one open incident
 * whose updates the live measurement posts), listens on loopback and reports the page to the parent
 * over IPC. It stops when the parent says "stop" or goes away, so an interrupted benchmark leaves no
 * server behind.
 *
 * Usage (by bench/status-page.ts only):
 *   node --import tsx bench/status-page-server.ts '<StoreOptions JSON>' '<redis url or "">' [<cpu profile file>]
 * With a profile file, the CPU profile covers only the time after seeding, i.e. the load itself.
 */
// As `lookout serve` runs (graphql-js reads NODE_ENV when it loads).
import '../src/default-node-env.js';
import { pino } from 'pino';
import { createLookout, type Lookout } from '../src/main.js';
import type { StoreOptions } from '../src/store/create-store.js';
import { benchServerLifecycle } from './bench-process.js';

/** What the server tells the parent once it is ready. */
export interface StatusPageReadyMessage {
  type: 'ready';
  url: string;
  accountId: string;
  apiKey: string;
  /** The page's slug: it is served at `/status/{slug}`. */
  slug: string;
  serviceNames: string[];
  /** Resolved incidents backfilled over the past year. */
  pastIncidents: number;
  pastUpdates: number;
  /** The open incident the live measurement posts its updates to. */
  liveIncidentId: string;
  storage: string;
  bus: 'memory' | 'redis';
  seedMs: number;
}

/** The answer to the parent's "stats" message. */
export interface StatusPageStatsMessage {
  type: 'stats';
  /** Times the public page model was built since the server started. */
  modelBuilds: number;
}

/**
 * Counts page model builds: every build reads the page's cards once, and nothing else on the
 * public path does. A measurement only; the call itself is unchanged.
 */
function countModelBuilds(lookout: Lookout): () => number {
  let builds = 0;
  const repo = lookout.store.statusPages;
  const listCards = repo.listCards.bind(repo);
  repo.listCards = (...args: Parameters<typeof listCards>) => {
    builds++;
    return listCards(...args);
  };
  return () => builds;
}

const SERVICES = [
  'Website', 'Dashboard', 'Public API', 'GraphQL API', 'Webhooks',
  'Authentication', 'Single sign-on', 'Billing', 'Card payments', 'Invoices',
  'Search', 'File uploads', 'Image processing', 'Email delivery', 'SMS delivery',
  'Check runners (US)', 'Check runners (EU)', 'Check runners (APAC)', 'Alerting', 'Status pages',
];
const CARDS = ['Product', 'Platform', 'Payments and messaging', 'Monitoring'];
const SEVERITIES = ['MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL'] as const;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** About two incidents a week over the past 365 days. */
const PAST_INCIDENTS = 104;

/** Deterministic pseudo-random numbers (mulberry32), so every run seeds the same year. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The i-th backfilled incident: spread evenly over the year with some jitter, on one to three
 * services, with 2–4 updates over minutes to hours, the last one RESOLVED.
 */
function pastIncident(i: number, serviceIds: string[], now: number, rnd: () => number) {
  const start = now - 365 * DAY_MS + Math.floor(((i + rnd()) * 365 * DAY_MS) / PAST_INCIDENTS);
  const affected = new Set<string>();
  const count = 1 + Math.floor(rnd() * 3);
  while (affected.size < count) affected.add(serviceIds[Math.floor(rnd() * serviceIds.length)]!);
  const steps: Array<{ status: string; text: string }> = [{ status: 'INVESTIGATING', text: 'We are investigating reports of errors.' }];
  const updates = 2 + Math.floor(rnd() * 3);
  if (updates >= 3) steps.push({ status: 'IDENTIFIED', text: 'The cause is identified; a fix is being rolled out.' });
  if (updates >= 4) steps.push({ status: 'MONITORING', text: 'The fix is deployed; we are monitoring the results.' });
  steps.push({ status: 'RESOLVED', text: 'This incident has been resolved.' });
  let at = start;
  return {
    name: `Elevated error rates (#${i + 1})`,
    severity: SEVERITIES[Math.floor(rnd() * SEVERITIES.length)]!,
    services: [...affected].map((id) => ({ id })),
    incidentUpdates: steps.map((s, k) => {
      if (k > 0) at += (5 + Math.floor(rnd() * 180)) * MINUTE_MS;
      return { description: s.text, status: s.status, publicIncidentUpdateDate: new Date(at).toISOString() };
    }),
  };
}

async function post(lookout: Lookout, headers: Record<string, string>, url: string, payload: object): Promise<{ id: string }> {
  const res = await lookout.app.inject({ method: 'POST', url, headers, payload });
  if (res.statusCode !== 201) throw new Error(`seeding POST ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json() as { id: string };
}

/** Seeds the page; returns its slug, the open incident's id and how much history it has. */
async function seed(lookout: Lookout, apiKey: string) {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const serviceIds: string[] = [];
  for (const name of SERVICES) serviceIds.push((await post(lookout, headers, '/v1/status-pages/services', { name })).id);
  const slug = 'bench-status';
  const perCard = SERVICES.length / CARDS.length;
  await post(lookout, headers, '/v1/status-pages', {
    name: 'Lookout bench status',
    url: slug,
    description: 'Benchmark page: 20 services and a year of incidents',
    cards: CARDS.map((name, c) => ({ name, services: serviceIds.slice(c * perCard, (c + 1) * perCard).map((id) => ({ id })) })),
  });
  const now = Date.now();
  const rnd = random(10);
  let pastUpdates = 0;
  for (let i = 0; i < PAST_INCIDENTS; i++) {
    const body = pastIncident(i, serviceIds, now, rnd);
    pastUpdates += body.incidentUpdates.length;
    await post(lookout, headers, '/v1/status-pages/incidents', body);
  }
  // Status pages are read hardest while something is wrong: the load runs with this incident open.
  const live = await post(lookout, headers, '/v1/status-pages/incidents', {
    name: 'Delayed check results',
    severity: 'MAJOR',
    services: [{ id: serviceIds[15]! }, { id: serviceIds[16]! }],
    incidentUpdates: [{ description: 'Check results from the US and EU runners arrive late.', status: 'INVESTIGATING' }],
  });
  return { slug, liveIncidentId: live.id, pastUpdates };
}

async function main(): Promise<void> {
  const storeOptions = JSON.parse(process.argv[2] ?? '{}') as StoreOptions;
  const redisUrl = process.argv[3] || undefined;
  const profileFile = process.argv[4];
  const lookout = await createLookout({
    // Rate limiting off: the benchmark measures the request path, not the limiter's 429s. The runner off:
    // nothing here needs it, and it would compete with the load.
    config: {
      port: 0, host: '127.0.0.1', rateLimitMax: 0, runnerEnabled: false, logLevel: 'warn', bootstrapAccountId: undefined, bootstrapApiKey: undefined,
      redisUrl,
    },
    storeOptions,
    logger: pino({ level: 'warn' }),
  });
  const lifecycle = benchServerLifecycle(lookout, profileFile);
  const stop = lifecycle.stop;
  const modelBuilds = countModelBuilds(lookout);
  process.on('message', (msg) => {
    if (msg === 'stop') stop();
    if (msg === 'stats') process.send!({ type: 'stats', modelBuilds: modelBuilds() } satisfies StatusPageStatsMessage);
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);

  // The bootstrap account is made once the server listens.
  const url = await lookout.listen();
  const started = performance.now();
  const seeded = await seed(lookout, lookout.bootstrap.apiKey!);
  const seedMs = performance.now() - started;
  await lifecycle.startProfiling();
  const ready: StatusPageReadyMessage = {
    type: 'ready', url, accountId: lookout.bootstrap.accountId, apiKey: lookout.bootstrap.apiKey!, slug: seeded.slug, serviceNames: SERVICES,
    pastIncidents: PAST_INCIDENTS, pastUpdates: seeded.pastUpdates, liveIncidentId: seeded.liveIncidentId, storage: lookout.store.db.kind,
    bus: redisUrl ? 'redis' : 'memory', seedMs,
  };
  process.send!(ready);
}

main().catch((err: Error) => {
  process.stderr.write(`bench server: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
