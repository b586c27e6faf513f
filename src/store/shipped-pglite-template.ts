import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where the build (bin/server-build.js) leaves a dump of an empty, fully migrated PGlite database,
 * beside the compiled store modules: a first start loads it instead of creating a cluster (initdb, a
 * wasm module of its own whose memory stays with the process) and applying every migration.
 */
export const SHIPPED_PGLITE_TEMPLATE = fileURLToPath(new URL('./pglite-template.tar.gz', import.meta.url));

/** The shipped template, or undefined when this copy has none (running from src/, or a build without it). */
export function shippedPgliteTemplate(): Blob | undefined {
  return existsSync(SHIPPED_PGLITE_TEMPLATE) ? new Blob([readFileSync(SHIPPED_PGLITE_TEMPLATE)]) : undefined;
}
