// In-memory test stores start from the migrated database the build ships beside the compiled store
// (dist/store/pglite-template.tar.gz, made by bin/server-build.js, which vitest's global setup runs
// whenever src/ changed): creating a cluster (initdb) and applying the migrations cost about 1.5 s
// per store, loading the dump a quarter of a second, and the suites open several hundred stores.
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const SHIPPED = fileURLToPath(new URL('../../dist/store/pglite-template.tar.gz', import.meta.url));

let loaded: Blob | null | undefined;

/**
 * The shipped dump, unzipped once per test process (PGlite would unzip it for every store); undefined
 * when there is no build (stores then start empty and migrate).
 */
export function pgliteTemplate(): Blob | undefined {
  if (loaded === undefined) loaded = existsSync(SHIPPED) ? new Blob([gunzipSync(readFileSync(SHIPPED))]) : null;
  return loaded ?? undefined;
}
