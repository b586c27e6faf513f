import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** The GraphQL suites, run once per transport of the layer's REST calls (test/support/test-server.ts). */
const GRAPHQL_SUITES = 'test/graphql/**/*.test.ts';
const GRAPHQL_TRANSPORTS = ['in-process', 'http'] as const;

/**
 * Without bubblewrap (a bare machine) the suites run check code unsandboxed and the sandbox suites
 * say they are skipped; .ci/run installs it and sets LOOKOUT_TEST_REQUIRE_SANDBOX, so CI never skips them.
 */
const noBubblewrap = spawnSync(process.env.LOOKOUT_SANDBOX_BWRAP || 'bwrap', ['--version']).error !== undefined;
if (noBubblewrap) console.warn('bubblewrap is not installed: check code runs unsandboxed in these tests (LOOKOUT_SANDBOX=off) and the sandbox suites are skipped');

export default defineConfig({
  // Vite would pick graphql's ESM build for our sources while Apollo (loaded by Node) gets the CommonJS
  // one: two graphql realms reject each other's schemas. Both must load the same file.
  resolve: { alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }] },
  test: {
    // bin/lookout.js runs the compiled dist/: rebuilt before the suites when src/ changed since.
    globalSetup: ['test/support/build-server.ts'],
    // Bounds, not targets: many cases start their own servers (embedded databases, Chromium), which on
    // a loaded 2-core machine can take tens of seconds; a hang still fails within these.
    testTimeout: 90_000,
    env: noBubblewrap ? { LOOKOUT_SANDBOX: 'off' } : {},
    hookTimeout: 120_000,
    // PGlite instances are memory-hungry wasm; two forks match the 2-core machine (shared by every project).
    pool: 'forks',
    maxWorkers: 2,
    // CI also writes a JSON report, from which .ci/run prints its plain "N passed, N failed" line.
    reporters: process.env.LOOKOUT_TEST_REPORT ? ['default', ['json', { outputFile: process.env.LOOKOUT_TEST_REPORT }]] : ['default'],
    projects: [
      { extends: true, test: { name: 'lookout', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, GRAPHQL_SUITES] } },
      ...GRAPHQL_TRANSPORTS.map((transport) => ({
        extends: true as const,
        test: { name: `graphql (${transport})`, include: [GRAPHQL_SUITES], env: { LOOKOUT_TEST_GRAPHQL_TRANSPORT: transport } },
      })),
    ],
  },
});
