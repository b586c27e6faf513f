import type { ApiCheckResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import { checkTypeName } from '../check-type-name.js';
import { toGlobalId } from '../global-id.js';
import type { RestCheck } from '../rest-types.js';

/** Fields every check type resolves the same way: names or shapes that differ from the REST payload. */
const commonFields = {
  id: (c) => toGlobalId('Check', c.id),
  checkId: (c) => c.id,
  checkType: (c) => c.checkType as never,
  doubleCheck: (c) => c.doubleCheck ?? false,
  shouldFail: (c) => c.shouldFail ?? false,
  locations: (c) => c.locations ?? [],
  privateLocations: (c) => c.privateLocations ?? [],
  tags: (c) => c.tags ?? [],
  useGlobalAlertSettings: (c) => c.useGlobalAlertSettings ?? true,
  runParallel: (c) => c.runParallel ?? false,
  frequency: (c) => c.frequency ?? 10,
  alertChannelSubscriptions: (c) => c.alertChannelSubscriptions ?? [],
  environmentVariables: (c) => c.environmentVariables ?? [],
  // The check's id rides along: TriggerIncident.openIncident finds the incident this check opened.
  triggerIncident: (c) => (c.triggerIncident ? { ...c.triggerIncident, checkId: c.id } as never : null),
  // Batched: every check of an operation asks the same loader, which makes one `ids=` call.
  group: (c, _args, ctx) => (c.groupId ? ctx.loaders.groupById.load(c.groupId) : null),
  createdAt: (c) => c.created_at,
  updatedAt: (c) => c.updated_at,
} satisfies ApiCheckResolvers;

const scriptedFields = {
  ...commonFields,
  dependencies: (c: RestCheck) => c.dependencies ?? [],
};

const assertions = (r: { assertions?: unknown[] }) => (r.assertions ?? []) as never[];

/** Resolvers of the Check interface, its ten types and their typed parts. */
export const checkResolvers: Resolvers = {
  Check: { __resolveType: (c) => checkTypeName(c.checkType) },
  ApiCheck: { ...commonFields, request: (c) => c.request ?? {} },
  UrlCheck: { ...commonFields, request: (c) => c.request ?? {} },
  TcpCheck: { ...commonFields, request: (c) => c.request ?? {} },
  DnsCheck: { ...commonFields, request: (c) => c.request ?? {} },
  IcmpCheck: { ...commonFields, request: (c) => c.request ?? {} },
  HeartbeatCheck: { ...commonFields },
  BrowserCheck: scriptedFields,
  MultiStepCheck: scriptedFields,
  PlaywrightCheck: scriptedFields,
  AgenticCheck: { ...commonFields, prompt: (c) => c.prompt ?? '' },
  SslCheck: { ...commonFields, request: (c) => c.request ?? {} },
  TracerouteCheck: { ...commonFields, request: (c) => c.request ?? {} },
  ApiRequest: {
    headers: (r) => r.headers ?? [],
    queryParameters: (r) => r.queryParameters ?? [],
    assertions,
    followRedirects: (r) => r.followRedirects ?? true,
    skipSSL: (r) => r.skipSSL ?? false,
  },
  UrlRequest: { assertions, followRedirects: (r) => r.followRedirects ?? true, skipSSL: (r) => r.skipSSL ?? false },
  TcpRequest: { assertions },
  DnsRequest: { assertions, recordType: (r) => (r.recordType ?? 'A') as never, protocol: (r) => (r.protocol ?? 'UDP') as never },
  IcmpRequest: { assertions, pingCount: (r) => r.pingCount ?? 10 },
  SslRequest: { assertions },
  TracerouteRequest: { assertions },
  KeyValue: { locked: (kv) => kv.locked ?? false },
  // A numeric target is written as text: the schema keeps one type for every source.
  Assertion: { target: (a) => (a.target === undefined || a.target === null ? null : String(a.target)) },
  EnvironmentVariable: { locked: (v) => v.locked ?? false, secret: (v) => v.secret ?? false, value: (v) => (v.secret ? null : v.value) },
};
