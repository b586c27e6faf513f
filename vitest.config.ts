import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Vite would pick graphql's ESM build for our sources while Apollo (loaded by Node) gets the CommonJS
  // one: two graphql realms reject each other's schemas. Both must load the same file.
  resolve: { alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry wasm; two forks match the 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
    // CI also writes a JSON report, from which .ci/run prints its plain "N passed, N failed" line.
    reporters: process.env.LOOKOUT_TEST_REPORT ? ['default', ['json', { outputFile: process.env.LOOKOUT_TEST_REPORT }]] : ['default'],
  },
});
