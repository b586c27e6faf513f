import { createResultService } from '../service/result-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { routeRateLimit } from './route-rate-limit.js';
import { CheckIdParams, CheckResultParams, ResultBatchQuery, ResultCursorQuery, ResultPageQuery } from '../contract/result-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Check results'];

/** `/v2/check-results` (cursor list, and the latest results of many checks) and the older `/v1/check-results` (offset list, one result). */
export function checkResultsRoutes(app: Api, { store, config }: ApiContext): void {
  const results = createResultService({ store });
  const limited = routeRateLimit(config, 60);

  app.get('/v2/check-results/:checkId', {
    schema: {
      operationId: 'listCheckResultsByCursor',
      tags,
      summary: 'List check results, newest first (cursor pagination)',
      response: responses({ 200: ref('CheckResultPage') }),
      description: 'FINAL results unless resultType says otherwise; runs of test sessions are not listed. '
        + 'nextId is null on the last page. fields (comma-separated) keeps only the named fields of each entry.',
      params: CheckIdParams,
      querystring: ResultCursorQuery,
    },
    config: limited,
    preValidation: normaliseQueryArrays(['fields'], ['fields']),
  }, async (req) => results.listCursor(req.principal.accountId, req.params.checkId, { ...req.query, limit: req.query.limit ?? 10 }));

  app.get('/v2/check-results', {
    schema: {
      operationId: 'listLatestCheckResults',
      tags,
      summary: 'The latest results of several checks at once',
      response: responses({ 200: ref('CheckResultBatch') }),
      description: 'The perCheck (default 5, at most 10) newest results of each check in checkIds (at most 100), as one list '
        + 'ordered by checkIds, newest first within a check; filters as in GET /v2/check-results/{checkId}. Unknown check ids '
        + 'have no entries. One query whatever the number of checks: meant for dashboards and batching clients.',
      querystring: ResultBatchQuery,
    },
    config: limited,
    preValidation: normaliseQueryArrays(['checkIds', 'fields'], ['checkIds', 'fields']),
  }, async (req) => results.listLatest(req.principal.accountId, { ...req.query, perCheck: req.query.perCheck ?? 5 }));

  app.get('/v1/check-results/:checkId', {
    schema: {
      operationId: 'listCheckResults',
      tags,
      summary: 'List check results, newest first (offset pagination)',
      response: responses({ 200: ref('CheckResultList') }),
      description: 'Without from, the results of the last 6 hours (before to, when given). Total in Content-Range.',
      params: CheckIdParams,
      querystring: ResultPageQuery,
    },
    config: limited,
  }, async (req, reply) => {
    const { page = 1, limit = 10, ...filter } = req.query;
    const { items, total } = await results.listPage(req.principal.accountId, req.params.checkId, filter, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/check-results/:checkId/:checkResultId', {
    schema: { operationId: 'getCheckResult', tags, summary: 'Get one check result', params: CheckResultParams, response: responses({ 200: ref('CheckResult') }) },
    config: limited,
  }, async (req) => results.get(req.principal.accountId, req.params.checkId, req.params.checkResultId));
}
