/**
 * The server half of `bench/rest.ts`: seeds a fresh store through the REST API, listens on
 * loopback and reports `{url, accountId, apiKey, ids}` to the parent over IPC. It stops when the
 * parent says "stop" or goes away, so an interrupted benchmark leaves no server behind.
 *
 * Usage (by bench/rest.ts only):
 *   node --import tsx bench/rest-server.ts '<StoreOptions JSON>' <checks> [<cpu profile file>]
 * With a profile file, the CPU profile covers only the time after seeding, i.e. the load itself.
 */
// As `lookout serve` runs (graphql-js reads NODE_ENV when it loads).
import '../src/default-node-env.js';
import { pino } from 'pino';
import { createLookout, type Lookout } from '../src/main.js';
import type { StoreOptions } from '../src/store/create-store.js';
import { benchServerLifecycle } from './bench-process.js';

/** What the server tells the parent once it is ready. */
export interface ReadyMessage {
  type: 'ready';
  url: string;
  accountId: string;
  apiKey: string;
  /** The owner's console session (`name=value` of its cookie) and the session's CSRF token. */
  session: { cookie: string; csrf: string };
  /** Ids of the seeded checks, in creation order. */
  ids: string[];
  storage: string;
  seedMs: number;
}

const TAGS = ['prod', 'staging', 'web', 'api', 'eu', 'us', 'payments', 'search', 'checkout', 'internal'];
const LOCATIONS = ['us-east-1', 'eu-west-1', 'eu-central-1', 'ap-southeast-1'];

/** The create route and body of the i-th seeded check: a realistic mix of types, tags and locations. */
function seedCheck(i: number): { segment: string; body: Record<string, unknown> } {
  const common = {
    name: `Bench check ${String(i).padStart(4, '0')}`,
    tags: [TAGS[i % TAGS.length]!, TAGS[(i * 7 + 3) % TAGS.length]!],
    locations: [LOCATIONS[i % LOCATIONS.length]!, LOCATIONS[(i + 1) % LOCATIONS.length]!],
    description: i % 3 === 0 ? `Seeded check number ${i}` : null,
    frequency: [1, 5, 10, 60][i % 4],
  };
  switch (i % 10) {
    case 6:
      return { segment: 'tcp', body: { ...common, request: { hostname: `db${i}.example.test`, port: 5432, assertions: [{ source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '1000' }] } } };
    case 7:
      return { segment: 'dns', body: { ...common, request: { query: `svc${i}.example.test`, recordType: 'A', assertions: [{ source: 'RESPONSE_CODE', comparison: 'EQUALS', target: 'NOERROR' }] } } };
    case 8:
      return { segment: 'url', body: { ...common, request: { url: `https://example.test/status/${i}`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } } };
    case 9:
      return { segment: 'heartbeat', body: { ...common, heartbeat: { period: 1, periodUnit: 'hours', grace: 10, graceUnit: 'minutes' } } };
    default:
      return {
        segment: 'api',
        body: {
          ...common,
          request: {
            method: 'GET',
            url: `https://api.example.test/v1/items/${i}?expand=owner`,
            headers: [{ key: 'Accept', value: 'application/json' }],
            assertions: [
              { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' },
              { source: 'JSON_BODY', property: '$.id', comparison: 'NOT_EMPTY' },
            ],
          },
        },
      };
  }
}

/** Creates two alert channels (every check gets subscribed to them) and `count` checks. */
async function seed(lookout: Lookout, apiKey: string, count: number): Promise<string[]> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  for (const address of ['oncall@example.test', 'team@example.test']) {
    const res = await lookout.app.inject({ method: 'POST', url: '/v1/alert-channels', headers, payload: { type: 'EMAIL', config: { address } } });
    if (res.statusCode !== 201) throw new Error(`seeding an alert channel answered ${res.statusCode}: ${res.body}`);
  }
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { segment, body } = seedCheck(i);
    const res = await lookout.app.inject({ method: 'POST', url: `/v1/checks/${segment}`, headers, payload: body });
    if (res.statusCode !== 201) throw new Error(`seeding check ${i} (${segment}) answered ${res.statusCode}: ${res.body}`);
    ids.push((res.json() as { id: string }).id);
  }
  return ids;
}

async function main(): Promise<void> {
  const storeOptions = JSON.parse(process.argv[2] ?? '{}') as StoreOptions;
  const count = Number(process.argv[3] ?? 1000);
  const profileFile = process.argv[4];
  const lookout = await createLookout({
    // Rate limiting off: the benchmark measures the request path, not the limiter's 429s. The runner
    // off: seeded checks name hosts nobody should call, and running them would compete with the load.
    config: {
      port: 0, host: '127.0.0.1', rateLimitMax: 0, runnerEnabled: false, logLevel: 'warn', bootstrapAccountId: undefined, bootstrapApiKey: undefined,
    },
    storeOptions,
    logger: pino({ level: 'warn' }),
  });
  const lifecycle = benchServerLifecycle(lookout, profileFile);
  const stop = lifecycle.stop;
  process.on('message', (msg) => {
    if (msg === 'stop') stop();
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);

  // The bootstrap account is made once the server listens.
  const url = await lookout.listen();
  const started = performance.now();
  const ids = await seed(lookout, lookout.bootstrap.apiKey!, count);
  const seedMs = performance.now() - started;
  const signIn = await lookout.app.inject({
    method: 'POST', url: '/v1/session', payload: { email: lookout.bootstrap.owner!.email, password: lookout.bootstrap.owner!.password },
  });
  if (signIn.statusCode !== 200) throw new Error(`signing in answered ${signIn.statusCode}: ${signIn.body}`);
  const session = { cookie: String(signIn.headers['set-cookie']).split(';')[0]!, csrf: (signIn.json() as { csrfToken: string }).csrfToken };
  await lifecycle.startProfiling();
  const ready: ReadyMessage = {
    type: 'ready', url, accountId: lookout.bootstrap.accountId, apiKey: lookout.bootstrap.apiKey!, session, ids, storage: lookout.store.db.kind, seedMs,
  };
  process.send!(ready);
}

main().catch((err: Error) => {
  process.stderr.write(`bench server: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
