import Type from 'typebox';
import { INCIDENT_SEVERITIES } from '../domain/service-state.js';
import {
  ASSERTION_SOURCES, BODY_TYPES, CHECK_TYPES, DNS_PROTOCOLS, DNS_RECORD_TYPES, HTTP_METHODS, IP_FAMILIES,
  TIME_UNITS, type CheckType,
} from '../domain/catalog.js';
import {
  AlertChannelSubscriptionInput, AlertSettings, Assertion, EnvironmentVariables, KeyValue, LocationList,
  Nullable, PrivateLocationList, RetryStrategy, RuntimeIdField, Tags,
  Name,
  IntId, nullWhereOptional, toUpdateSchema,
} from './common.js';
import { GrpcRequest } from './grpc-check-schemas.js';

const assertionsFor = (type: CheckType) =>
  Type.Array(
    Type.Object({ ...Assertion.properties, source: Type.Enum([...(ASSERTION_SOURCES[type] ?? [])]) }, { additionalProperties: false }),
    { maxItems: 100 },
  );

/** Basic auth; a part left out is "" (clients that drop empty strings leave out an empty password). */
export const BasicAuth = Nullable(
  Type.Object(
    { username: Type.Optional(Type.String({ maxLength: 1024 })), password: Type.Optional(Type.String({ maxLength: 1024 })) },
    { additionalProperties: false },
  ),
);

export const ApiRequest = Type.Object(
  {
    method: Type.Optional(Type.Enum([...HTTP_METHODS])),
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    followRedirects: Type.Optional(Type.Boolean()),
    skipSSL: Type.Optional(Type.Boolean()),
    ipFamily: Type.Optional(Type.Enum([...IP_FAMILIES])),
    body: Type.Optional(Nullable(Type.String({ maxLength: 1_000_000 }))),
    bodyType: Type.Optional(Type.Enum([...BODY_TYPES])),
    headers: Type.Optional(Type.Array(KeyValue, { maxItems: 100 })),
    queryParameters: Type.Optional(Type.Array(KeyValue, { maxItems: 100 })),
    assertions: Type.Optional(assertionsFor('API')),
    basicAuth: Type.Optional(BasicAuth),
  },
  { additionalProperties: false },
);

export const UrlRequest = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    followRedirects: Type.Optional(Type.Boolean()),
    skipSSL: Type.Optional(Type.Boolean()),
    ipFamily: Type.Optional(Type.Enum([...IP_FAMILIES])),
    assertions: Type.Optional(assertionsFor('URL')),
  },
  { additionalProperties: false },
);

export const TcpRequest = Type.Object(
  {
    hostname: Type.String({ minLength: 1, maxLength: 1024 }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    data: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
    ipFamily: Type.Optional(Type.Enum([...IP_FAMILIES])),
    assertions: Type.Optional(assertionsFor('TCP')),
  },
  { additionalProperties: false },
);

export const DnsRequest = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 253 }),
    recordType: Type.Optional(Type.Enum([...DNS_RECORD_TYPES])),
    nameServer: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
    port: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 65535 }))),
    protocol: Type.Optional(Type.Enum([...DNS_PROTOCOLS])),
    assertions: Type.Optional(assertionsFor('DNS')),
  },
  { additionalProperties: false },
);

export const IcmpRequest = Type.Object(
  {
    hostname: Type.String({ minLength: 1, maxLength: 1024 }),
    ipFamily: Type.Optional(Type.Enum([...IP_FAMILIES])),
    pingCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    assertions: Type.Optional(assertionsFor('ICMP')),
  },
  { additionalProperties: false },
);

const baselineSeverity = Type.Optional(Nullable(Type.Enum(['fail', 'degrade', 'ignore'])));
const baselineRule = (value?: Type.TSchema) =>
  Type.Optional(Nullable(Type.Object({ ...(value ? { value: Type.Optional(Nullable(value)) } : {}), severity: baselineSeverity }, { additionalProperties: false })));
