import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Longest a Redis command may take before it fails (a request never waits longer on Redis). A Redis
 * that is down fails commands at once (no offline queue); this bounds a hung one. Not shorter: a
 * busy event loop runs the timer before it reads an answer already there, and a command timed out
 * on a healthy Redis counts a rate limit per process.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1_500;

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
    // A loaded machine can take a second to connect to a healthy Redis; requests never wait on this.
    connectTimeout: 5_000,
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

/**
 * Connects and waits until the connection is ready, through ioredis's own reconnect attempts, for
 * at most `withinMs`: one attempt lost on a loaded machine (a slow connect, a ready check timed
 * out) must not fail a process's start. Rejects with the last error when the time is up.
 */
export async function connectRedis(redis: Redis, withinMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  let lastError: unknown;
  const onError = (err: unknown) => { lastError = err; };
  redis.on('error', onError);
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onReady = resolve;
      redis.once('ready', onReady);
      timer = setTimeout(() => reject(new Error(`Redis not ready within ${withinMs} ms: ${lastError instanceof Error ? lastError.message : 'no answer'}`)), withinMs);
      // A failed first attempt is followed by ioredis's reconnects (retryStrategy); 'ready' settles it.
      redis.connect().catch((err: unknown) => { lastError = err; });
    });
  } finally {
    clearTimeout(timer);
    if (onReady) redis.off('ready', onReady);
    redis.off('error', onError);
  }
}
