import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** The GraphQL suites, run once per transport of the layer's REST calls (test/support/test-server.ts). */
const GRAPHQL_SUITES = 'test/graphql-*.test.ts';
const GRAPHQL_TRANSPORTS = ['in-process', 'http'] as const;

export default defineConfig({
  // Vite would pick graphql's ESM build for our sources while Apollo (loaded by Node) gets the CommonJS
  // one: two graphql realms reject each other's schemas. Both must load the same file.
  resolve: { alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }] },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
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