const tlsVersion = Type.Enum(['TLS1.0', 'TLS1.1', 'TLS1.2', 'TLS1.3']);
const keyBits = Type.Integer({ minimum: 512, maximum: 16384 });

/** The security baseline of an SSL monitor (the CLI's `securityBaseline`); omitted: the default baseline. */
export const SslSecurityBaseline = Type.Object(
  {
    enabled: Type.Optional(Nullable(Type.Boolean())),
    minTLSVersion: baselineRule(tlsVersion),
    minKeySizeBits: baselineRule(keyBits),
    weakSignatureAlgorithm: baselineRule(),
    weakCipherSuite: baselineRule(),
    knownBadCA: baselineRule(),
    recommendedTLSVersion: baselineRule(tlsVersion),
    recommendedKeySizeBits: baselineRule(keyBits),
    ocspMustStapleRespected: baselineRule(),
    sctPresent: baselineRule(),
  },
  { additionalProperties: false },
);

/** The request of an SSL monitor, as the CLI's SslMonitor sends it (the target is in `sslConfig`). */
export const SslRequest = Type.Object(
  {
    sslConfig: Type.Object(
      {
        hostname: Type.String({ minLength: 1, maxLength: 253 }),
        port: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 65535 }))),
        ipFamily: Type.Optional(Type.Enum([...IP_FAMILIES])),
        serverName: Type.Optional(Nullable(Type.String({ maxLength: 253 }))),
        skipChainValidation: Type.Optional(Nullable(Type.Boolean())),
        handshakeTimeoutMs: Type.Optional(Nullable(Type.Integer({ minimum: 1000, maximum: 30000 }))),
        alertDaysBeforeExpiry: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 365 }))),
        clientCertificateMode: Type.Optional(Nullable(Type.Enum(['auto', 'explicit']))),
        securityBaseline: Type.Optional(Nullable(SslSecurityBaseline)),
      },
      { additionalProperties: false },
    ),
    sslClientCertificateId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    assertions: Type.Optional(assertionsFor('SSL')),
  },
  { additionalProperties: false },
);

/** The request of a TRACEROUTE monitor, as the CLI's TracerouteMonitor sends it. */
export const TracerouteRequest = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 253 }),
    // SCTP (which the CLI also names) is not offered by the traceroute that runs the probes.
    protocol: Type.Optional(Type.Enum(['TCP', 'UDP', 'ICMP'])),
    port: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 65535 }))),
    ipFamily: Type.Optional(Type.Enum([...IP_FAMILIES])),
    maxHops: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
    maxUnknownHops: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })),
    ptrLookup: Type.Optional(Type.Boolean()),
    timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })),
    assertions: Type.Optional(assertionsFor('TRACEROUTE')),
  },
  { additionalProperties: false },
);

export const Heartbeat = Type.Object(
  {
    period: Type.Integer({ minimum: 1 }),
    periodUnit: Type.Enum([...TIME_UNITS]),
    // 0 when left out: clients that drop zero values leave it out.
    grace: Type.Optional(Type.Integer({ minimum: 0 })),
    graceUnit: Type.Enum([...TIME_UNITS]),
    // Server-assigned; clients that read a check and send it back include them.
    pingToken: Type.Optional(Type.String()),
    pingUrl: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const Dependency = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 1024 }), content: Type.Optional(Type.String({ maxLength: 1_000_000 })) },
  { additionalProperties: false },
);

