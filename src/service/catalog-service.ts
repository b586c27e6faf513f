import { createRequire } from 'node:module';
import { LOCATION_NAMES, LOCATIONS } from '../domain/catalog.js';
import { LookoutError } from '../domain/lookout-error.js';
import { RUNTIMES, findRuntime, withInstalledPlaywright, type Runtime } from '../domain/runtime-catalog.js';

/** The Playwright every runtime's browser checks and Playwright check suites run on. */
const INSTALLED_PLAYWRIGHT: string = createRequire(import.meta.url)('@playwright/test/package.json').version;
const CARRIED: readonly Runtime[] = RUNTIMES.map((r) => withInstalledPlaywright(r, INSTALLED_PLAYWRIGHT));

/** The fixed catalogues clients read: data-center locations and runtimes (with the Playwright they carry). */
export function createCatalogService() {
  return {
    locations: () => LOCATIONS.map((region) => ({ region, name: LOCATION_NAMES[region] })),
    runtimes: (): readonly Runtime[] => CARRIED,
    runtime(id: string): Runtime {
      const runtime = findRuntime(id);
      if (!runtime) throw new LookoutError('NOT_FOUND', `Runtime ${id} not found`);
      return withInstalledPlaywright(runtime, INSTALLED_PLAYWRIGHT);
    },
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
