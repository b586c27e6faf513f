import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * Parameters of a fast-check property of this suite: `numRuns` runs (FUZZ_RUNS overrides, to search
 * harder), with a random seed locally (to keep finding new cases), `defaultSeed` in CI (so a landing
 * is reproducible) and FUZZ_SEED's when set. A failure is written to stderr the moment its shrinking
 * ends (seed, path and shrunk counterexample, enough to replay it with `seed` and `path`), then fails
 * the assertion with the same report: the runner would print it only at the end of the whole run, and
 * a run cut short (a timeout, a killed CI job) would lose the case.
 */
export function fuzzParameters<T>(numRuns: number, defaultSeed: number, more: fc.Parameters<T> = {}): fc.Parameters<T> {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.CI ? defaultSeed : undefined;
  return {
    ...more,
    numRuns: process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : numRuns,
    ...(seed === undefined ? {} : { seed }),
    reporter(details) {
      if (!details.failed) return;
      const report = fc.defaultReportMessage(details);
      process.stderr.write(`\n[fuzz] ${expect.getState().currentTestName ?? 'a property'}: ${report}\n`);
      throw new Error(report, { cause: details.errorInstance });
    },
  };
}

