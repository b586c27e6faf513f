import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
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
  let releaseLock = () => {};
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    releaseLock = lockDataDir(options.dataDir);
  }
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
      releaseLock();
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new Error(`The data directory ${dataDir} is in use by process ${owner}; stop it or set LOOKOUT_DATA_DIR to another folder`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}
