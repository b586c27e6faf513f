/** Everything configurable, read from the environment once at start (README lists each variable). */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL URL; when unset, embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  dataDir: string;
  /** Base URL clients use to reach this server (heartbeat ping URLs). */
  publicUrl: string;
  bootstrapAccountId: string | undefined;
  bootstrapApiKey: string | undefined;
  logLevel: string;
  /** Requests per 60 s per route per account; 0 turns rate limiting off. */
  rateLimitMax: number;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  staticIps: string[] | undefined;
  staticIpv6s: string[] | undefined;
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function list(value: string | undefined): string[] | undefined {
  if (!value) return undefined;
  return value.split(/[\s,]+/).filter(Boolean);
}

/** Reads the configuration from `env`, failing with a clear message on a malformed value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 4000);
  const host = env.HOST || '0.0.0.0';
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: int('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 10),
    dataDir: env.LOOKOUT_DATA_DIR || './.lookout-data',
    publicUrl: env.LOOKOUT_PUBLIC_URL || `http://localhost:${port}`,
    bootstrapAccountId: env.LOOKOUT_ACCOUNT_ID || undefined,
    bootstrapApiKey: env.LOOKOUT_API_KEY || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    rateLimitMax: int('LOOKOUT_RATE_LIMIT', env.LOOKOUT_RATE_LIMIT, 600),
    bodyLimit: int('LOOKOUT_BODY_LIMIT', env.LOOKOUT_BODY_LIMIT, 5 * 1024 * 1024),
    staticIps: list(env.LOOKOUT_STATIC_IPS),
    staticIpv6s: list(env.LOOKOUT_STATIC_IPV6S),
  };
}
