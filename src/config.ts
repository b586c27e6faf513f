import { passwordIssues } from './domain/password-issues.js';
import { parseOidcRoleMap, type OidcRoleMap } from './domain/oidc-role-map.js';
import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RETENTION, type RetentionSettings } from './domain/retention-policy.js';

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
  /** The first owner's sign-in email (`LOOKOUT_OWNER_EMAIL`, default owner@localhost). */
  ownerEmail: string;
  /** The first owner's password (`LOOKOUT_OWNER_PASSWORD`); unset: the first start makes one and writes it to the key file. */
  ownerPassword: string | undefined;
  logLevel: string;
  /** Requests per 60 s per route per account; 0 turns rate limiting off. */
  rateLimitMax: number;
  /** Redis for the event bus between processes (`REDIS_URL`); unset: events stay in this process. */
  redisUrl: string | undefined;
  /**
   * What this process does (`LOOKOUT_ROLE` or `lookout serve --role`): `all` (API and runner, the
   * default), `api` (the API only; the same as `LOOKOUT_RUNNER=off`) or `runner` (runs checks and
   * competes for the schedule; serves only /health and /metrics; needs DATABASE_URL).
   */
  role: ProcessRole;
  /** Whether this process runs checks and competes for the schedule's leadership (roles `all` and `runner`). */
  runnerEnabled: boolean;
  /** Browser and multi-step attempts at once at most (`LOOKOUT_BROWSER_CONCURRENCY`, default 2). */
  browserConcurrency: number;
  /** Scheduled runs in flight at most (`LOOKOUT_RUNNER_CONCURRENCY`). */
  runnerConcurrency: number;
  /**
   * How long each growing table is kept: run results (`LOOKOUT_RESULT_RETENTION_DAYS`, default 30; 0 keeps
   * them for ever), their roll-ups, pings, alerts... (the `LOOKOUT_*_RETENTION_DAYS` and `LOOKOUT_DEPLOYMENTS_KEPT` settings).
   */
  retention: RetentionSettings;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  staticIps: string[] | undefined;
  staticIpv6s: string[] | undefined;
  /** SMTP server of EMAIL alert channels (`SMTP_URL`, e.g. smtp://user:pass@mail:587); unset: email deliveries fail. */
  smtpUrl: string | undefined;
  /** Sender of alert emails (`SMTP_FROM`). */
  smtpFrom: string;
  /** PagerDuty Events API v2 endpoint (`PAGERDUTY_EVENTS_URL`). */
  pagerDutyEventsUrl: string;
  /** Opsgenie API base URLs of the US and EU regions (`OPSGENIE_API_URL_US`, `OPSGENIE_API_URL_EU`). */
  opsgenieApiUrlUs: string;
  opsgenieApiUrlEu: string;
  /** Provider webhooks that send SMS and make calls (`SMS_PROVIDER_URL`, `CALL_PROVIDER_URL`); unset: those deliveries fail. */
  smsProviderUrl: string | undefined;
  callProviderUrl: string | undefined;
  /** Waits before each retry of a failed alert delivery, in seconds (`LOOKOUT_ALERT_RETRY_DELAYS`, default 10,60,300). */
  alertRetryDelaysSeconds: number[];
  /** Time limit of one alert delivery attempt, in ms (`LOOKOUT_ALERT_TIMEOUT_MS`). */
  alertTimeoutMs: number;
  /**
   * LOOKOUT_ALLOW_PRIVATE_TARGETS: status page subscriber webhooks may point at loopback,
   * link-local and private addresses (off: refused at subscribe time and at connect time).
   */
  allowPrivateTargets: boolean;
  /** The model of agentic checks (`LOOKOUT_AGENTIC_MODEL_*`); null when none is configured (AGENTIC checks are then refused). */
  agentic: AgenticSettings | null;
  /** Chromium binary of browser and multi-step checks (`LOOKOUT_CHROMIUM_PATH`, default Debian's /usr/bin/chromium). */
  chromiumPath: string;
  /** Folder of run assets such as browser check screenshots (`LOOKOUT_ASSETS_DIR`, default `<dataDir>/assets`). */
  assetsDir: string;
  /**
   * Folder of the built web console and GraphiQL (`LOOKOUT_CONSOLE_DIR`, default `web/dist` of this
   * installation, written by `npm run build:web`). Missing, `/` answers 503 saying how to build it.
   */
  consoleDir: string;
  /** The key agents of data-center locations present (`LOOKOUT_DATA_CENTER_AGENT_KEY`); unset: only private-location agents connect. */
  dataCenterAgentKey: string | undefined;
  /** REST backend of the GraphQL layer (`GRAPHQL_BACKEND_URL`); unset: this process's own API, in-process. */
  graphqlBackendUrl: string | undefined;
  /** REST calls one GraphQL operation may make (`GRAPHQL_REST_BUDGET`, default 50). */
  graphqlRestBudget: number;
  /** Deepest field nesting of a GraphQL operation (`GRAPHQL_MAX_DEPTH`, default 15; 0: no limit). */
  graphqlMaxDepth: number;
  /** Aliased fields in a GraphQL operation (`GRAPHQL_MAX_ALIASES`, default 30; 0: no limit). */
  graphqlMaxAliases: number;
  /** Estimated REST calls of a GraphQL operation, checked before it runs (`GRAPHQL_MAX_COST`, default 1000; 0: no limit). */
  graphqlMaxCost: number;
  /** Whether GraphQL introspection is answered (`GRAPHQL_INTROSPECTION`, default on). */
  graphqlIntrospection: boolean;
  /** Whether browsers get a minimal local query page at GET /graphql (`GRAPHQL_LANDING_PAGE`, default off). */
  graphqlLandingPage: boolean;
  /** Largest GraphQL document (query text) in bytes, refused before it is parsed (`GRAPHQL_MAX_DOCUMENT_BYTES`, default 100 KiB). */
  graphqlMaxDocumentBytes: number;
  /** Largest GraphQL variables object in bytes of JSON (`GRAPHQL_MAX_VARIABLES_BYTES`, default 1 MiB). */
  graphqlMaxVariablesBytes: number;
  /** What one `__schema` introspection field counts towards `GRAPHQL_MAX_COST` (`GRAPHQL_INTROSPECTION_COST`, default 50). */
  graphqlIntrospectionCost: number;
  /** Invalid keys an error answer lists at most, REST 400s and GraphQL userErrors alike (`LOOKOUT_MAX_ERROR_ISSUES`, default 20). */
  maxErrorIssues: number;
  /** Deepest nesting of arrays and objects in a JSON body (`LOOKOUT_MAX_JSON_DEPTH`, default 32). */
  maxJsonDepth: number;
  /** Bearer token `GET /metrics` requires (`LOOKOUT_METRICS_TOKEN`); unset: the metrics need none. */
  metricsToken: string | undefined;
  /**
   * Which proxies in front of this server to believe (`LOOKOUT_TRUST_PROXY`, fastify's `trustProxy`):
   * false (the default: X-Forwarded-* are ignored), true (any), a hop count, or addresses and CIDRs.
   * Client addresses (rate limits) and https (Secure cookies) come from X-Forwarded-For/-Proto only
   * when the request came through a trusted proxy.
   */
  trustProxy: TrustProxy;
  /** How the runner isolates the code checks bring (scripts, setup and teardown); see SandboxSettings. */
  sandbox: SandboxSettings;
  /** Single sign-on with OpenID Connect (`LOOKOUT_OIDC_*`); null when LOOKOUT_OIDC_ISSUER is unset. */
  oidc: OidcSettings | null;
}

