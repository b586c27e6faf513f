import Type from 'typebox';
import { createCatalogService } from '../service/catalog-service.js';
import type { Api } from './api-context.js';

/** `/v1/locations` and `/v1/runtimes`: fixed catalogues, unpaginated. */
export function catalogRoutes(app: Api): void {
  const catalog = createCatalogService();

  app.get('/v1/locations', { schema: { tags: ['Locations'], summary: 'Data-center locations checks can run in' } }, async () =>
    catalog.locations());
  app.get('/v1/runtimes', {
    schema: {
      tags: ['Runtimes'], summary: 'Runtimes and the npm packages checks may import in each',
      description: '2026.04 and 2025.04 are CURRENT, older runtimes DEPRECATED (they keep running).',
    },
  }, async () => catalog.runtimes());
  app.get('/v1/runtimes/:id', {
    schema: {
      tags: ['Runtimes'], summary: 'One runtime',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false }),
    },
  }, async (req) => catalog.runtime(req.params.id));
}
