import { createResultService } from '../service/result-service.js';
import type { Api, ApiContext } from './api-context.js';
import { CheckIdParams } from './schemas/result-schemas.js';

const tags = ['Check statuses'];

/** `/v1/check-statuses`: the latest known state of each check that has run. */
export function checkStatusesRoutes(app: Api, { store }: ApiContext): void {
  const results = createResultService({ store });

  app.get('/v1/check-statuses', {
    schema: { tags, summary: 'List the status of every check that has run (not paginated)' },
  }, async (req) => results.listStatuses(req.principal.accountId));

  app.get('/v1/check-statuses/:checkId', {
    schema: { tags, summary: 'Get the status of a check', description: '404 until the check has a FINAL result.', params: CheckIdParams },
  }, async (req) => results.getStatus(req.principal.accountId, req.params.checkId));
}
