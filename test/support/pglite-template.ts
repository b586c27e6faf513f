// A migrated PGlite data folder every in-memory test store starts from: creating a cluster (initdb,
// a wasm module of its own) and applying the migrations cost about 1.5 s per store, loading the dump
// a quarter of a second, and the suites open several hundred stores.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgliteDb } from '../../src/store/create-pglite-db.js';
import { migrate } from '../../src/store/migrate.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MIGRATIONS = join(ROOT, 'src/store/migrations');
const CACHE = join(ROOT, 'node_modules/.cache/lookout-test');

/** Where the dump for the current migrations and PGlite version lives (a new one when either changes). */
export function pgliteTemplatePath(): string {
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  for (const name of readdirSync(MIGRATIONS).sort()) hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
  return join(CACHE, `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Builds the dump unless it exists (vitest globalSetup, once per run). */
export async function ensurePgliteTemplate(): Promise<void> {
  const path = pgliteTemplatePath();
  if (existsSync(path)) return;
  const db = await createPgliteDb();
  try {
    await migrate(db);
    const dump = new Uint8Array(await (await db.dumpDataDir()).arrayBuffer());
    mkdirSync(CACHE, { recursive: true });
    // Written aside and renamed: a run killed mid-write leaves no truncated template behind.
    writeFileSync(`${path}.${process.pid}`, dump);
    renameSync(`${path}.${process.pid}`, path);
  } finally {
    await db.close();
  }
}

let loaded: Blob | null | undefined;

/** The dump, read once per test process; undefined when globalSetup did not build it (stores then start empty). */
export function pgliteTemplate(): Blob | undefined {
  if (loaded === undefined) {
    const path = pgliteTemplatePath();
    loaded = existsSync(path) ? new Blob([readFileSync(path)]) : null;
  }
  return loaded ?? undefined;
}
