import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.js';

const NUMERIC = 1700;

/** Options of the embedded database. */
export interface PgliteDbOptions {
  /** Folder holding the database files; omitted means in memory (tests). */
  dataDir?: string;
}

/** Opens embedded PostgreSQL (PGlite), persisted in `dataDir` or in memory. */
export async function createPgliteDb(options: PgliteDbOptions = {}): Promise<Db> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // relaxedDurability stays off: a write is on disk before the request that made it is answered.
  const pg = await PGlite.create(options.dataDir ?? 'memory://', {
    // numeric (percentiles, sums) as JSON numbers, as the pg driver is set up to return them.
    parsers: { [NUMERIC]: (v: string) => Number(v) },
  });
  const run = (q: { query: PGlite['query'] }): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[]) {
      const result = await q.query<T>(sql, params as unknown[] | undefined);
      return result.rows;
    },
  });
  const root = run(pg);
  return {
    kind: 'pglite',
    query: root.query,
    async transaction(fn) {
      return pg.transaction((tx) => fn(run(tx)));
    },
    async exec(sql) {
      await pg.exec(sql);
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}
