import { createScrubber, secretValues, type Scrubber } from '../domain/scrub-secrets.js';
import type { RunVariable } from './executor.js';

const compiled = new WeakMap<readonly RunVariable[], Scrubber>();

/**
 * The scrubber of a run's secret variables. A run hands one variables list to every attempt in
 * every location, so its expression is compiled once per run, by whichever step asks first.
 */
export function runScrubber(variables: readonly RunVariable[]): Scrubber {
  let scrub = compiled.get(variables);
  if (!scrub) {
    scrub = createScrubber(secretValues(variables));
    compiled.set(variables, scrub);
  }
  return scrub;
}
