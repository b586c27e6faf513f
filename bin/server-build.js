// The compiled server in dist/: `node bin/server-build.js` writes it (npm run build:server, run by
// `prepare` at install and by `pretest`), and bin/lookout.js asks serverBuildProblem() before it runs
// it, so a checkout whose sources changed since the last build says so instead of running old code.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (the folder holding package.json, src/ and dist/). */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
/** What the build recorded about the sources it compiled (see serverBuildProblem). */
const STAMP = path.join(DIST, '.build.json');
/** Files the server reads beside its modules (migrations, the sandbox runtime), copied as they are. */
const ASSET = /\.(?:sql|mjs|proto|json)$/;
/** How to build, as the one line a stale or missing build prints. */
export const BUILD_HINT = 'run `npm run build:server` (or `npm install`, which builds it)';

/**
 * The sources of the build: every file under src/ except generated code, which is types only (the
 * compiled modules never import it: type imports are erased) and changes at every codegen.
 */
function sources() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__generated__') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') || ASSET.test(entry.name)) files.push(full);
    }
  };
  walk(SRC);
  return files;
}

/** The number of sources and the newest modification time among them. */
function fingerprint(files) {
  let newest = 0;
  let newestFile = '';
  for (const file of files) {
    const { mtimeMs } = statSync(file);
    if (mtimeMs > newest) [newest, newestFile] = [mtimeMs, file];
  }
  return { count: files.length, newest, newestFile };
}

/**
 * Why dist/ cannot be run as it is (missing, or older than the sources in src/), or null when it is
 * current. Without src/ (an installed package) there is nothing to compare with: dist/ is the code.
 */
export function serverBuildProblem() {
  if (!existsSync(SRC)) return existsSync(path.join(DIST, 'cli.js')) ? null : `the compiled server (dist/) is missing: ${BUILD_HINT}`;
  if (!existsSync(STAMP)) return `the compiled server (dist/) is missing: ${BUILD_HINT}`;
  const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  const now = fingerprint(sources());
  if (now.count !== stamp.count) return `the compiled server (dist/) is out of date (src/ has ${now.count} files, the build ${stamp.count}): ${BUILD_HINT}`;
  if (now.newest > stamp.newest) return `the compiled server (dist/) is older than ${path.relative(ROOT, now.newestFile)}: ${BUILD_HINT}`;
  return null;
}

/**
 * Compiles src/**\/*.ts to dist/ file by file (no bundling: the tree stays, so paths relative to a
 * module — ../web/dist, ../../schema/, ./migrations/ — resolve the same from dist/ as from src/) and
 * copies the other files the server reads. Resolves to the number of modules written.
 */
export async function buildServer() {
  const { build } = await import('esbuild');
  const files = sources();
  const before = fingerprint(files);
  rmSync(DIST, { recursive: true, force: true });
  const modules = files.filter((f) => f.endsWith('.ts'));
  await build({
    entryPoints: modules, outdir: DIST, outbase: SRC, bundle: false, format: 'esm', platform: 'node', target: 'node20',
    // Stack traces then point into src/ (the launcher turns source maps on).
    sourcemap: 'linked', sourcesContent: false, logLevel: 'warning',
  });
  for (const file of files.filter((f) => !f.endsWith('.ts'))) {
    const to = path.join(DIST, path.relative(SRC, file));
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(file, to);
  }
  await writePgliteTemplate();
  // The fingerprint taken before compiling: a source saved during the build makes the next start rebuild-worthy.
  writeFileSync(STAMP, `${JSON.stringify({ count: before.count, newest: before.newest })}\n`);
  return modules.length;
}

/**
 * An empty database with every migration applied, dumped where the compiled store finds it
 * (src/store/shipped-pglite-template.ts): a first start loads it instead of running initdb and the
 * migrations. Built with the compiled modules just written, so it matches them exactly.
 */
async function writePgliteTemplate() {
  // A package without the store (a test's minimal checkout) has nothing to dump.
  if (!existsSync(path.join(DIST, 'store/create-pglite-db.js'))) return;
  const { createPgliteDb } = await import(path.join(DIST, 'store/create-pglite-db.js'));
  const { migrate } = await import(path.join(DIST, 'store/migrate.js'));
  const { SHIPPED_PGLITE_TEMPLATE } = await import(path.join(DIST, 'store/shipped-pglite-template.js'));
  const db = await createPgliteDb();
  try {
    await migrate(db);
    writeFileSync(SHIPPED_PGLITE_TEMPLATE, new Uint8Array(await (await db.dumpDataDir('gzip')).arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** Builds dist/ when serverBuildProblem() finds it missing or stale; resolves to whether it built. */
export async function ensureServerBuild() {
  if (serverBuildProblem() === null) return false;
  await buildServer();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const count = await buildServer();
  process.stdout.write(`compiled ${count} modules of src/ to dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
