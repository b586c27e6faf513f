import { CHECK_TYPES, DEFAULT_ALERT_SETTINGS, DEFAULT_FREQUENCY, RESPONSE_TIME_LIMITS, type CheckType } from './catalog.js';
import { GRPC_TIMEOUT_SECONDS } from './grpc-catalog.js';
import { list, object, value, type Shape } from './merge-update.js';

/** `{key, value, locked}` entries of request headers and query parameters. */
export const KEY_VALUE_SHAPE: Shape = { key: value(), value: value(''), locked: value(false) };

/** Parts of an assertion that may be left unsaid: null, and "" stored as null (so both read back alike). */
const NONE = value(null, { same: [''] });

/** An assertion: `property`, `target` and `regex` are null unless given. */
export const ASSERTION_SHAPE: Shape = { source: value(), comparison: value(), property: NONE, target: NONE, regex: NONE };

/** Environment variables of checks and groups: merged by `key`, so a secret sent back without its value keeps it. */
export const ENVIRONMENT_VARIABLES = list({ key: value(), value: value(''), locked: value(false), secret: value(false) }, { itemKey: 'key' });

/** Basic auth of API requests and group API defaults: null unless given. */
export const BASIC_AUTH = object({ username: value(''), password: value('') }, null);

/** Alert settings of checks and groups (defaults of conventions.md); `sslCertificates` only when given. */
export const ALERT_SETTINGS_SHAPE: Shape = {
  escalationType: value(DEFAULT_ALERT_SETTINGS.escalationType),
  runBasedEscalation: object({ failedRunThreshold: value(DEFAULT_ALERT_SETTINGS.runBasedEscalation.failedRunThreshold) }),
  timeBasedEscalation: object({ minutesFailingThreshold: value(DEFAULT_ALERT_SETTINGS.timeBasedEscalation.minutesFailingThreshold) }),
  reminders: object({ amount: value(DEFAULT_ALERT_SETTINGS.reminders.amount), interval: value(DEFAULT_ALERT_SETTINGS.reminders.interval) }),
  parallelRunFailureThreshold: object({
    enabled: value(DEFAULT_ALERT_SETTINGS.parallelRunFailureThreshold.enabled),
    percentage: value(DEFAULT_ALERT_SETTINGS.parallelRunFailureThreshold.percentage),
  }),
  sslCertificates: object({ enabled: value(false), alertThreshold: value(30) }, 'absent'),
};

/** A retry strategy; `type` has no default (the schema requires it). */
export const RETRY_STRATEGY_SHAPE: Shape = {
  type: value(), baseBackoffSeconds: value(60), maxRetries: value(2), maxDurationSeconds: value(600), sameRegion: value(true), onlyOn: value(null),
};

const ASSERTIONS = list(ASSERTION_SHAPE);

const REQUEST_SHAPES: Partial<Record<CheckType, Shape>> = {
  API: {
    method: value('GET'), url: value(), followRedirects: value(true), skipSSL: value(false), ipFamily: value('IPv4'), body: value(''),
    bodyType: value('NONE'), headers: list(KEY_VALUE_SHAPE), queryParameters: list(KEY_VALUE_SHAPE), assertions: ASSERTIONS, basicAuth: BASIC_AUTH,
  },
  URL: { url: value(), followRedirects: value(true), skipSSL: value(false), ipFamily: value('IPv4'), assertions: ASSERTIONS },
  TCP: { hostname: value(), port: value(), data: value(''), ipFamily: value('IPv4'), assertions: ASSERTIONS },
  // nameServer null: the resolver configured on the machine that runs the check.
  DNS: { query: value(), recordType: value('A'), nameServer: value(null), port: value(53), protocol: value('UDP'), assertions: ASSERTIONS },
  ICMP: { hostname: value(), ipFamily: value('IPv4'), pingCount: value(10), assertions: ASSERTIONS },
  SSL: {
    sslConfig: object({
      hostname: value(), port: value(443), ipFamily: value('IPv4'), serverName: value(null), skipChainValidation: value(false),
      handshakeTimeoutMs: value(10000), alertDaysBeforeExpiry: value(20), clientCertificateMode: value(null), securityBaseline: value(null),
    }),
    sslClientCertificateId: value(null),
    assertions: ASSERTIONS,
  },
  // port null: 443 for TCP, 33434 for UDP (the CLI's defaults); ICMP has none.
  TRACEROUTE: {
    url: value(), protocol: value('TCP'), port: value(null), ipFamily: value('IPv4'), maxHops: value(30), maxUnknownHops: value(15),
    ptrLookup: value(true), timeout: value(10), assertions: ASSERTIONS,
  },
  GRPC: {
    url: value(), port: value(), ipFamily: value('IPv4'), skipSSL: value(false), timeout: value(GRPC_TIMEOUT_SECONDS.default),
    grpcConfig: object({
      mode: value('BEHAVIOR'), tls: value(true), metadata: list({ key: value(), value: value('') }),
      serviceDefinition: value(null), method: value(null), protoContent: value(null), message: value(null), service: value(null),
    }),
    assertions: ASSERTIONS,
  },
};

