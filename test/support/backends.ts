import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createStore, type Store, type StoreOptions } from '../../src/store/create-store.js';
import { pgliteTemplate } from './pglite-template.js';

/** A storage backend the shared suites run against. */
export interface Backend {
  name: 'pglite' | 'postgres';
  /** Store options for a fresh, isolated database (a new PGlite in memory from the migrated template, or a new PostgreSQL schema). */
  options(): StoreOptions;
  /** Removes what `options()` created (PostgreSQL schemas). */
  cleanup(options: StoreOptions): Promise<void>;
}

const pglite: Backend = {
  name: 'pglite',
  options: () => ({ pgliteTemplate: pgliteTemplate() }),
  cleanup: async () => {},
};

const postgres = (url: string): Backend => ({
  name: 'postgres',
  options: () => ({ databaseUrl: url, schema: `t_${randomBytes(6).toString('hex')}`, poolSize: 4 }),
  async cleanup(options) {
    if (!options.schema) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${options.schema}" CASCADE`);
    await client.end();
  },
});

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const BACKENDS: Backend[] = [pglite, ...(process.env.TEST_DATABASE_URL ? [postgres(process.env.TEST_DATABASE_URL)] : [])];

/** Opens an isolated store on `backend`, `overrides` applied to its options; `close()` also drops what it created. */
export async function openTestStore(backend: Backend, overrides: Partial<StoreOptions> = {}): Promise<Store> {
  const options = { ...backend.options(), ...overrides };
  const store = await createStore(options);
  return {
    ...store,
    async close() {
      await store.close();
      await backend.cleanup(options);
    },
  };
}
