import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry wasm; two forks match the 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
  },
});