/** Fields every check type accepts. */
const common = {
  name: Name,
  activated: Type.Optional(Type.Boolean()),
  muted: Type.Optional(Type.Boolean()),
  doubleCheck: Type.Optional(Type.Boolean()),
  shouldFail: Type.Optional(Type.Boolean()),
  locations: Type.Optional(LocationList),
  privateLocations: Type.Optional(PrivateLocationList),
  tags: Type.Optional(Tags),
  alertSettings: Type.Optional(Nullable(AlertSettings)),
  useGlobalAlertSettings: Type.Optional(Type.Boolean()),
  groupId: Type.Optional(Nullable(IntId)),
  groupOrder: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  runtimeId: Type.Optional(RuntimeIdField),
  alertChannelSubscriptions: Type.Optional(Nullable(Type.Array(AlertChannelSubscriptionInput, { maxItems: 100 }))),
  retryStrategy: Type.Optional(Nullable(RetryStrategy)),
  triggerIncident: Type.Optional(
    Nullable(
      Type.Object(
        {
          serviceId: Type.String({ minLength: 1 }),
          name: Type.String({ minLength: 1, maxLength: 255 }),
          description: Type.Optional(Type.String({ maxLength: 2000 })),
          notifySubscribers: Type.Optional(Type.Boolean()),
          severity: Type.Optional(Nullable(Type.Enum([...INCIDENT_SEVERITIES]))),
        },
        { additionalProperties: false },
      ),
    ),
  ),
  runParallel: Type.Optional(Type.Boolean()),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  frequency: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440 })),
  frequencyOffset: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  environmentVariables: Type.Optional(EnvironmentVariables),
};

const responseTimes = {
  degradedResponseTime: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  maxResponseTime: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
};

const scripted = {
  script: Nullable(Type.String({ maxLength: 1_000_000 })),
  scriptPath: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  dependencies: Type.Optional(Nullable(Type.Array(Dependency, { maxItems: 100 }))),
  sslCheckDomain: Type.Optional(Nullable(Type.String({ maxLength: 253 }))),
};

/**
 * Browser settings of BROWSER and MULTI_STEP checks (the CLI's `playwrightConfig`: `use`, `expect`,
 * `timeout`), merged by the CLI from the project, the group and the check. Open here so that the
 * check rules name each key the runner cannot apply (playwrightConfigIssues) instead of dropping it.
 */
const PlaywrightConfigField = Type.Optional(Nullable(Type.Object({}, {
  additionalProperties: true,
  description: 'use (baseURL, viewport, locale, timezoneId, userAgent, extraHTTPHeaders, httpCredentials, ignoreHTTPSErrors, colorScheme, '
    + 'geolocation, permissions, actionTimeout, navigationTimeout, …), expect.timeout and timeout (ms); keys the runner cannot apply are refused',
})));

/** The project files API setup and teardown scripts import, with the entries' own paths. */
const apiScriptFiles = {
  setupScriptPath: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  setupScriptDependencies: Type.Optional(Nullable(Type.Array(Dependency, { maxItems: 100 }))),
  tearDownScriptPath: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  tearDownScriptDependencies: Type.Optional(Nullable(Type.Array(Dependency, { maxItems: 100 }))),
};

const setupTeardown = {
  setupSnippetId: Type.Optional(Nullable(IntId)),
  tearDownSnippetId: Type.Optional(Nullable(IntId)),
  localSetupScript: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
  localTearDownScript: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
};

/**
 * What the checkly CLI sends for a Playwright check suite (`PlaywrightCheck`): the key of the
 * project archive it uploaded (`/next/checkly-storage/upload-code-bundle`) and how to run it.
 */
const playwrightSuite = {
  codeBundlePath: Type.String({ pattern: '^code-bundle/[0-9a-f-]{36}$', maxLength: 64, description: 'Key of the uploaded project archive (tar.gz)' }),
  testCommand: Type.Optional(Nullable(Type.String({ maxLength: 4096, description: 'A `playwright test` command line; its Playwright arguments are honoured' }))),
  installCommand: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: 'Accepted and not run: packages resolve from the runtime' }))),
  workingDir: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  browsers: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 }))),
  playwrightVersion: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  cacheHash: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
  engine: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  engineVersion: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
};

