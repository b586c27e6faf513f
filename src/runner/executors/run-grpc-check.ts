import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import type { AssertionOutcome, ProbeError, ProbeResult } from '../../domain/check-result.js';
import { evaluateAssertions, type Assertion } from '../../domain/evaluate-assertion.js';
import {
  GRPC_HEALTH_STATUSES, GRPC_STATUS_NAMES, GRPC_TIMEOUT_SECONDS, parseGrpcMethod, type GrpcMethodName, type GrpcMode,
} from '../../domain/grpc-catalog.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { healthDefinition, loadProtoText } from '../grpc/load-grpc-definitions.js';
import { methodsOf, resolveByReflection } from '../grpc/resolve-by-reflection.js';
import { interpolateVariables, variableValues } from '../interpolate-variables.js';
import { finishProbe, guardedExecutor } from './finish-probe.js';
import { CANCELLED_CODE, hostPort, toProbeError } from './network-error.js';

const HEALTH_METHOD: GrpcMethodName = { service: 'grpc.health.v1.Health', method: 'Check' };
/** A response larger than this fails the call (RESOURCE_EXHAUSTED) rather than filling the runner's memory. */
export const GRPC_MAX_RESPONSE_BYTES = 1024 * 1024;
/** The response message is kept in the result up to this many characters (assertions see all of it). */
export const GRPC_RESPONSE_KEPT_CHARS = 16 * 1024;
const UNAVAILABLE = 14;
const DEADLINE_EXCEEDED = 4;

type Method = grpc.MethodDefinition<unknown, unknown>;

/** A check's request with its variables filled in. */
interface Plan {
  mode: GrpcMode;
  host: string;
  port: number;
  family: 4 | 6;
  tls: boolean;
  skipSSL: boolean;
  metadata: { key: string; value: string }[];
  method: GrpcMethodName | null;
  protoContent: string | null;
  message: string;
  service: string;
  timeoutMs: number;
  assertions: Assertion[];
}

/** What `grpcCheckResult.response` shows, as the checkly CLI prints it. */
interface GrpcResponse {
  grpcMode: GrpcMode;
  host: string;
  resolvedIp: string | null;
  port: number;
  grpcMethod: string | null;
  responseMessage: string | null;
  grpcStatusCode: number | null;
  grpcStatusMessage: string | null;
  healthStatus: number | null;
  healthStatusLabel: string | null;
  metadata: { key: string; value: string }[];
  discoveredMethods: string[] | null;
  timingPhases: { dns: number | null; connect: number | null; total: number };
}

/** A failure before the call answered: no status to assert on. */
class SetupFailure extends Error {
  constructor(readonly error: ProbeError, readonly networkError = false) {
    super(error.message);
  }
}

/**
 * The GRPC executor (the checkly CLI's `GrpcMonitor`): resolves `request.url` (over `ipFamily`),
 * connects to it on `port` — with TLS and the runner's trust store (Node's, so
 * `NODE_EXTRA_CA_CERTS` adds a private CA) unless `grpcConfig.tls` is false, any certificate
 * when `skipSSL` — and makes one unary call with `grpcConfig.metadata`, all within
 * `request.timeout` seconds (the gRPC deadline):
 * - HEALTH: `grpc.health.v1.Health/Check` for `grpcConfig.service` ('' is the whole server);
 * - BEHAVIOR: `grpcConfig.method` with `message` (JSON; snake_case keys are taken as their
 *   lowerCamelCase JSON names), its types from the server's reflection (v1, else v1alpha) or
 *   from `protoContent` (PROTO_FILE).
 * A failed call is a failed result: a status other than OK is an error `GRPC_<STATUS>` unless a
 * GRPC_STATUS_CODE assertion judges it; in HEALTH mode a status other than SERVING is an error
 * `GRPC_NOT_SERVING` unless a GRPC_HEALTHCHECK_STATUS assertion judges it. What stops the call
 * from being made (name resolution, reflection, the proto, the method, the message) is the
 * result's `requestError`, and no assertion is evaluated. The response time is the whole
 * exchange: resolution, connection, reflection and call. details (the result's
 * `grpcCheckResult`): `{grpcStatusCode, grpcStatusMessage, healthStatus, healthStatusLabel,
 * discoveredMethods, requestError, timingPhases, response}`.
 */
