import type { RateLimitOptions } from '@fastify/rate-limit';
import type { Config } from '../config.js';

/** The default budget of conventions.md (requests per 60 s per route per account). */
const DEFAULT_BUDGET = 600;

/**
 * Route `config` for a route with a lower budget than the default: `perMinute` requests per 60 s
 * at the default LOOKOUT_RATE_LIMIT of 600, scaled in proportion to the configured limit (at least
 * 1); nothing when rate limiting is off (LOOKOUT_RATE_LIMIT=0).
 */
export function routeRateLimit(config: Config, perMinute: number): { rateLimit?: RateLimitOptions } {
  if (config.rateLimitMax <= 0) return {};
  return { rateLimit: { max: Math.max(1, Math.round((perMinute * config.rateLimitMax) / DEFAULT_BUDGET)), timeWindow: 60_000 } };
}