/** Every property optional, unknown properties still stripped (Type.Partial drops that flag). */
export function partialObject(schema: Type.TObject): Type.TObject {
  const props = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => [k, Type.IsOptional(v) ? v : Type.Optional(v)]),
  );
  return Type.Object(props, { additionalProperties: false });
}

const obj = (props: Type.TProperties) => Type.Object(props, { additionalProperties: false });

/** `agentRuntime` of agentic checks as CLI 8 sends it; skills are refused by the check rules (agenticCheckIssues), not stored. */
const AgentRuntime = Type.Object(
  { skills: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 50 }))) },
  { additionalProperties: false },
);

/**
 * The create body of each check type; every optional key also takes null ("not given": its
 * default), at every depth. Update bodies are the same with every key optional (CHECK_UPDATE_SCHEMAS).
 */
const CREATE_BODIES: Record<CheckType, Type.TObject> = {
  // `script` is echoed by the real API on API checks too: stored and echoed, not run.
  API: obj({ ...common, ...responseTimes, ...setupTeardown, ...apiScriptFiles, request: ApiRequest, sslCheckDomain: scripted.sslCheckDomain, script: Type.Optional(scripted.script) }),
  URL: obj({ ...common, ...responseTimes, request: UrlRequest, sslCheckDomain: scripted.sslCheckDomain }),
  TCP: obj({ ...common, ...responseTimes, request: TcpRequest }),
  DNS: obj({ ...common, ...responseTimes, request: DnsRequest }),
  ICMP: obj({ ...common, ...responseTimes, request: IcmpRequest }),
  HEARTBEAT: obj({ ...common, heartbeat: Heartbeat }),
  BROWSER: obj({ ...common, ...scripted, playwrightConfig: PlaywrightConfigField }),
  MULTI_STEP: obj({ ...common, ...scripted, playwrightConfig: PlaywrightConfigField }),
  PLAYWRIGHT: obj({ ...common, ...scripted, script: Type.Optional(scripted.script), ...playwrightSuite }),
  AGENTIC: obj({ ...common, prompt: Type.String({ minLength: 1, maxLength: 10_000 }), agentRuntime: Type.Optional(Nullable(AgentRuntime)) }),
  SSL: obj({ ...common, ...responseTimes, request: SslRequest }),
  TRACEROUTE: obj({ ...common, ...responseTimes, request: TracerouteRequest }),
  GRPC: obj({ ...common, ...responseTimes, request: GrpcRequest }),
};
export const CHECK_CREATE_SCHEMAS = Object.fromEntries(
  CHECK_TYPES.map((t) => [t, nullWhereOptional(CREATE_BODIES[t])]),
) as Record<CheckType, Type.TObject>;

/**
 * Update bodies: every key optional and nullable at every depth (toUpdateSchema), because an
 * update merges into the stored check by the update semantics (null or absent: left as stored);
 * the merged result is then held to the create schema.
 */
export const CHECK_UPDATE_SCHEMAS = Object.fromEntries(
  CHECK_TYPES.map((t) => [t, toUpdateSchema(CHECK_CREATE_SCHEMAS[t])]),
) as Record<CheckType, Type.TObject>;

/**
 * Body of the generic `POST /v1/checks` / `PUT /v1/checks/{id}`: only `checkType` is read here;
 * the rest is validated against that type's schema by the handler.
 */
export const GenericCheckBody = Type.Object({
  checkType: Type.Optional(Nullable(Type.Enum([...CHECK_TYPES]))),
});

/** `fields=` of the check reads: top-level fields to answer (comma-separated or repeated). */
export const CheckFieldsParam = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 100,
  description: 'Top-level fields of each check to return (comma-separated or repeated; id is always returned); an unknown name is a 400',
});

export const CheckListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    tag: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 50 })),
    checkType: Type.Optional(Type.Enum([...CHECK_TYPES])),
    groupId: Type.Optional(IntId),
    activated: Type.Optional(Type.Boolean()),
    ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100 })),
    apiCheckUrlFilterPattern: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);