export const runGrpcCheck: Executor = guardedExecutor(probe, 'GRPC_PROBE_FAILED', 'gRPC check could not run');

async function probe(check: RunnableCheck, ctx: RunContext, startedAt: Date): Promise<ProbeResult> {
  const plan = toPlan(check.data.request ?? {}, ctx);
  const t0 = performance.now();
  const deadline = new Date(Date.now() + plan.timeoutMs);
  const methodName = plan.mode === 'HEALTH' ? HEALTH_METHOD : plan.method;
  const response: GrpcResponse = {
    grpcMode: plan.mode, host: plan.host, resolvedIp: null, port: plan.port,
    grpcMethod: methodName ? `${methodName.service}/${methodName.method}` : null,
    responseMessage: null, grpcStatusCode: null, grpcStatusMessage: null, healthStatus: null, healthStatusLabel: null,
    metadata: [], discoveredMethods: null, timingPhases: { dns: null, connect: null, total: 0 },
  };
  const finish = (errors: ProbeError[], assertions: AssertionOutcome[], networkError: boolean, requestError: string | null) => {
    response.timingPhases.total ||= Math.round(performance.now() - t0);
    return finishProbe(check, ctx, {
      startedAt, responseTime: response.timingPhases.total, errors, assertions, networkError,
      details: {
        grpcStatusCode: response.grpcStatusCode, grpcStatusMessage: response.grpcStatusMessage,
        healthStatus: response.healthStatus, healthStatusLabel: response.healthStatusLabel,
        discoveredMethods: response.discoveredMethods, requestError, timingPhases: response.timingPhases, response,
      },
    });
  };
  if (!methodName) {
    return finish([{ code: 'INVALID_REQUEST', message: 'gRPC check in BEHAVIOR mode needs request.grpcConfig.method' }], [], false, 'no method to call');
  }

  let client: grpc.Client | undefined;
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(new SetupFailure({ code: CANCELLED_CODE, message: `gRPC check of ${hostPort(plan.host, plan.port)} was cancelled` }));
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    const address = await Promise.race([resolveHost(plan, deadline), aborted]);
    response.resolvedIp = address;
    response.timingPhases.dns = Math.round(performance.now() - t0);
    client = new grpc.Client(target(address, plan.port), credentials(plan), channelOptions(plan));
    watchConnect(client.getChannel(), deadline, () => { response.timingPhases.connect = Math.round(performance.now() - t0); });
    const metadata = toMetadata(plan.metadata);
    const { method, argument } = await Promise.race([prepareCall(client, plan, methodName, metadata, deadline, response), aborted]);
    const outcome = await Promise.race([unaryCall(client, method, argument, metadata, deadline), aborted]);
    response.timingPhases.total = Math.round(performance.now() - t0);
    return finish(...judge(plan, outcome, response), null);
  } catch (err) {
    const failure = err instanceof SetupFailure ? err : statusFailure(err, response, plan);
    return finish([failure.error], [], failure.networkError, failure.error.message);
  } finally {
    client?.close();
  }
}

