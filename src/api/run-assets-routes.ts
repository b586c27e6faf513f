import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import Type from 'typebox';
import { QUICK_RANGES } from '../domain/quick-range.js';
import { notFound } from '../domain/lookout-error.js';
import { jobAssetsOf } from '../domain/result-asset-files.js';
import { createAnalyticsService } from '../service/analytics-service.js';
import { createResultService } from '../service/result-service.js';
import type { Api, ApiContext } from './api-context.js';
import { routeRateLimit } from './route-rate-limit.js';
import { unixSeconds } from '../contract/result-schemas.js';
import { ref } from '../contract/response-shape.js';
import { nonJson, responses } from '../contract/route-responses.js';

const UUID = Type.String({ format: 'uuid' });

/** Screenshots of browser runs, and the availability of heartbeat checks. */
export function runAssetsRoutes(app: Api, { store, config }: ApiContext): void {
  const results = createResultService({ store });
  const analytics = createAnalyticsService({ store, retention: config.retention });

  app.get('/v1/check-results/:checkId/:checkResultId/assets/:file', {
    schema: {
      operationId: 'getCheckResultAsset',
      tags: ['Check results'],
      summary: 'Download an asset (screenshot) of a browser or multi-step run',
      response: responses({ 200: nonJson('The file', ['image/png', 'image/jpeg', 'application/octet-stream', 'application/zip', 'video/webm', 'text/markdown', 'text/plain'], { type: 'string', format: 'binary' }) }),
      description: 'Only files the result lists in its jobAssets are served (Playwright check suites: also traces, error contexts and other files their tests attached).',
      params: Type.Object({ checkId: UUID, checkResultId: UUID, file: Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9._-]+$' }) }),
    },
    config: routeRateLimit(config, 60),
  }, async (req, reply) => {
    const result = await results.get(req.principal.accountId, req.params.checkId, req.params.checkResultId);
    const asset = jobAssetsOf(result).find((a) => a.file === req.params.file);
    // Listed in the result or nothing: this is also what keeps paths from escaping the folder.
    if (!asset) throw notFound('Asset', req.params.file);
    const path = join(config.assetsDir, String(asset.file));
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw notFound('Asset', req.params.file);
    return reply.type(typeof asset.contentType === 'string' ? asset.contentType : 'application/octet-stream').header('content-length', info.size).send(createReadStream(path));
  });

  app.get('/v1/checks/heartbeats/:checkId/availability', {
    schema: {
      operationId: 'getHeartbeatAvailability',
      tags: ['Heartbeats'],
      summary: 'Availability of a heartbeat check over a window',
      response: responses({ 200: ref('HeartbeatAvailability') }),
      description: 'Percentage of FINAL heartbeat results without failure (a ping in time passes; a missed deadline or /fail fails).',
      params: Type.Object({ checkId: UUID }),
      querystring: Type.Object({
        quickRange: Type.Optional(Type.Enum([...QUICK_RANGES])),
        from: Type.Optional(unixSeconds('UNIX seconds; overrides quickRange')),
        to: Type.Optional(unixSeconds('UNIX seconds (exclusive); overrides quickRange')),
      }, { additionalProperties: false }),
    },
    config: routeRateLimit(config, 30),
  }, async (req) => {
    const report = await analytics.report(req.principal.accountId, 'HEARTBEAT', req.params.checkId, { ...req.query, metrics: ['availability'], page: 1, limit: 1 });
    const data = (report.series[0]?.data ?? []) as { availability?: number | null }[];
    return { checkId: req.params.checkId, from: report.from, to: report.to, availability: data[0]?.availability ?? null };
  });
}
