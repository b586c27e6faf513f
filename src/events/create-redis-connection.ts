import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** Longest a Redis command may take before it fails (a request never waits longer on Redis). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** Options of createRedisConnection. */
export interface RedisConnectionOptions {
  url: string;
  /** What the connection serves, in its log lines ("event bus", "rate limit store"). */
  role: string;
  /** What this process does while Redis is away, logged when the connection drops. */
  whileDown: string;
  logger?: Logger;
  /**
   * A subscriber connection: it resubscribes itself (see create-redis-event-bus) and has no command
   * timeout, since no request waits on it and a SUBSCRIBE timed out on a live connection would
   * never be asked again.
   */
  subscriber?: boolean;
}

/**
 * A Redis connection that fails fast while Redis is away: no offline queue (a command issued while
 * disconnected fails at once instead of waiting for a reconnect that may never come) and a short
 * command timeout (a half-open connection cannot hold a request). Callers fall back to local work
 * when a command fails. It keeps reconnecting in the background; losing and regaining the
 * connection is logged at info, once each, not every reconnect attempt.
 */
export function createRedisConnection(options: RedisConnectionOptions): Redis {
  const redis = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: options.subscriber ? undefined : REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    autoResubscribe: !options.subscriber,
    // Reconnect attempts back off to 1 s: the service is back to normal soon after Redis is.
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  });
  let up = false;
  redis.on('ready', () => {
    if (up) return;
    up = true;
    options.logger?.info({ role: options.role }, `Redis (${options.role}) connected`);
  });
  redis.on('close', () => {
    if (!up) return;
    up = false;
    options.logger?.info({ role: options.role }, `Redis (${options.role}) unreachable: ${options.whileDown} until it is back`);
  });
  // Every failed reconnect attempt emits one; the state change above is what operators need.
  redis.on('error', (err) => options.logger?.debug({ err, role: options.role }, `Redis (${options.role}) connection error`));
  return redis;
}
