/**
 * Payloads of the REST API as the GraphQL layer receives them (codegen maps schema types onto these,
 * so resolvers get REST objects and only fields whose names or shapes differ need a resolver).
 */

/** A `{key, value, locked}` pair (headers, query parameters). */
export interface RestKeyValue {
  key: string;
  value: string;
  locked?: boolean;
}

/** An assertion; `target` may be a number on the wire. */
export interface RestAssertion {
  source: string;
  property?: string | null;
  comparison: string;
  target?: string | number | null;
  regex?: string | null;
}

/** An environment variable; a secret's value reads back as null. */
export interface RestEnvironmentVariable {
  key: string;
  value: string | null;
  locked?: boolean;
  secret?: boolean;
}

/** The request of API, URL, TCP, DNS and ICMP checks (which keys exist depends on the type). */
export interface RestCheckRequest {
  method?: string;
  url?: string;
  followRedirects?: boolean;
  skipSSL?: boolean;
  ipFamily?: string;
  body?: string | null;
  bodyType?: string;
  headers?: RestKeyValue[];
  queryParameters?: RestKeyValue[];
  assertions?: RestAssertion[];
  basicAuth?: { username: string; password?: string } | null;
  hostname?: string;
  port?: number | null;
  data?: string | null;
  query?: string;
  recordType?: string;
  nameServer?: string | null;
  protocol?: string;
  pingCount?: number;
}

/** A heartbeat check's `heartbeat` object. */
export interface RestHeartbeat {
  period: number;
  periodUnit: string;
  grace: number;
  graceUnit: string;
  pingToken?: string;
  pingUrl?: string;
}

/** `retryStrategy` of checks and groups. */
export interface RestRetryStrategy {
  type: string;
  baseBackoffSeconds?: number;
  maxRetries?: number;
  maxDurationSeconds?: number;
  sameRegion?: boolean;
  onlyOn?: string[] | null;
}

/** `alertSettings` of checks and groups (sub-objects read as they are). */
export type RestAlertSettings = Record<string, unknown>;

/** `apiCheckDefaults` of a group. */
export interface RestApiCheckDefaults {
  url?: string;
  headers?: RestKeyValue[];
  queryParameters?: RestKeyValue[];
  assertions?: RestAssertion[];
}

/** A check as `GET /v1/checks/{id}` returns it (every type; type-specific keys optional). */
export interface RestCheck {
  id: string;
  checkType: string;
  name: string;
  activated: boolean;
  muted: boolean;
  doubleCheck?: boolean;
  shouldFail?: boolean;
  locations?: string[] | null;
  privateLocations?: string[] | null;
  tags?: string[] | null;
  alertSettings?: RestAlertSettings | null;
  useGlobalAlertSettings?: boolean;
  groupId?: number | null;
  groupOrder?: number | null;
  runtimeId?: string | null;
  retryStrategy?: RestRetryStrategy | null;
  triggerIncident?: Record<string, unknown> | null;
  runParallel?: boolean;
  description?: string | null;
  frequency?: number;
  frequencyOffset?: number | null;
  alertChannelSubscriptions?: { alertChannelId: number; activated: boolean }[] | null;
  environmentVariables?: RestEnvironmentVariable[] | null;
  request?: RestCheckRequest;
  heartbeat?: RestHeartbeat;
  script?: string | null;
  scriptPath?: string | null;
  dependencies?: { path: string; content: string }[] | null;
  prompt?: string;
  created_at: string;
  updated_at: string | null;
  [key: string]: unknown;
}

/** A check group as `GET /v1/check-groups/{id}` returns it. */
export interface RestCheckGroup {
  id: number;
  name: string;
  activated: boolean;
  muted: boolean;
  tags?: string[] | null;
  locations?: string[] | null;
  privateLocations?: string[] | null;
  concurrency: number;
  apiCheckDefaults?: RestApiCheckDefaults | null;
  runtimeId?: string | null;
  environmentVariables?: RestEnvironmentVariable[] | null;
  alertChannelSubscriptions?: { alertChannelId: number; activated: boolean }[] | null;
  retryStrategy?: RestRetryStrategy | 'FALLBACK' | null;
  doubleCheck?: boolean;
  created_at: string;
  updated_at: string | null;
  [key: string]: unknown;
}

/** `GET /v1/accounts/me`. */
export interface RestAccount {
  id: string;
  name: string;
  runtimeId: string;
  plan: string;
  planDisplayName: string;
  [key: string]: unknown;
}

/** An entry of `GET /v1/locations`. */
export interface RestLocation {
  region: string;
  name: string;
}

/** An entry of `GET /v1/runtimes`. */
export interface RestRuntime {
  name: string;
  stage: string;
  nodeJsVersion?: string | null;
  runtimeEndOfLife?: string | null;
  description?: string | null;
  dependencies: Record<string, unknown>;
}

/** The body of a REST error (conventions.md). */
export interface RestErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /**
   * 400 only: the invalid keys, each key's own message in `issues` and how many more invalid keys were
   * not listed in `omitted`. Older backends send `keys` alone (every invalid key, however many).
   */
  validation?: { source: string; keys: string[]; issues?: { key: string; message: string }[]; omitted?: number };
  attributes?: Record<string, unknown>;
}