/** Sign-in through an OpenID provider (README, "Single sign-on (OpenID Connect)"). */
export interface OidcSettings {
  /** The provider's issuer URL (`LOOKOUT_OIDC_ISSUER`); its `/.well-known/openid-configuration` is read from there. */
  issuer: string;
  /** This server's client id at the provider (`LOOKOUT_OIDC_CLIENT_ID`). */
  clientId: string;
  /** The client secret (`LOOKOUT_OIDC_CLIENT_SECRET`); null for a public client, which proves itself with PKCE only. A secret: never logged. */
  clientSecret: string | null;
  /** The words of the console's sign-in button (`LOOKOUT_OIDC_NAME`, default "single sign-on"). */
  name: string;
  /** Scopes asked for (`LOOKOUT_OIDC_SCOPES`, default `openid email profile`; `openid` is always among them). */
  scopes: string[];
  /** The claim whose values the role map reads (`LOOKOUT_OIDC_ROLES_CLAIM`, default `lookout_roles`; a dotted path reaches into objects). */
  rolesClaim: string;
  /** Claim values to accounts and roles (`LOOKOUT_OIDC_ROLE_MAP`). */
  roleMap: OidcRoleMap;
}

/**
 * The single sign-on settings: none without LOOKOUT_OIDC_ISSUER; with it, a client id and a role
 * map are needed too (without a map nobody could sign in), and other LOOKOUT_OIDC_* settings
 * without an issuer are refused: they would look configured and never work.
 */
