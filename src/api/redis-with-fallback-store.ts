import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];

/** The two stores @fastify/rate-limit ships (untyped CommonJS): their constructors as the plugin calls them. */
interface ShippedStores {
  LocalStore: new (continueExceeding: boolean | undefined, exponentialBackoff: boolean | undefined, cache?: number) => FastifyRateLimitStore;
  RedisStore: new (continueExceeding: boolean | undefined, exponentialBackoff: boolean | undefined, redis: Redis, key?: string) => FastifyRateLimitStore;
}

const require = createRequire(import.meta.url);
const shipped: ShippedStores = {
  LocalStore: require('@fastify/rate-limit/store/LocalStore.js') as ShippedStores['LocalStore'],
  RedisStore: require('@fastify/rate-limit/store/RedisStore.js') as ShippedStores['RedisStore'],
};

/** A store counting in Redis while it answers and in this process while it does not. */
class FallbackStore implements FastifyRateLimitStore {
  constructor(private readonly redis: Redis, private readonly shared: FastifyRateLimitStore, private readonly local: FastifyRateLimitStore) {}

  incr(key: string, callback: Counted, timeWindow: number, max: number): void {
    if (this.redis.status !== 'ready') {
      this.local.incr(key, callback, timeWindow, max);
      return;
    }
    this.shared.incr(key, (err, result) => {
      if (err) this.local.incr(key, callback, timeWindow, max);
      else callback(null, result);
    }, timeWindow, max);
  }

  child(routeOptions: RouteOptions): FastifyRateLimitStore {
    return new FallbackStore(this.redis, this.shared.child(routeOptions), this.local.child(routeOptions));
  }
}

/**
 * The rate limit store of a process sharing its budgets with others through Redis. While Redis is
 * away (its connection fails fast: see createRedisConnection) each process keeps limiting on its
 * own, with a budget counted from the outage's start, instead of letting every request through or
 * holding requests until Redis answers; counting is shared again once Redis is back.
 */
export function redisWithFallbackStore(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  return class extends FallbackStore {
    // The plugin hands its global parameters over, which carry these beside the options' type.
    constructor(params: FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number }) {
      super(
        redis,
        new shipped.RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace),
        new shipped.LocalStore(params.continueExceeding, params.exponentialBackoff, params.cache),
      );
    }
  };
}
