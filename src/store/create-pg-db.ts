import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, DbSession, Queryable } from './db.js';
import { createStatisticsRefresher, isWriteCommand } from './create-statistics-refresher.js';
import { isConnectionError, isRetryableConflict, toStoreError } from './store-error.js';
import { currentAuditActor } from './audit-actor-scope.js';
import { isWriteStatement } from './is-write-statement.js';

/** Options of the PostgreSQL connection pool. */
export interface PgDbOptions {
  connectionString: string;
  /** Pool size; PostgreSQL handles far more, but two cores gain nothing past a handful. */
  max?: number;
  /** Schema to use instead of `public` (tests isolate themselves this way). */
  schema?: string;
  /** Times a transaction rolled back by a deadlock or serialization failure is run in all; default 4. */
  conflictAttempts?: number;
}

/** A few milliseconds, random: two transactions that deadlocked do not meet again in step. */
const conflictPause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));

const INT8 = 20;

const names = new Map<string, string>();
/** A stable name per SQL text (bounded: our statements are a fixed set of shapes). */
function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `s_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    if (names.size < 10_000) names.set(sql, name);
  }
  return name;
}
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;

const parseTimestamptzSlowly = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (v: string) => Date | string | number;
const digit = (v: string, i: number) => v.charCodeAt(i) - 48;
const isDigit = (v: string, i: number) => i < v.length && v.charCodeAt(i) >= 48 && v.charCodeAt(i) <= 57;

/**
 * timestamptz text as a Date, as the driver's own parser makes it (milliseconds, the rest of the
 * microseconds cut off), about three times faster for what a UTC session sends
 * (`2026-11-24 18:15:08.123456+00`): rows of checks and results carry two or three each, and
 * the general parser's regular expressions showed in profiles of the list routes. Anything else
 * (another zone, BC, infinity, years before 100) goes to the driver's parser.
 */
export function parseTimestamptz(v: string): Date | string | number {
  const n = v.length;
  if (n < 22 || n > 29 || v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45 || v.charCodeAt(10) !== 32 || v.charCodeAt(13) !== 58
    || v.charCodeAt(16) !== 58 || !v.endsWith('+00') || (n > 22 && v.charCodeAt(19) !== 46)) {
    return parseTimestamptzSlowly(v);
  }
  const year = digit(v, 0) * 1000 + digit(v, 1) * 100 + digit(v, 2) * 10 + digit(v, 3);
  if (year < 100) return parseTimestamptzSlowly(v);
  let ms = 0;
  if (n > 22) ms = digit(v, 20) * 100 + (isDigit(v, 21) ? digit(v, 21) * 10 : 0) + (isDigit(v, 22) ? digit(v, 22) : 0);
  return new Date(Date.UTC(
    year, digit(v, 5) * 10 + digit(v, 6) - 1, digit(v, 8) * 10 + digit(v, 9),
    digit(v, 11) * 10 + digit(v, 12), digit(v, 14) * 10 + digit(v, 15), digit(v, 17) * 10 + digit(v, 18), ms,
  ));
}

/** Connects to a PostgreSQL server through a `pg` pool. */
export async function createPgDb(options: PgDbOptions): Promise<Db> {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      // Counts and sums come back as int8/numeric; the API speaks JSON numbers.
      if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
      if (oid === TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types: types as pg.CustomTypesConfig,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
    // A server that is away (failover, blackholed network) answers 503 within seconds rather than a hang.
    connectionTimeoutMillis: 5_000,
  });
  const conflictAttempts = options.conflictAttempts ?? 4;
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const check = await pool.connect();
  check.release();
  const q = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[]) {
      // Named statements are parsed and planned once per connection instead of on every call:
      // measured at about a third of the server's CPU per query on the hot read paths.
      try {
        const result = await client.query({ name: statementName(sql), text: sql, values: params as unknown[] | undefined });
        if (isWriteCommand(result.command)) statistics.onWritten(result.rowCount ?? 0);
        return result.rows as T[];
      } catch (err) {
        throw toStoreError(err);
      }
    },
  });
  const pooled = q(pool);
  const root: Queryable = {
    // A statement of its own that deadlocked was rolled back whole: running it again is safe.
    // A write made for an audit actor runs in a transaction of its own that names the actor (reads never do).
    query: (sql, params) => withConflictRetry(() => (currentAuditActor() && isWriteStatement(sql)
      ? transactOnce((tx) => tx.query(sql, params))
      : pooled.query(sql, params))),
  };

  async function withConflictRetry<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (err) {
        if (!isRetryableConflict(err) || attempt >= conflictAttempts) throw err;
        await conflictPause(attempt);
      }
    }
  }

  /**
   * One attempt of a transaction on a client of its own. While checked out the client has no
   * listener of the pool's: without one here a server restart ('error' on the socket) would crash
   * the process. A broken client is destroyed on release, not handed out again.
   */
  async function transactOnce<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect().catch((err: unknown) => Promise.reject(toStoreError(err)));
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    const actor = currentAuditActor();
    try {
      // The audit trigger's actor (migration 035), local to this transaction, in the same round trip as BEGIN.
      const begin = actor ? `BEGIN; SELECT set_config('lookout.actor', ${client.escapeLiteral(JSON.stringify(actor))}, true)` : 'BEGIN';
      await client.query(begin).catch((err: unknown) => Promise.reject(toStoreError(err)));
      const result = await fn(q(client));
      await client.query('COMMIT').catch((err: unknown) => Promise.reject(toStoreError(err)));
      return result;
    } catch (err) {
      if (!broken && !isConnectionError((err as { cause?: unknown }).cause ?? err)) await client.query('ROLLBACK').catch(() => {});
      else broken ??= err as Error;
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken ?? undefined);
    }
  }
  // Autovacuum gets there within a minute or so; until then a fresh database plans as if empty (see createStatisticsRefresher).
  const statistics = createStatisticsRefresher({ db: root });
  return {
    kind: 'postgres',
    query: root.query,
    transaction: (fn) => withConflictRetry(() => transactOnce(fn)),
    async exec(sql) {
      await pool.query(sql).catch((err: unknown) => Promise.reject(toStoreError(err)));
    },
    async openSession(): Promise<DbSession> {
      const client = new pg.Client({
        connectionString: options.connectionString,
        types: types as pg.CustomTypesConfig,
        options: options.schema ? `-c search_path=${options.schema}` : undefined,
        keepAlive: true,
        // A held session must not hang on a dead network: every statement answers within 5 s.
        query_timeout: 5_000,
      });
      let lost: ((err: Error) => void) | undefined;
      let closing = false;
      const fire = (err: Error) => {
        const l = lost;
        lost = undefined;
        if (!closing) l?.(err);
      };
      client.on('error', fire);
      client.on('end', () => fire(new Error('database session ended')));
      await client.connect();
      // The server notices a vanished client within about 11 s (not the 2 h default): its locks go with it.
      await client.query('SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3');
      return {
        async query<T>(sql: string, params?: readonly unknown[]) {
          return (await client.query(sql, params as unknown[] | undefined)).rows as T[];
        },
        onLost(listener) {
          lost = listener;
        },
        async close() {
          closing = true;
          await client.end().catch(() => {});
        },
      };
    },
    async close() {
      statistics.close();
      await pool.end();
    },
  };
}
