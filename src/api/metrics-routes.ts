import { isSameSecret } from '../domain/is-same-secret.js';
import { LookoutError } from '../domain/lookout-error.js';
import { nonJson, responses } from '../contract/route-responses.js';
import type { Api, ApiContext } from './api-context.js';

const tags = ['Observability'];

/** Whether `header` is `Bearer <token>`, compared in constant time (hashes: equal lengths whatever is sent). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match !== null && isSameSecret(match[1]!, token);
}

/**
 * `GET /metrics`: this process's Prometheus metrics. No API key: Prometheus scrapes without one, and
 * the series carry no account data (labels are check types, outcomes, route patterns). With
 * `LOOKOUT_METRICS_TOKEN` set, the scraper must send it as a bearer token.
 */
export function metricsRoutes(app: Api, { config, metrics }: ApiContext): void {
  app.get('/metrics', {
    schema: {
      operationId: 'getMetrics', tags, summary: 'Prometheus metrics of this process',
      description: 'The Prometheus text exposition format (version 0.0.4): check runs by type and outcome, run start delay, '
        + 'run queue depth, alert deliveries, REST and GraphQL latency, event bus traffic, process figures. No API key; '
        + 'when the server sets LOOKOUT_METRICS_TOKEN, `Authorization: Bearer <that token>` (else 401).',
      response: responses({ 200: nonJson('Metrics in the Prometheus text exposition format', ['text/plain']) }, 401),
    },
    config: { public: true },
  }, async (req, reply) => {
    if (config.metricsToken && !bearerMatches(req.headers.authorization, config.metricsToken)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new LookoutError('UNAUTHENTICATED', 'Metrics need "Authorization: Bearer <LOOKOUT_METRICS_TOKEN>"');
    }
    const text = await metrics.exposition();
    return reply.type(metrics.contentType).header('Cache-Control', 'no-store').send(text);
  });
}
