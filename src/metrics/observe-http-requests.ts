import type { FastifyInstance } from 'fastify';
import { statusClass } from '../domain/status-class.js';
import type { Metrics } from './create-metrics.js';

/** Route label of requests no route matched: their raw paths are the caller's choice and would be unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Times every answered request into `lookout_http_request_duration_seconds`, labelled by the
 * route's pattern (`/v1/checks/:id`), never the raw URL, which carries ids. Hooks are bound when the
 * server gets ready, so this covers routes registered before and after it (GraphQL, the 404 handler).
 */
export function observeHttpRequests(app: FastifyInstance, metrics: Pick<Metrics, 'httpRequestDuration'>): void {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.is404 ? UNMATCHED_ROUTE : (req.routeOptions.url ?? UNMATCHED_ROUTE);
    metrics.httpRequestDuration.observe(
      { method: req.method, route, status_class: statusClass(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}