/** Fields of every check type. `locations` has a default that depends on placement (see withCheckDefaults). */
const COMMON: Shape = {
  activated: value(true),
  muted: value(false),
  doubleCheck: value(true),
  shouldFail: value(false),
  locations: list(),
  privateLocations: list(),
  tags: list(),
  alertSettings: object(ALERT_SETTINGS_SHAPE),
  useGlobalAlertSettings: value(true),
  // The exceptions to "null leaves as stored": null is their only way to say "none", and a read
  // shows null only when it is stored, so a read sent back still changes nothing.
  // conventions.md: `groupId: null` on update removes a check from its group.
  groupId: value(null, { nullClears: true }),
  groupOrder: value(null),
  runtimeId: value(null),
  // conventions.md: null means no retries.
  retryStrategy: object(RETRY_STRATEGY_SHAPE, null, { nullClears: true }),
  triggerIncident: object({ serviceId: value(), name: value(), description: value(''), notifySubscribers: value(false), severity: value(null) }, null),
  runParallel: value(false),
  description: value(null),
  frequency: value(DEFAULT_FREQUENCY),
  frequencyOffset: value(null),
  environmentVariables: ENVIRONMENT_VARIABLES,
};

/** Setup and teardown of API checks and groups; null detaches a snippet (an id cannot be cleared otherwise). */
export const SETUP_TEARDOWN: Shape = {
  setupSnippetId: value(null, { nullClears: true }), tearDownSnippetId: value(null, { nullClears: true }),
  localSetupScript: value(null), localTearDownScript: value(null),
};

/** The project files an API check's setup and teardown scripts import (as the CLI sends them). */
const API_SCRIPT_FILES: Shape = {
  setupScriptPath: value(null), setupScriptDependencies: list({ path: value(), content: value('') }, { default: null }),
  tearDownScriptPath: value(null), tearDownScriptDependencies: list({ path: value(), content: value('') }, { default: null }),
};

const SCRIPTED: Shape = {
  script: value(null), scriptPath: value(null), dependencies: list({ path: value(), content: value('') }, { default: null }), sslCheckDomain: value(null),
};

/** A Playwright check suite's bundle and how it runs (as the checkly CLI sends them). */
const PLAYWRIGHT_SUITE: Shape = {
  codeBundlePath: value(), testCommand: value(null), installCommand: value(null), workingDir: value(null), browsers: value(null),
  playwrightVersion: value(null), cacheHash: value(null), engine: value(null), engineVersion: value(null),
};

function shapeOf(type: CheckType): Shape {
  const limits = RESPONSE_TIME_LIMITS[type];
  const request = REQUEST_SHAPES[type];
  return {
    ...COMMON,
    ...(limits ? { degradedResponseTime: value(limits.degraded), maxResponseTime: value(limits.max) } : {}),
    ...(request ? { request: object(request, 'absent') } : {}),
    ...(type === 'API' ? { ...SETUP_TEARDOWN, script: value(null) } : {}),
    ...(type === 'API' || type === 'URL' ? { sslCheckDomain: value(null) } : {}),
    ...(type === 'BROWSER' || type === 'MULTI_STEP' || type === 'PLAYWRIGHT' ? SCRIPTED : {}),
    ...(type === 'BROWSER' || type === 'MULTI_STEP' ? { playwrightConfig: value(null) } : {}),
    ...(type === 'API' ? API_SCRIPT_FILES : {}),
    ...(type === 'HEARTBEAT'
      ? { heartbeat: object({ period: value(), periodUnit: value(), grace: value(0), graceUnit: value(), pingToken: value(), pingUrl: value() }, 'absent') }
      : {}),
    ...(type === 'AGENTIC' ? { prompt: value() } : {}),
    ...(type === 'PLAYWRIGHT' ? PLAYWRIGHT_SUITE : {}),
  };
}

/** The fields of each check type as stored and echoed, with their defaults and update rules. */
export const CHECK_SHAPES: Readonly<Record<CheckType, Shape>> = Object.fromEntries(
  CHECK_TYPES.map((t) => [t, shapeOf(t)]),
) as Record<CheckType, Shape>;