export function oidcSettings(env: NodeJS.ProcessEnv): OidcSettings | null {
  const issuer = env.LOOKOUT_OIDC_ISSUER?.trim();
  if (!issuer) {
    const stray = Object.keys(env).filter((k) => k.startsWith('LOOKOUT_OIDC_') && env[k]).sort();
    if (stray.length > 0) throw new Error(`${stray.join(', ')} need${stray.length === 1 ? 's' : ''} LOOKOUT_OIDC_ISSUER (the OpenID provider's issuer URL)`);
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(issuer);
  } catch {
    throw new Error(`LOOKOUT_OIDC_ISSUER must be the provider's issuer URL, such as https://keycloak.example.com/realms/main, got "${issuer}"`);
  }
  if (!/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash) {
    throw new Error(`LOOKOUT_OIDC_ISSUER must be an https (or http) URL without query or fragment, got "${issuer}"`);
  }
  const clientId = env.LOOKOUT_OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new Error('LOOKOUT_OIDC_ISSUER needs LOOKOUT_OIDC_CLIENT_ID (this server\'s client id at the provider)');
  if (!env.LOOKOUT_OIDC_ROLE_MAP?.trim()) {
    throw new Error('LOOKOUT_OIDC_ISSUER needs LOOKOUT_OIDC_ROLE_MAP (which claim values give which role in which account): without it nobody could sign in');
  }
  const scopes = list(env.LOOKOUT_OIDC_SCOPES) ?? ['openid', 'email', 'profile'];
  if (!scopes.includes('openid')) scopes.unshift('openid');
  const rolesClaim = env.LOOKOUT_OIDC_ROLES_CLAIM?.trim() || 'lookout_roles';
  return {
    issuer,
    clientId,
    clientSecret: env.LOOKOUT_OIDC_CLIENT_SECRET || null,
    name: env.LOOKOUT_OIDC_NAME?.trim() || 'single sign-on',
    scopes,
    rolesClaim,
    roleMap: parseOidcRoleMap(env.LOOKOUT_OIDC_ROLE_MAP),
  };
}

/**
 * The sandbox of user code (README, "Sandbox"). Every script a check brings runs in bubblewrap, in
 * namespaces of its own as an unprivileged user, with these limits per run.
 */
