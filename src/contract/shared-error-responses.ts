import { ref, type JsonSchema } from './response-shape.js';

/** What withSharedErrorResponses needs to know of a route (Fastify's route options). */
export interface RouteShape {
  url: string;
  method?: string | string[];
  schema?: Record<string, any>;
  config?: Record<string, any>;
}

/** Options of withSharedErrorResponses. */
export interface SharedErrorOptions {
  /** Whether the server limits requests (LOOKOUT_RATE_LIMIT > 0): every route may then answer 429. */
  rateLimited: boolean;
}

/**
 * Declares on a route the errors every route of its kind can answer, so that the document lists
 * them and the serializer writes them in the one error shape: 400 (input refused at the edge),
 * 401 and 403 (unless public), 404 (routes with path parameters), 413 and 415 (routes with a
 * body), 429 (when rate limited), 500, 503 (the database away: DATABASE_UNAVAILABLE) and 507 (routes
 * that write: the database's disk full, STORAGE_FULL). Errors only a route produces (409, 408) it declares
 * itself. Hidden routes (the documents, health, GraphQL) answer in their own shapes: untouched.
 */
export function withSharedErrorResponses(route: RouteShape, { rateLimited }: SharedErrorOptions): void {
  const schema = route.schema;
  if (!schema || schema.hide) return;
  const statuses = [400, 500, 503];
  const methods = [route.method ?? 'GET'].flat();
  if (methods.some((m) => m !== 'GET' && m !== 'HEAD')) statuses.push(507);
  if (!route.config?.public) statuses.push(401, 403);
  if (route.url.includes(':')) statuses.push(404);
  if (schema.body) statuses.push(413, 415);
  if ((rateLimited || route.config?.rateLimit) && route.config?.rateLimit !== false) statuses.push(429);
  const response: Record<string, JsonSchema> = { ...(schema.response ?? {}) };
  for (const status of statuses) response[status] ??= ref('Error');
  schema.response = response;
  // Public routes need no key: the document says so instead of the global security requirement.
  if (route.config?.public) schema.security ??= [];
}
