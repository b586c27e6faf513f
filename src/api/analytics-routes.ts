import { ANALYTICS_ROUTE_SEGMENTS } from '../domain/analytics-metrics.js';
import { createAnalyticsService } from '../service/analytics-service.js';
import type { Api, ApiContext } from './api-context.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { routeRateLimit } from './route-rate-limit.js';
import {
  AnalyticsIdParams, AnalyticsMetricsQuery, AnalyticsReportQuery, AnalyticsSummaryBody, AnalyticsSummaryQuery,
} from '../contract/analytics-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Analytics'];

/** `/v1/analytics`: metrics of stored results per check type, a summary over many checks, and the metric catalogue. */
export function analyticsRoutes(app: Api, { store, config }: ApiContext): void {
  const analytics = createAnalyticsService({ store, retention: config.retention });
  const limited = routeRateLimit(config, 30);

  for (const [segment, type] of Object.entries(ANALYTICS_ROUTE_SEGMENTS)) {
    // `api-checks` → `getApiChecksAnalytics`, `dns` → `getDnsAnalytics`.
    const name = segment.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
    app.get(`/v1/analytics/${segment}/:id`, {
      schema: {
        operationId: `get${name}Analytics`,
        tags,
        summary: `Analytics report of a ${type} check`,
        response: responses({ 200: ref('AnalyticsReport') }),
        description: 'series: one entry per group (groupBy; one series without it), each with data: one entry per bucket '
          + '(aggregationInterval minutes, aligned to the UNIX epoch; empty buckets left out; one entry for the whole window '
          + 'without it) holding the bucket bounds (from, to) and each metric. A metric without suffix is its average. '
          + 'Timings and availability are over FINAL results; availability is the percentage without failures (degraded '
          + 'runs pass); retries counts ATTEMPT results. page/limit page through the series. Values are rounded to 2 decimals.',
        params: AnalyticsIdParams,
        querystring: AnalyticsReportQuery,
      },
      config: limited,
      preValidation: normaliseQueryArrays(['metrics', 'filterByStatus'], ['metrics', 'filterByStatus']),
    }, async (req) => analytics.report(req.principal.accountId, type, req.params.id, {
      ...req.query, page: req.query.page ?? 1, limit: req.query.limit ?? 10,
    }));
  }

  app.post('/v1/analytics/checks', {
    schema: {
      operationId: 'getChecksAnalyticsSummary',
      tags,
      summary: 'Analytics summary of up to 100 checks',
      response: responses({ 200: ref('AnalyticsSummaryEntryList') }),
      description: 'One flat entry per known check ({checkId, name, checkType, from, to, <metric>: value}); unknown ids are left out. '
        + 'A metric that does not apply to a check type is absent from its entries; null means no data. '
        + 'Default metrics: availability, responseTime_avg, responseTime_p50, responseTime_p95, responseTime_p99. '
        + 'quickRange may be given in the query or the body (the body wins).',
      querystring: AnalyticsSummaryQuery,
      body: AnalyticsSummaryBody,
    },
    // A read sent as POST (its filters are a body).
    config: { ...limited, permission: 'read' },
  }, async (req) => analytics.summary(req.principal.accountId, { quickRange: req.query.quickRange, ...req.body }));

  app.get('/v1/analytics/metrics', {
    schema: {
      operationId: 'listAnalyticsMetrics', tags, summary: 'The analytics metrics of each check type, with label and unit', querystring: AnalyticsMetricsQuery,
      response: responses({ 200: ref('AnalyticsMetricsOfTypeList') }),
    },
    config: limited,
  }, async (req) => analytics.metricsCatalog(req.query.checkType));
}