export interface SandboxSettings {
  /**
   * `LOOKOUT_SANDBOX`: `bwrap` (the default; also `on`) or `off`, which runs scripts as plain child
   * processes of the service, with its user and files: only for a single-account server, and
   * refused at start when more than one account exists unless `LOOKOUT_SANDBOX_FORCE_OFF=true`.
   */
  mode: 'bwrap' | 'off';
  /** `LOOKOUT_SANDBOX_FORCE_OFF`: keeps `off` even with several accounts (every account can then read the server). */
  forceOff: boolean;
  /** The bubblewrap binary (`LOOKOUT_SANDBOX_BWRAP`, default `bwrap` on PATH). */
  bwrapPath: string;
  /** Memory of one run, browser included, in MiB (`LOOKOUT_SANDBOX_MEMORY_MB`, default 1024). */
  memoryMb: number;
  /** Processes and threads of one run (`LOOKOUT_SANDBOX_PROCESSES`, default 512; Chromium alone uses ~150). */
  processes: number;
  /** Bytes one run may print (stdout, stderr and its messages to the runner), in KiB (`LOOKOUT_SANDBOX_OUTPUT_KB`, default 8192). */
  outputKb: number;
  /** Size of each writable place of a run (its /tmp, HOME, and any one file in its working folder) in MiB (`LOOKOUT_SANDBOX_SCRATCH_MB`, default 256). */
  scratchMb: number;
  /**
   * First user id of runs when the service runs as root (`LOOKOUT_SANDBOX_UID_BASE`, default 200000):
   * each run in flight has its own id from there, so runs can neither signal nor read each other
   * and the process limit counts one run only.
   */
  uidBase: number;
}

/** The OpenAI-compatible chat-completions endpoint agentic checks talk to, and their bounds. */
export interface AgenticSettings {
  /** Base URL (`LOOKOUT_AGENTIC_MODEL_URL`); `/chat/completions` is appended. */
  modelUrl: string;
  /** Bearer key (`LOOKOUT_AGENTIC_MODEL_KEY`), or null for endpoints without one. A secret: never logged, never in results. */
  modelKey: string | null;
  /** Model name sent with each request (`LOOKOUT_AGENTIC_MODEL`). */
  model: string;
  /** Model turns one run may take at most (`LOOKOUT_AGENTIC_MAX_STEPS`, default 20). */
  maxSteps: number;
  /** Time limit of one run, browser start included (`LOOKOUT_AGENTIC_TIMEOUT_MS`, default 120000). */
  timeoutMs: number;
  /** Time limit of one model request (`LOOKOUT_AGENTIC_MODEL_TIMEOUT_MS`, default 60000). */
  requestTimeoutMs: number;
}

/**
 * The agentic settings: none without LOOKOUT_AGENTIC_MODEL_URL; with it, the model name is needed
 * too (a key alone, or a model alone, is refused: it would look configured and never work).
 */
export function agenticSettings(env: NodeJS.ProcessEnv): AgenticSettings | null {
  const modelUrl = url('LOOKOUT_AGENTIC_MODEL_URL', env.LOOKOUT_AGENTIC_MODEL_URL?.trim());
  const model = env.LOOKOUT_AGENTIC_MODEL?.trim() || undefined;
  const modelKey = env.LOOKOUT_AGENTIC_MODEL_KEY || undefined;
  if (!modelUrl) {
    if (model || modelKey) throw new Error('LOOKOUT_AGENTIC_MODEL and LOOKOUT_AGENTIC_MODEL_KEY need LOOKOUT_AGENTIC_MODEL_URL (the chat-completions base URL)');
    return null;
  }
  if (!/^https?:$/.test(new URL(modelUrl).protocol)) throw new Error('LOOKOUT_AGENTIC_MODEL_URL must be an http or https URL');
  if (!model) throw new Error('LOOKOUT_AGENTIC_MODEL_URL needs LOOKOUT_AGENTIC_MODEL (the model name to request)');
  const atLeast = (name: string, fallback: number, min: number) => {
    const n = int(name, env[name], fallback);
    if (n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${env[name]}"`);
    return n;
  };
  return {
    modelUrl,
    modelKey: modelKey ?? null,
    model,
    maxSteps: atLeast('LOOKOUT_AGENTIC_MAX_STEPS', 20, 1),
    timeoutMs: atLeast('LOOKOUT_AGENTIC_TIMEOUT_MS', 120_000, 1000),
    requestTimeoutMs: atLeast('LOOKOUT_AGENTIC_MODEL_TIMEOUT_MS', 60_000, 100),
  };
}

/** What a process does: see Config.role. */
export type ProcessRole = 'all' | 'api' | 'runner';
const ROLES: readonly ProcessRole[] = ['all', 'api', 'runner'];

/**
 * The role from LOOKOUT_ROLE and the older LOOKOUT_RUNNER switch; settings that contradict each
 * other, or a runner-only process on the embedded database (which no other process can reach), are
 * refused with an error naming them.
 */
function processRole(env: NodeJS.ProcessEnv): ProcessRole {
  // A misspelt switch ("of") is refused rather than read as on.
  const runner = env.LOOKOUT_RUNNER === undefined || env.LOOKOUT_RUNNER === '' ? undefined : flag('LOOKOUT_RUNNER', env.LOOKOUT_RUNNER, true);
  const given = env.LOOKOUT_ROLE?.trim().toLowerCase();
  if (given === undefined || given === '') return runner === false ? 'api' : 'all';
  if (!(ROLES as readonly string[]).includes(given)) throw new Error(`LOOKOUT_ROLE must be one of ${ROLES.join(', ')} (got "${env.LOOKOUT_ROLE}")`);
  const role = given as ProcessRole;
  if (runner !== undefined && runner !== (role !== 'api')) {
    throw new Error(`LOOKOUT_ROLE=${role} contradicts LOOKOUT_RUNNER=${env.LOOKOUT_RUNNER}: set only LOOKOUT_ROLE`);
  }
  if (role === 'runner' && !env.DATABASE_URL) {
    throw new Error('LOOKOUT_ROLE=runner needs DATABASE_URL: a runner-only process serves no API, and the embedded database serves one process');
  }
  return role;
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  const v = value.toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(v)) return true;
  if (['off', 'false', '0', 'no'].includes(v)) return false;
  throw new Error(`${name} must be on or off (also true/false, yes/no, 1/0), got "${value}"`);
}

