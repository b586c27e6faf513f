/**
 * The storage backends a benchmark runs on, chosen by name: `pglite-memory`, `pglite-disk` (a temporary
 * directory) and `postgres` (DATABASE_URL or TEST_DATABASE_URL, in a fresh schema dropped afterwards).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { StoreOptions } from '../src/store/create-store.js';

/** One backend a benchmark runs on, and how to clean up after it. */
export interface BackendRun {
  name: string;
  kind: 'pglite' | 'postgres';
  options: StoreOptions;
  cleanup(): Promise<void>;
}

/** The selected backends; PostgreSQL is skipped, with a line to `log`, when no database URL is set. */
export function benchBackends(selected: string[], log: (line: string) => void): BackendRun[] {
  const runs: BackendRun[] = [];
  if (selected.includes('pglite-memory')) runs.push({ name: 'pglite-memory', kind: 'pglite', options: {}, cleanup: async () => {} });
  if (selected.includes('pglite-disk')) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lookout-bench-'));
    runs.push({ name: 'pglite-disk', kind: 'pglite', options: { dataDir: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) });
  }
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (selected.includes('postgres') && !url) log('PostgreSQL skipped: set DATABASE_URL or TEST_DATABASE_URL to include it.');
  if (selected.includes('postgres') && url) {
    const schema = `bench_${randomBytes(5).toString('hex')}`;
    runs.push({
      name: 'postgres',
      kind: 'postgres',
      options: { databaseUrl: url, schema },
      cleanup: () => dropBenchSchema(url, schema),
    });
  }
  return runs;
}

/** Drops a benchmark's scratch schema from the PostgreSQL database at `url`. */
export async function dropBenchSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
