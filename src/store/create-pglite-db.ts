import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, protocol, TransactionAbortedError } from '@electric-sql/pglite';
import { decodePgliteAnswer } from './decode-pglite-answer.js';
import { createStatisticsRefresher, rowsWrittenByTag } from './create-statistics-refresher.js';
import { createStatementCache, type PreparedStatement } from './create-statement-cache.js';
import { createTurnScheduler, type TurnLease } from './create-turn-scheduler.js';
import type { Db, Queryable } from './db.js';
import { toStoreError } from './store-error.js';
import { isProcessAlive } from './is-process-alive.js';
import { currentAuditActor, SET_ACTOR_SQL } from './audit-actor-scope.js';
import { isWriteStatement } from './is-write-statement.js';

const NUMERIC = 1700;
const { serialize } = protocol;
const EXECUTE = serialize.execute();
const SYNC = serialize.sync();
const BEGIN = serialize.query('BEGIN');
const COMMIT = serialize.query('COMMIT');
const ROLLBACK = serialize.query('ROLLBACK');

/** Options of the embedded database. */
export interface PgliteDbOptions {
  /** Folder holding the database files; omitted means in memory (tests). */
  dataDir?: string;
  /** Named statements kept parsed on the server (least recently used ones are closed); default 500. */
  preparedStatements?: number;
  /** Rows inserted, updated or deleted after which statistics are refreshed at the latest; default 500. */
  analyzeAfterRows?: number;
  /** PostgreSQL shared buffers in MB (default 16: resident from the start, see createPgliteDb). */
  sharedBuffersMb?: number;
  /**
   * A data folder dumped by `dumpDataDir()` to start from, instead of creating an empty cluster
   * (initdb runs in a wasm module of its own and costs about a second; loading a dump, a quarter).
   * Ignored when `dataDir` already holds a database.
   */
  template?: Blob;
}

/** The embedded database, which can also copy itself out. */
export interface PgliteDb extends Db {
  /** The whole data folder as a tarball (gzipped when asked), to start other databases from (`template`). */
  dumpDataDir(compression?: 'gzip' | 'none'): Promise<Blob>;
}

type Parser = (value: string, typeId: number) => unknown;
interface Statement extends PreparedStatement {
  readonly parsers: ReadonlyArray<Parser | undefined>;
}
interface Message {
  name: string;
  fields?: Array<{ name: string; dataTypeID: number } | string | null>;
  dataTypeIDs?: number[];
  text?: string;
}