/** A TCP port: 1 to 65535, or 0 for any free port. */
function port(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65_535) throw new Error(`${name} must be a port number from 1 to 65535 (0: any free port), got "${value}"`);
  return n;
}

/** Log levels pino knows, from the most to the least verbose, and `silent`. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** A pino log level (any case), or the fallback when unset. */
export function logLevel(name: string, value: string | undefined, fallback = 'info'): string {
  if (value === undefined || value === '') return fallback;
  const v = value.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(v)) throw new Error(`${name} must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  return v;
}

/**
 * A PostgreSQL connection URL (`postgres://` or `postgresql://` with a host or a socket folder), so a
 * mistyped value fails at start with the variable's name instead of as a DNS error from the driver.
 */
function databaseUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const expected = `${name} must be a PostgreSQL URL such as postgres://user:password@host:5432/database`;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${expected}, got a value that is not a URL (unset it to use the embedded database)`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(`${expected}, got the scheme "${parsed.protocol.replace(/:$/, '')}"`);
  }
  if (!parsed.hostname && !parsed.searchParams.get('host')) throw new Error(`${expected}: the URL names no host`);
  return value;
}

/** What LOOKOUT_TRUST_PROXY may say, as fastify's `trustProxy` takes it. */
export type TrustProxy = boolean | number | string[];

/** Names proxy-addr knows besides addresses and CIDRs. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `false`/`true`, a hop count, or a list of proxy addresses, CIDRs and the names loopback, linklocal, uniquelocal. */
function trustProxy(name: string, value: string | undefined): TrustProxy {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || ['false', 'off', 'no'].includes(v)) return false;
  if (['true', 'on', 'yes'].includes(v)) return true;
  if (/^\d+$/.test(v)) return int(name, v, 0);
  const entries = list(v) ?? [];
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!(PROXY_RANGES.has(entry) || (family !== 0 && bitsOk && extra === undefined))) {
      throw new Error(`${name} must be false, true, a hop count or a list of proxy addresses and CIDRs (or loopback, linklocal, uniquelocal), got "${entry}"`);
    }
  }
  return entries;
}

function list(value: string | undefined): string[] | undefined {
  if (!value) return undefined;
  return value.split(/[\s,]+/).filter(Boolean);
}

function url(name: string, value: string | undefined, fallback: string): string;
function url(name: string, value: string | undefined, fallback?: undefined): string | undefined;
function url(name: string, value: string | undefined, fallback?: string): string | undefined {
  if (!value) return fallback;
  try {
    new URL(value);
  } catch {
    throw new Error(`${name} must be a URL, got "${value}"`);
  }
  return value;
}

/** Where `npm run build:web` writes the console: web/dist beside src/. */
const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../web/dist', import.meta.url));

/** A folder that must exist when set (a path the operator chose); unset: `fallback`, which may not exist yet. */
function folder(name: string, value: string | undefined, fallback: string): string {
  if (value === undefined || value === '') return fallback;
  let isFolder = false;
  try {
    isFolder = statSync(value).isDirectory();
  } catch {
    // Missing or unreadable: reported below like a file.
  }
  if (!isFolder) throw new Error(`${name} must be an existing folder (the output of npm run build:web), got "${value}"`);
  return path.resolve(value);
}

/** A bearer token a client sends as is: 16 to 512 visible ASCII characters (no spaces), or unset. */
function token(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[\x21-\x7e]{16,512}$/.test(value)) throw new Error(`${name} must be 16 to 512 visible ASCII characters without spaces`);
  return value;
}

function seconds(name: string, value: string | undefined, fallback: number[]): number[] {
  if (value === undefined) return fallback;
  return (list(value) ?? []).map((v) => int(name, v, 0));
}

/** Retention of every growing table; raw results must be kept no longer than their hourly roll-ups, and those no longer than the daily ones. */
function retentionSettings(env: NodeJS.ProcessEnv): RetentionSettings {
  const days = (name: string, fallback: number) => int(name, env[name], fallback);
  const d = DEFAULT_RETENTION;
  const settings: RetentionSettings = {
    resultDays: days('LOOKOUT_RESULT_RETENTION_DAYS', d.resultDays),
    hourlyRollupDays: days('LOOKOUT_HOURLY_ROLLUP_RETENTION_DAYS', d.hourlyRollupDays),
    dailyRollupDays: days('LOOKOUT_DAILY_ROLLUP_RETENTION_DAYS', d.dailyRollupDays),
    pingDays: days('LOOKOUT_PING_RETENTION_DAYS', d.pingDays),
    alertDays: days('LOOKOUT_ALERT_RETENTION_DAYS', d.alertDays),
    testSessionDays: days('LOOKOUT_TEST_SESSION_RETENTION_DAYS', d.testSessionDays),
    errorGroupDays: days('LOOKOUT_ERROR_GROUP_RETENTION_DAYS', d.errorGroupDays),
    notificationDays: days('LOOKOUT_NOTIFICATION_RETENTION_DAYS', d.notificationDays),
    deploymentsKept: days('LOOKOUT_DEPLOYMENTS_KEPT', d.deploymentsKept),
    auditDays: days('LOOKOUT_AUDIT_RETENTION_DAYS', d.auditDays),
  };
  // 0 is "for ever". A roll-up tier kept shorter than the finer data before it would leave a gap analytics cannot read.
  const longer = (a: number, b: number) => a === 0 || b === 0 || a <= b;
  if (!longer(settings.resultDays, settings.hourlyRollupDays)) {
    throw new Error('LOOKOUT_HOURLY_ROLLUP_RETENTION_DAYS must be 0 or at least LOOKOUT_RESULT_RETENTION_DAYS');
  }
  if (!longer(settings.hourlyRollupDays, settings.dailyRollupDays)) {
    throw new Error('LOOKOUT_DAILY_ROLLUP_RETENTION_DAYS must be 0 or at least LOOKOUT_HOURLY_ROLLUP_RETENTION_DAYS');
  }
  return settings;
}

/** Reads the configuration from `env`, failing with a clear message on a malformed value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const portNumber = port('PORT', env.PORT, 4000);
  const host = env.HOST || '0.0.0.0';
  const dataDir = env.LOOKOUT_DATA_DIR || './.lookout-data';
  const role = processRole(env);
  return {
    port: portNumber,
    host,
    databaseUrl: databaseUrl('DATABASE_URL', env.DATABASE_URL),
    databasePoolSize: int('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 10),
    dataDir,
    publicUrl: url('LOOKOUT_PUBLIC_URL', env.LOOKOUT_PUBLIC_URL, `http://localhost:${portNumber}`),
    bootstrapAccountId: env.LOOKOUT_ACCOUNT_ID || undefined,
    bootstrapApiKey: env.LOOKOUT_API_KEY || undefined,
    ownerEmail: ownerEmail(env.LOOKOUT_OWNER_EMAIL),
    ownerPassword: ownerPassword(env.LOOKOUT_OWNER_PASSWORD),
    logLevel: logLevel('LOG_LEVEL', env.LOG_LEVEL),
    redisUrl: env.REDIS_URL || undefined,
    role,
    runnerEnabled: role !== 'api',
    browserConcurrency: Math.max(1, int('LOOKOUT_BROWSER_CONCURRENCY', env.LOOKOUT_BROWSER_CONCURRENCY, 2)),
    runnerConcurrency: Math.max(1, int('LOOKOUT_RUNNER_CONCURRENCY', env.LOOKOUT_RUNNER_CONCURRENCY, 100)),
    rateLimitMax: int('LOOKOUT_RATE_LIMIT', env.LOOKOUT_RATE_LIMIT, 600),
    retention: retentionSettings(env),
    bodyLimit: int('LOOKOUT_BODY_LIMIT', env.LOOKOUT_BODY_LIMIT, 5 * 1024 * 1024),
    staticIps: list(env.LOOKOUT_STATIC_IPS),
    staticIpv6s: list(env.LOOKOUT_STATIC_IPV6S),
    smtpUrl: url('SMTP_URL', env.SMTP_URL),
    smtpFrom: env.SMTP_FROM || 'Lookout <lookout@localhost>',
    pagerDutyEventsUrl: url('PAGERDUTY_EVENTS_URL', env.PAGERDUTY_EVENTS_URL, 'https://events.pagerduty.com/v2/enqueue'),
    opsgenieApiUrlUs: url('OPSGENIE_API_URL_US', env.OPSGENIE_API_URL_US, 'https://api.opsgenie.com'),
    opsgenieApiUrlEu: url('OPSGENIE_API_URL_EU', env.OPSGENIE_API_URL_EU, 'https://api.eu.opsgenie.com'),
    smsProviderUrl: url('SMS_PROVIDER_URL', env.SMS_PROVIDER_URL),
    callProviderUrl: url('CALL_PROVIDER_URL', env.CALL_PROVIDER_URL),
    alertRetryDelaysSeconds: seconds('LOOKOUT_ALERT_RETRY_DELAYS', env.LOOKOUT_ALERT_RETRY_DELAYS, [10, 60, 300]),
    alertTimeoutMs: int('LOOKOUT_ALERT_TIMEOUT_MS', env.LOOKOUT_ALERT_TIMEOUT_MS, 10_000),
    allowPrivateTargets: flag('LOOKOUT_ALLOW_PRIVATE_TARGETS', env.LOOKOUT_ALLOW_PRIVATE_TARGETS, false),
    agentic: agenticSettings(env),
    chromiumPath: env.LOOKOUT_CHROMIUM_PATH || '/usr/bin/chromium',
    assetsDir: env.LOOKOUT_ASSETS_DIR || path.join(dataDir, 'assets'),
    consoleDir: folder('LOOKOUT_CONSOLE_DIR', env.LOOKOUT_CONSOLE_DIR, DEFAULT_CONSOLE_DIR),
    dataCenterAgentKey: token('LOOKOUT_DATA_CENTER_AGENT_KEY', env.LOOKOUT_DATA_CENTER_AGENT_KEY),
    graphqlBackendUrl: url('GRAPHQL_BACKEND_URL', env.GRAPHQL_BACKEND_URL),
    graphqlRestBudget: Math.max(1, int('GRAPHQL_REST_BUDGET', env.GRAPHQL_REST_BUDGET, 50)),
    graphqlMaxDepth: int('GRAPHQL_MAX_DEPTH', env.GRAPHQL_MAX_DEPTH, 15),
    graphqlMaxAliases: int('GRAPHQL_MAX_ALIASES', env.GRAPHQL_MAX_ALIASES, 30),
    graphqlMaxCost: int('GRAPHQL_MAX_COST', env.GRAPHQL_MAX_COST, 1000),
    graphqlIntrospection: flag('GRAPHQL_INTROSPECTION', env.GRAPHQL_INTROSPECTION, true),
    graphqlLandingPage: flag('GRAPHQL_LANDING_PAGE', env.GRAPHQL_LANDING_PAGE, false),
    graphqlMaxDocumentBytes: Math.max(1024, int('GRAPHQL_MAX_DOCUMENT_BYTES', env.GRAPHQL_MAX_DOCUMENT_BYTES, 100 * 1024)),
    graphqlMaxVariablesBytes: Math.max(1024, int('GRAPHQL_MAX_VARIABLES_BYTES', env.GRAPHQL_MAX_VARIABLES_BYTES, 1024 * 1024)),
    graphqlIntrospectionCost: int('GRAPHQL_INTROSPECTION_COST', env.GRAPHQL_INTROSPECTION_COST, 50),
    maxErrorIssues: Math.max(1, int('LOOKOUT_MAX_ERROR_ISSUES', env.LOOKOUT_MAX_ERROR_ISSUES, 20)),
    maxJsonDepth: Math.max(4, int('LOOKOUT_MAX_JSON_DEPTH', env.LOOKOUT_MAX_JSON_DEPTH, 32)),
    metricsToken: token('LOOKOUT_METRICS_TOKEN', env.LOOKOUT_METRICS_TOKEN),
    trustProxy: trustProxy('LOOKOUT_TRUST_PROXY', env.LOOKOUT_TRUST_PROXY),
    sandbox: sandboxSettings(env),
    oidc: oidcSettings(env),
  };
}