function toPlan(request: Record<string, any>, ctx: RunContext): Plan {
  const values = variableValues(ctx.variables);
  const fill = (v: unknown) => (typeof v === 'string' ? interpolateVariables(v, values) : '');
  const config: Record<string, any> = request.grpcConfig ?? {};
  const mode: GrpcMode = config.mode === 'HEALTH' ? 'HEALTH' : 'BEHAVIOR';
  const seconds = Number.isInteger(request.timeout) ? request.timeout : GRPC_TIMEOUT_SECONDS.default;
  return {
    mode,
    host: fill(request.url).trim(),
    port: Number(request.port),
    family: request.ipFamily === 'IPv6' ? 6 : 4,
    tls: config.tls !== false,
    skipSSL: request.skipSSL === true,
    metadata: (Array.isArray(config.metadata) ? config.metadata : []).map((m: { key: string; value?: string | null }) => ({ key: m.key.toLowerCase(), value: fill(m.value ?? '') })),
    method: mode === 'BEHAVIOR' && typeof config.method === 'string' ? parseGrpcMethod(fill(config.method)) : null,
    protoContent: config.serviceDefinition === 'PROTO_FILE' && typeof config.protoContent === 'string' ? config.protoContent : null,
    message: fill(config.message).trim(),
    service: fill(config.service),
    timeoutMs: Math.min(seconds * 1000, ctx.timeoutMs),
    assertions: Array.isArray(request.assertions) ? request.assertions : [],
  };
}

async function resolveHost(plan: Plan, deadline: Date): Promise<string> {
  if (net.isIP(plan.host)) return plan.host;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SetupFailure({ code: 'GRPC_DEADLINE_EXCEEDED', message: `resolving ${plan.host} took longer than ${plan.timeoutMs} ms` }, true)), deadline.getTime() - Date.now());
  });
  try {
    return (await Promise.race([lookup(plan.host, { family: plan.family }), timeout])).address;
  } catch (err) {
    throw err instanceof SetupFailure ? err : new SetupFailure(toProbeError(err, 'DNS_ERROR', `resolving ${plan.host}`), true);
  } finally {
    clearTimeout(timer);
  }
}

function target(address: string, port: number): string {
  return net.isIPv6(address) ? `ipv6:[${address}]:${port}` : `ipv4:${address}:${port}`;
}

function credentials(plan: Plan): grpc.ChannelCredentials {
  if (!plan.tls) return grpc.credentials.createInsecure();
  // Node's trust store, which NODE_EXTRA_CA_CERTS extends, as every other TLS client of the runner
  // (createSsl would swap it for grpc's own GRPC_DEFAULT_SSL_ROOTS_FILE_PATH when that is set).
  return grpc.credentials.createFromSecureContext(tls.createSecureContext({}), plan.skipSSL ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {});
}

function channelOptions(plan: Plan): grpc.ChannelOptions {
  return {
    // The certificate is checked against the name asked for, not the address it resolved to.
    ...(net.isIP(plan.host) ? {} : { 'grpc.ssl_target_name_override': plan.host }),
    'grpc.default_authority': hostPort(plan.host, plan.port),
    // A connection of its own per run: its timing is this run's, and no other check's TLS settings apply.
    'grpc.use_local_subchannel_pool': 1,
    'grpc.enable_retries': 0,
    'grpc.max_receive_message_length': GRPC_MAX_RESPONSE_BYTES,
  };
}

/** Calls `onReady` when the channel first becomes READY (before the deadline). */
function watchConnect(channel: ReturnType<grpc.Client["getChannel"]>, deadline: Date, onReady: () => void): void {
  const watch = (): void => {
    const state = channel.getConnectivityState(true);
    if (state === grpc.connectivityState.READY) return onReady();
    if (state === grpc.connectivityState.SHUTDOWN) return;
    channel.watchConnectivityState(state, deadline, (err) => {
      if (!err) watch();
    });
  };
  watch();
}

function toMetadata(entries: Plan['metadata']): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const { key, value } of entries) md.add(key, key.endsWith('-bin') ? Buffer.from(value, 'base64') : value);
  return md;
}

