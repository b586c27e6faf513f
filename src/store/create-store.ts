import { createPgDb } from './create-pg-db.js';
import { createPgliteDb, hasDatabase } from './create-pglite-db.js';
import { shippedPgliteTemplate } from './shipped-pglite-template.js';
import type { Db } from './db.js';
import { migrate, type MigrationProgress } from './migrate.js';
import { repositories, type Repositories } from './repositories.js';

/** The storage of one Lookout process: repositories over a database, plus transactions. */
export interface Store extends Repositories {
  readonly db: Db;
  /** Runs `fn` with repositories bound to one transaction. */
  transaction<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Where the data lives: a PostgreSQL URL, a PGlite folder, or memory when neither is given. */
export interface StoreOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** PostgreSQL schema (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
  /** PGlite only: a dumped data folder to start from (`PgliteDb.dumpDataDir`); tests start from a migrated one. */
  pgliteTemplate?: Blob;
  /** Told about pending migrations and each one applied (the start's progress lines). */
  migrationProgress?: MigrationProgress;
}

/** Wraps an open database in repositories. */
export function storeOver(db: Db): Store {
  return {
    db,
    ...repositories(db),
    transaction: (fn) => db.transaction((tx) => fn(repositories(tx))),
    close: () => db.close(),
  };
}

/** A data folder's first start begins from the shipped, migrated template (when this build has one). */
function firstStartTemplate({ dataDir, migrationProgress }: StoreOptions): Blob | undefined {
  const template = dataDir !== undefined && !hasDatabase(dataDir) ? shippedPgliteTemplate() : undefined;
  if (template) migrationProgress?.fromTemplate?.();
  return template;
}

/** Opens the database named by `options`, applies pending migrations and returns the store. */
export async function createStore(options: StoreOptions = {}): Promise<Store> {
  const db = options.databaseUrl
    ? await createPgDb({ connectionString: options.databaseUrl, schema: options.schema, max: options.poolSize })
    : await createPgliteDb({ dataDir: options.dataDir, template: options.pgliteTemplate ?? firstStartTemplate(options) });
  try {
    if (options.schema) await db.exec(`CREATE SCHEMA IF NOT EXISTS "${options.schema.replace(/"/g, '')}"`);
    await migrate(db, undefined, options.migrationProgress);
  } catch (err) {
    await db.close();
    throw err;
  }
  return storeOver(db);
}