/** The sandbox settings: every limit a positive number, the mode one of the two. */
export function sandboxSettings(env: NodeJS.ProcessEnv): SandboxSettings {
  const given = (env.LOOKOUT_SANDBOX ?? '').trim().toLowerCase();
  let mode: SandboxSettings['mode'];
  if (given === '' || given === 'bwrap' || given === 'on') mode = 'bwrap';
  else if (given === 'off') mode = 'off';
  else throw new Error(`LOOKOUT_SANDBOX must be bwrap (also on) or off, got "${env.LOOKOUT_SANDBOX}"`);
  const atLeast = (name: string, fallback: number, min = 1) => {
    const n = int(name, env[name], fallback);
    if (n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${env[name]}"`);
    return n;
  };
  return {
    mode,
    forceOff: flag('LOOKOUT_SANDBOX_FORCE_OFF', env.LOOKOUT_SANDBOX_FORCE_OFF, false),
    bwrapPath: env.LOOKOUT_SANDBOX_BWRAP || 'bwrap',
    memoryMb: atLeast('LOOKOUT_SANDBOX_MEMORY_MB', 1024, 64),
    processes: atLeast('LOOKOUT_SANDBOX_PROCESSES', 512, 16),
    outputKb: atLeast('LOOKOUT_SANDBOX_OUTPUT_KB', 8192),
    scratchMb: atLeast('LOOKOUT_SANDBOX_SCRATCH_MB', 256),
    uidBase: atLeast('LOOKOUT_SANDBOX_UID_BASE', 200_000),
  };
}

/** LOOKOUT_OWNER_EMAIL: an address (default owner@localhost). */
function ownerEmail(value: string | undefined): string {
  if (!value) return 'owner@localhost';
  if (!/^[^\s@]+@[^\s@]+$/.test(value) || value.length > 254) throw new Error(`LOOKOUT_OWNER_EMAIL must be an email address, got "${value}"`);
  return value;
}

/** LOOKOUT_OWNER_PASSWORD: a password the sign-in rules accept. */
function ownerPassword(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const [issue] = passwordIssues(value, 'LOOKOUT_OWNER_PASSWORD');
  if (issue) throw new Error(`LOOKOUT_OWNER_PASSWORD ${issue.message}`);
  return value;
}