/** The method to call and its request message: from the health service, the proto or reflection. */
async function prepareCall(
  client: grpc.Client, plan: Plan, name: GrpcMethodName, metadata: grpc.Metadata, deadline: Date, response: GrpcResponse,
): Promise<{ method: Method; argument: unknown }> {
  let definition: PackageDefinition;
  if (plan.mode === 'HEALTH') {
    definition = await healthDefinition();
    return { method: findMethod(definition, name), argument: { service: plan.service } };
  }
  if (plan.protoContent !== null) {
    try {
      definition = await loadProtoText(plan.protoContent);
    } catch (err) {
      throw new SetupFailure({ code: 'GRPC_PROTO_INVALID', message: `protoContent cannot be loaded: ${(err as Error).message}` });
    }
    response.discoveredMethods = methodsOf(definition);
  } else {
    const reflected = await reflect(client, name, metadata, deadline);
    definition = reflected.definition;
    response.discoveredMethods = reflected.discoveredMethods;
  }
  const method = findMethod(definition, name, response.discoveredMethods);
  let argument: unknown;
  try {
    argument = camelKeys(plan.message === '' ? {} : JSON.parse(plan.message));
    method.requestSerialize(argument);
  } catch (err) {
    throw new SetupFailure({ code: 'GRPC_MESSAGE_INVALID', message: `request.grpcConfig.message does not fit the request of ${name.service}/${name.method}: ${(err as Error).message}` });
  }
  return { method, argument };
}

async function reflect(client: grpc.Client, name: GrpcMethodName, metadata: grpc.Metadata, deadline: Date) {
  try {
    return await resolveByReflection(client, name.service, metadata, deadline);
  } catch (err) {
    const code = (err as Partial<grpc.ServiceError>).code;
    // Not reaching the server at all is the call's failure, reported by its status.
    if (code === UNAVAILABLE || code === DEADLINE_EXCEEDED) throw err;
    if (code === 12) {
      throw new SetupFailure({ code: 'GRPC_REFLECTION_UNAVAILABLE', message: 'the server offers no reflection service (UNIMPLEMENTED); give the .proto with serviceDefinition PROTO_FILE' });
    }
    if (code === 5) throw new SetupFailure({ code: 'GRPC_METHOD_NOT_FOUND', message: `the server's reflection knows no service ${name.service}` });
    throw new SetupFailure({ code: 'GRPC_REFLECTION_FAILED', message: `server reflection failed: ${(err as Error).message}` });
  }
}

function findMethod(definition: PackageDefinition, name: GrpcMethodName, offered: string[] | null = null): Method {
  const service = definition[name.service];
  const method = service && !('format' in service) ? (service[name.method] as Method | undefined) : undefined;
  if (!method) {
    const list = offered && offered.length > 0 ? ` (offered: ${offered.slice(0, 20).join(', ')})` : '';
    throw new SetupFailure({ code: 'GRPC_METHOD_NOT_FOUND', message: `no method ${name.service}/${name.method}${list}` });
  }
  if (method.requestStream || method.responseStream) {
    throw new SetupFailure({ code: 'GRPC_METHOD_NOT_UNARY', message: `${name.service}/${name.method} streams; only unary methods can be checked` });
  }
  return method;
}

/** JSON keys as protobuf's JSON names: `user_id` is `userId` (map keys with underscores are renamed too). */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), camelKeys(v)]));
}

interface CallOutcome {
  code: number;
  details: string;
  value: unknown;
  metadata: { key: string; value: string }[];
}

function unaryCall(client: grpc.Client, method: Method, argument: unknown, metadata: grpc.Metadata, deadline: Date): Promise<CallOutcome> {
  return new Promise((resolve) => {
    let headers: grpc.Metadata | null = null;
    let trailers: grpc.Metadata | null = null;
    let result: { err: grpc.ServiceError | null; value: unknown } | null = null;
    let done = false;
    const settle = () => {
      if (done || !result) return;
      done = true;
      const { err, value } = result;
      const entries = [...metadataEntries(headers), ...metadataEntries(trailers ?? err?.metadata ?? null)];
      resolve(err ? { code: err.code, details: err.details, value: null, metadata: entries } : { code: 0, details: '', value, metadata: entries });
    };
    const call = client.makeUnaryRequest(method.path, method.requestSerialize, method.responseDeserialize, argument, metadata, { deadline }, (err, value) => {
      result = { err, value };
      // The trailers come with the status event, right after this callback.
      setImmediate(settle);
    });
    call.on('metadata', (md) => { headers = md; });
    call.on('status', (status) => {
      trailers = status.metadata;
      settle();
    });
  });
}

