import Type from 'typebox';
import { createCatalogService } from '../service/catalog-service.js';
import type { Api } from './api-context.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

/** `/v1/locations` and `/v1/runtimes`: fixed catalogues, unpaginated. */
export function catalogRoutes(app: Api): void {
  const catalog = createCatalogService();

  app.get('/v1/locations', {
    schema: { operationId: 'listLocations', tags: ['Locations'], summary: 'Data-center locations checks can run in', response: responses({ 200: ref('LocationList') }) },
  }, async () =>
    catalog.locations());
  app.get('/v1/runtimes', {
    schema: {
      operationId: 'listRuntimes', tags: ['Runtimes'], summary: 'Runtimes and the npm packages checks may import in each', response: responses({ 200: ref('RuntimeList') }),
      description: '2026.04 and 2025.04 are CURRENT, older runtimes DEPRECATED (they keep running).',
    },
  }, async () => catalog.runtimes());
  app.get('/v1/runtimes/:id', {
    schema: {
      operationId: 'getRuntime', tags: ['Runtimes'], summary: 'One runtime', response: responses({ 200: ref('Runtime') }),
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false }),
    },
  }, async (req) => catalog.runtime(req.params.id));
}
