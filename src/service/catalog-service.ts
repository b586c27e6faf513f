import { LOCATION_NAMES, LOCATIONS } from '../domain/catalog.js';
import { LookoutError } from '../domain/lookout-error.js';
import { RUNTIMES, findRuntime, type Runtime } from '../domain/runtime-catalog.js';

/** The fixed catalogues clients read: data-center locations and runtimes. */
export function createCatalogService() {
  return {
    locations: () => LOCATIONS.map((region) => ({ region, name: LOCATION_NAMES[region] })),
    runtimes: (): readonly Runtime[] => RUNTIMES,
    runtime(id: string): Runtime {
      const runtime = findRuntime(id);
      if (!runtime) throw new LookoutError('NOT_FOUND', `Runtime ${id} not found`);
      return runtime;
    },
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