function metadataEntries(md: grpc.Metadata | null): { key: string; value: string }[] {
  if (!md) return [];
  return Object.entries(md.getMap()).map(([key, v]) => ({ key, value: Buffer.isBuffer(v) ? v.toString('base64') : String(v) }));
}

/** The outcome of a call that answered: errors and assertion outcomes, filling `response`. */
function judge(plan: Plan, outcome: CallOutcome, response: GrpcResponse): [ProbeError[], AssertionOutcome[], boolean] {
  const statusName = GRPC_STATUS_NAMES[outcome.code] ?? String(outcome.code);
  response.grpcStatusCode = outcome.code;
  response.grpcStatusMessage = outcome.code === 0 ? 'OK' : `${statusName}: ${outcome.details}`;
  response.metadata = outcome.metadata;
  const message = outcome.value === null || outcome.value === undefined ? null : JSON.stringify(outcome.value);
  response.responseMessage = message && message.length > GRPC_RESPONSE_KEPT_CHARS ? `${message.slice(0, GRPC_RESPONSE_KEPT_CHARS)}…` : message;
  if (plan.mode === 'HEALTH' && outcome.value) {
    const label = String((outcome.value as { status?: unknown }).status ?? 'UNKNOWN');
    response.healthStatusLabel = label;
    response.healthStatus = Math.max(0, (GRPC_HEALTH_STATUSES as readonly string[]).indexOf(label));
  }
  const metadataMap: Record<string, string> = {};
  for (const { key, value } of outcome.metadata) metadataMap[key] = metadataMap[key] === undefined ? value : `${metadataMap[key]}, ${value}`;
  const assertions = evaluateAssertions(plan.assertions, {
    kind: 'GRPC', statusCode: outcome.code, healthStatus: response.healthStatus, message: message ?? '',
    metadata: metadataMap, responseTime: response.timingPhases.total,
  });
  return [judgeErrors(plan, outcome, response, statusName), assertions, outcome.code === UNAVAILABLE || outcome.code === DEADLINE_EXCEEDED];
}

function judgeErrors(plan: Plan, outcome: CallOutcome, response: GrpcResponse, statusName: string): ProbeError[] {
  const asserts = (source: string) => plan.assertions.some((a) => a.source === source);
  const errors: ProbeError[] = [];
  if (outcome.code !== 0 && !asserts('GRPC_STATUS_CODE')) {
    errors.push({ code: `GRPC_${statusName}`, message: `${response.grpcMethod} on ${hostPort(plan.host, plan.port)} answered ${outcome.code} ${statusName}: ${outcome.details}` });
  }
  if (plan.mode === 'HEALTH' && outcome.code === 0 && response.healthStatusLabel !== 'SERVING' && !asserts('GRPC_HEALTHCHECK_STATUS')) {
    errors.push({ code: 'GRPC_NOT_SERVING', message: `${plan.service === '' ? 'the server' : `service ${plan.service}`} is ${response.healthStatusLabel}` });
  }
  return errors;
}

/** A gRPC error before the call (reflection that could not reach the server) as the call's failure. */
function statusFailure(err: unknown, response: GrpcResponse, plan: Plan): SetupFailure {
  const e = err as Partial<grpc.ServiceError>;
  if (typeof e.code !== 'number') return new SetupFailure(toProbeError(err, 'GRPC_PROBE_FAILED', `gRPC check of ${hostPort(plan.host, plan.port)}`));
  const name = GRPC_STATUS_NAMES[e.code] ?? String(e.code);
  response.grpcStatusCode = e.code;
  response.grpcStatusMessage = `${name}: ${e.details ?? ''}`;
  return new SetupFailure(
    { code: `GRPC_${name}`, message: `${hostPort(plan.host, plan.port)} answered ${e.code} ${name}: ${e.details ?? ''}` },
    e.code === UNAVAILABLE || e.code === DEADLINE_EXCEEDED,
  );
}
