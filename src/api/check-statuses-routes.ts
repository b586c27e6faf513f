import Type from 'typebox';
import { createResultService } from '../service/result-service.js';
import type { Api, ApiContext } from './api-context.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { CheckIdParams } from '../contract/result-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

/** Query of `GET /v1/check-statuses`. */
const StatusListQuery = Type.Object(
  { checkIds: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100, description: 'Only the statuses of these checks' })) },
  { additionalProperties: false },
);

const tags = ['Check statuses'];

/** `/v1/check-statuses`: the latest known state of each check that has run. */
export function checkStatusesRoutes(app: Api, { store }: ApiContext): void {
  const results = createResultService({ store });

  app.get('/v1/check-statuses', {
    schema: {
      operationId: 'listCheckStatuses',
      tags,
      summary: 'List the status of every check that has run (not paginated)',
      response: responses({ 200: ref('CheckStatusList') }),
      description: 'checkIds (comma-separated or repeated, at most 100) keeps the statuses of those checks only, in the order given, for batch reads.',
      querystring: StatusListQuery,
    },
    preValidation: normaliseQueryArrays(['checkIds'], ['checkIds']),
  }, async (req) => results.listStatuses(req.principal.accountId, req.query.checkIds));

  app.get('/v1/check-statuses/:checkId', {
    schema: {
      operationId: 'getCheckStatus', tags, summary: 'Get the status of a check', description: '404 until the check has a FINAL result.', params: CheckIdParams,
      response: responses({ 200: ref('CheckStatus') }),
    },
  }, async (req) => results.getStatus(req.principal.accountId, req.params.checkId));
}