/** The server no longer accepts a cached statement: parse it again. */
function isStaleStatement(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '26000' || (e.code === '0A000' && /cached plan/.test(e.message ?? ''));
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The engine itself, in `dataDir` or in memory, from `template` when the folder is new. */
function openPglite(options: PgliteDbOptions): Promise<PGlite> {
  // relaxedDurability stays off: a write is on disk before the request that made it is answered.
  return PGlite.create(options.dataDir ?? 'memory://', {
    ...(options.template && !hasDatabase(options.dataDir) ? { loadDataDir: options.template } : {}),
    // numeric (percentiles, sums) as JSON numbers, as the pg driver is set up to return them.
    parsers: { [NUMERIC]: (v: string) => Number(v) },
    // PostgreSQL's default 128 MB of shared buffers is resident in the wasm heap from the start; one
    // process's working set (the hot rows of checks, statuses and recent results) fits in far less,
    // and pages not in the buffers come from the operating system's file cache.
    postgresqlconf: [`shared_buffers=${options.sharedBuffersMb ?? 16}MB`],
  });
}

/** Opens embedded PostgreSQL (PGlite), persisted in `dataDir` or in memory. */
export async function createPgliteDb(options: PgliteDbOptions = {}): Promise<PgliteDb> {
  let releaseLock = () => {};
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    releaseLock = lockDataDir(options.dataDir);
  }
  const pg = await openPglite(options);
  const scheduler = createTurnScheduler();
  const cache = createStatementCache(options.preparedStatements ?? 500);
  let closed = false;

  // PGlite has no autovacuum: nothing else ever refreshes its planner statistics.
  const statistics = createStatisticsRefresher({ db: { query: (sql, params) => root.query(sql, params) }, minRows: options.analyzeAfterRows });

  /**
   * Why not `pg.query()`: it sends Parse, Describe, Bind, Describe, Execute and Sync as six calls
   * into wasm and has the statement parsed and planned every time (about 3.5x the cost of the query
   * itself on the hot reads). Here each SQL text is parsed once under a name; every execution is one
   * call carrying Bind, Execute and Sync. Sync ends every call, so a failing statement leaves the
   * connection ready (inside a transaction, the transaction is then aborted until rolled back).
   */
  async function prepare(sql: string): Promise<Statement> {
    const name = cache.nextName();
    // Evicted statements are closed first, in the same call (closing an unknown name is no error),
    // so the server never holds more than the cache's capacity.
    cache.makeRoom();
    const closing = cache.takeClosable().map((n) => serialize.close({ type: 'S', name: n }));
    const { messages } = await pg.execProtocol(
      concat([...closing, serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), SYNC]),
      { syncToFs: false },
    );
    let paramTypes: number[] = [];
    let fields: Array<{ name: string; dataTypeID: number }> = [];
    for (const m of messages as Message[]) {
      if (m.name === 'parameterDescription') paramTypes = m.dataTypeIDs ?? [];
      else if (m.name === 'rowDescription') {
        fields = (m.fields as Array<{ name: string; dataTypeID: number }>).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
      }
    }
    const parsers = fields.map((f) => pg.parsers[f.dataTypeID] as Parser | undefined);
    const statement: Statement = { name, paramTypes, fields, parsers };
    cache.add(sql, statement);
    return statement;
  }

  async function execute<T>(sql: string, params: readonly unknown[] | undefined, inTransaction: boolean): Promise<T[]> {
    if (closed) throw new Error('PGlite is closed');
    let statement = cache.get(sql) as Statement | undefined;
    const cached = statement !== undefined;
    try {
      statement ??= await prepare(sql);
      return await bindExecute<T>(statement, params, inTransaction);
    } catch (err) {
      if (cached && isStaleStatement(err)) {
        cache.drop(sql);
        // Outside a transaction nothing was changed: parse again and run once more.
        if (!inTransaction) return bindExecute<T>(await prepare(sql), params, inTransaction).catch((e) => Promise.reject(toStoreError(annotate(e, sql, params))));
      }
      // A full disk (53100: PGlite survives it, and writes succeed again once space is freed) becomes STORAGE_FULL.
      throw toStoreError(annotate(err, sql, params));
    }
  }

  async function bindExecute<T>(statement: Statement, params: readonly unknown[] | undefined, inTransaction: boolean): Promise<T[]> {
    const values = (params ?? []).map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[statement.paramTypes[i] ?? 0];
      return serializer ? (serializer(value) as string) : String(value);
    });
    const parts: Buffer[] = [];
    await pg.execProtocolRawStream(concat([serialize.bind({ statement: statement.name, values }), EXECUTE, SYNC]), {
      // Inside a transaction the files are synced at COMMIT, as PGlite's own transaction() does.
      syncToFs: !inTransaction,
      // A view of wasm memory, reused once this returns: copied.
      onRawData: (chunk: Uint8Array) => parts.push(Buffer.from(chunk)),
    });
    const { rows, tag } = decodePgliteAnswer<T>(parts.length === 1 ? parts[0]! : Buffer.concat(parts), statement.fields, statement.parsers);
    statistics.onWritten(rowsWrittenByTag(tag));
    return rows;
  }

  /** Runs a transaction-control statement; returns its command tag (COMMIT answers ROLLBACK if the transaction had failed). */
  async function control(message: Uint8Array, syncToFs: boolean): Promise<string | undefined> {
    if (closed) throw new Error('PGlite is closed');
    const { messages } = await pg.execProtocol(message, { syncToFs }).catch((err: unknown) => Promise.reject(toStoreError(err)));
    return (messages as Message[]).find((m) => m.name === 'commandComplete')?.text;
  }

  const queryIn = (lease: TurnLease | undefined): Queryable['query'] =>
    <T>(sql: string, params?: readonly unknown[]) => scheduler.run(() => execute<T>(sql, params, lease !== undefined), lease);
  const root: Queryable = { query: queryIn(undefined) };

  const db: PgliteDb = {
    kind: 'pglite',
    // A write made for an audit actor runs in a transaction of its own that names the actor (reads never do).
    query: (sql, params) => (currentAuditActor() && isWriteStatement(sql) ? db.transaction((tx) => tx.query(sql, params)) : root.query(sql, params)),
    async transaction(fn) {
      const actor = currentAuditActor();
      return scheduler.hold(async (lease) => {
        await scheduler.run(() => control(BEGIN, false), lease);
        let done = false;
        const query = queryIn(lease);
        const tx: Queryable = {
          query<T>(sql: string, params?: readonly unknown[]) {
            if (done) return Promise.reject(new Error('Transaction is closed'));
            return query<T>(sql, params);
          },
        };
        try {
          // The audit trigger's actor (migration 035), local to this transaction.
          if (actor) await query(SET_ACTOR_SQL, [JSON.stringify(actor)]);
          const result = await fn(tx);
          done = true;
          const tag = await scheduler.run(() => control(COMMIT, true), lease);
          // A statement failed inside and `fn` went on: PostgreSQL rolled everything back.
          if (tag === 'ROLLBACK') throw new TransactionAbortedError();
          return result;
        } catch (err) {
          if (!done) {
            done = true;
            await scheduler.run(() => control(ROLLBACK, true), lease).catch(() => {});
          }
          throw err;
        }
      });
    },
    async exec(sql) {
      await scheduler.run(async () => {
        if (closed) throw new Error('PGlite is closed');
        await pg.exec(sql).catch((err: unknown) => Promise.reject(toStoreError(err)));
      });
    },
    async dumpDataDir(compression = 'none') {
      return scheduler.run(async () => {
        if (closed) throw new Error('PGlite is closed');
        return pg.dumpDataDir(compression);
      });
    },
    async close() {
      statistics.close();
      await scheduler.run(async () => {
        closed = true;
        if (!pg.closed) await pg.close();
      });
      releaseLock();
    },
  };
  return db;
}

/** Whether `dataDir` already holds a cluster (PGlite would refuse to load a template over it). */
export function hasDatabase(dataDir: string | undefined): boolean {
  return dataDir !== undefined && existsSync(join(dataDir, 'PG_VERSION'));
}

/** Adds the statement to the error, as PGlite's query() does. */
function annotate(err: unknown, sql: string, params: readonly unknown[] | undefined): unknown {
  if (err && typeof err === 'object' && 'code' in err) Object.assign(err, { query: sql, params });
  return err;
}

/**
 * PGlite is single-process: two servers on one data folder would corrupt it. A lock file holding
 * the owner's pid keeps a second one out; a lock left by a killed process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'lookout.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(owner) && owner !== process.pid && isProcessAlive(owner)) {
        throw new Error(`The data directory ${dataDir} is in use by process ${owner}; stop it or set LOOKOUT_DATA_DIR to another folder`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}
