/**
 * The server half of `bench/deploy.ts`: an empty store (one bootstrapped account), listening on
 * loopback, with the scheduled runner off, so a deploy's time is the deploy's and the checks it
 * creates (`activated: true`, as a real project's) are never run. It counts the SQL statements the
 * store runs and answers them, with its RSS, when the parent says "stats". It stops when the parent
 * says "stop" or goes away, so an interrupted benchmark leaves no server behind.
 *
 * Usage (by bench/deploy.ts only):
 *   node --import tsx bench/deploy-server.ts '<StoreOptions JSON>' [<cpu profile file>]
 * With a profile file, the CPU profile covers every request the parent sends (warm-up included).
 */
// As `lookout serve` runs (graphql-js reads NODE_ENV when it loads).
import '../src/default-node-env.js';
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { createLookout } from '../src/main.js';
import type { StoreOptions } from '../src/store/create-store.js';
import type { Db, Queryable } from '../src/store/db.js';
import { benchServerLifecycle } from './bench-process.js';

/** What the server tells the parent once it is ready. */
export interface DeployReadyMessage {
  type: 'ready';
  url: string;
  accountId: string;
  apiKey: string;
  storage: string;
  runnerEnabled: boolean;
}

/** SQL run since the previous "stats", by statement text. */
export interface StatementCount {
  sql: string;
  count: number;
  /** Time from sending the statement to its rows, summed (ms). */
  ms: number;
}

/** The answer to the parent's "stats" message: what ran since the previous one, and memory now. */
export interface DeployStatsMessage {
  type: 'stats';
  statements: number;
  /** Of `statements`, those run inside a transaction (`BEGIN`/`COMMIT` not counted). */
  inTransaction: number;
  /** Time spent waiting for statements (ms): the rest of a deploy's wall time is JavaScript and I/O. */
  sqlMs: number;
  byStatement: StatementCount[];
  rss: number;
  /** Peak RSS of the process so far (VmHWM), or null where /proc has none. */
  peakRss: number | null;
}

/**
 * Counts every statement the store runs, on the pool and inside transactions, by wrapping the
 * database object the repositories were built over (they call `query` on it at each use). A
 * measurement of this process only; the statements themselves are unchanged.
 */
function countStatements(db: Db) {
  let statements = 0;
  let inTransaction = 0;
  let sqlMs = 0;
  let byStatement = new Map<string, StatementCount>();
  // Statement texts are a fixed set of shapes: each is tidied once, not on every call.
  const tidied = new Map<string, string>();
  const counted = (q: Queryable, tx: boolean): Queryable['query'] => {
    const query = q.query.bind(q);
    return async <T>(sql: string, params?: readonly unknown[]) => {
      const started = performance.now();
      try {
        return await query<T>(sql, params);
      } finally {
        const ms = performance.now() - started;
        statements++;
        if (tx) inTransaction++;
        sqlMs += ms;
        let text = tidied.get(sql);
        if (text === undefined) tidied.set(sql, (text = sql.replace(/\s+/g, ' ').trim()));
        let entry = byStatement.get(text);
        if (!entry) byStatement.set(text, (entry = { sql: text, count: 0, ms: 0 }));
        entry.count++;
        entry.ms += ms;
      }
    };
  };
  db.query = counted(db, false) as Db['query'];
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (tx: Queryable) => Promise<unknown>) => transaction((tx) => fn({ query: counted(tx, true) as Queryable['query'] }))) as Db['transaction'];
  return () => {
    const taken = { statements, inTransaction, sqlMs, byStatement: [...byStatement.values()] };
    statements = 0;
    inTransaction = 0;
    sqlMs = 0;
    byStatement = new Map();
    return taken;
  };
}

function peakRss(): number | null {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : null;
}

async function main(): Promise<void> {
  const storeOptions = JSON.parse(process.argv[2] ?? '{}') as StoreOptions;
  const profileFile = process.argv[3];
  const lookout = await createLookout({
    // Rate limiting off: the benchmark measures deploys, not the limiter. The runner off: the deployed
    // checks point at closed loopback ports, and running them would compete with the deploys.
    config: {
      port: 0, host: '127.0.0.1', rateLimitMax: 0, runnerEnabled: false, logLevel: 'warn', bootstrapAccountId: undefined, bootstrapApiKey: undefined,
    },
    storeOptions,
    logger: pino({ level: 'warn' }),
  });
  const takeStats = countStatements(lookout.store.db);
  const lifecycle = benchServerLifecycle(lookout, profileFile);
  const stop = lifecycle.stop;
  process.on('message', (msg) => {
    if (msg === 'stop') stop();
    if (msg === 'stats') {
      process.send!({ type: 'stats', ...takeStats(), rss: process.memoryUsage().rss, peakRss: peakRss() } satisfies DeployStatsMessage);
    }
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);

  const url = await lookout.listen();
  await lifecycle.startProfiling();
  const ready: DeployReadyMessage = {
    type: 'ready', url, accountId: lookout.bootstrap.accountId, apiKey: lookout.bootstrap.apiKey!, storage: lookout.store.db.kind, runnerEnabled: false,
  };
  process.send!(ready);
}

main().catch((err: Error) => {
  process.stderr.write(`bench server: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
