import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AssertionOutcome, ProbeError, ProbeResult } from '../../domain/check-result.js';
import { evaluateAssertions, type Assertion } from '../../domain/evaluate-assertion.js';
import { SCRUBBED, scrubDeep, secretValues, type Scrubber } from '../../domain/scrub-secrets.js';
import type { RunContext, RunnableCheck } from '../executor.js';
import { probeHttp, type HttpProbeOutcome, type HttpTimingPhases } from '../http-probe.js';
import { interpolateVariables, variableValues } from '../interpolate-variables.js';
import {
  runRequestScript, SCRIPT_TIME_LIMIT_MS, type ScriptLogLine, type ScriptRequest, type ScriptResponse,
} from '../run-request-script.js';
import { runScrubber } from '../run-scrubber.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { finishProbe } from './finish-probe.js';

/** Bytes of the response body kept in the stored result (assertions saw up to MAX_BODY_READ_BYTES). */
export const STORED_BODY_BYTES = 256 * 1024;

/** User-Agent sent when the check sets none. */
export const DEFAULT_USER_AGENT = 'Lookout/1.0 (uptime monitor)';

/** Content-Type sent for each body type when the check's headers set none. */
export const BODY_CONTENT_TYPES: Record<string, string | null> = {
  JSON: 'application/json',
  GRAPHQL: 'application/json',
  FORM: 'application/x-www-form-urlencoded',
  RAW: 'text/plain;charset=UTF-8',
  NONE: null,
};

/** Which family of HTTP check runs: API checks use every request field, URL monitors only some. */
export type HttpCheckKind = 'API' | 'URL';

interface Entry {
  key: string;
  value: string;
}

/** The request after variables, setup script and body rules: exactly what goes on the wire. */
interface PreparedRequest {
  method: string;
  url: string;
  headers: Entry[];
  queryParameters: Entry[];
  body: string;
}

type JobLog = { setup: ScriptLogLine[]; request: ScriptLogLine[]; teardown: ScriptLogLine[] };

/**
 * Runs one attempt of an API check or URL monitor; never throws. Steps:
 * 1. `{{VARIABLES}}` are substituted in url, headers, query parameters, body and basicAuth.
 * 2. API only: the group's setup script (check.data.localSetupScript, the runner puts a setup
 *    snippet's text there) runs in the sandbox and may change the request (runRequestScript
 *    documents its API); variables it sets in process.env are substituted afterwards.
 * 3. The request goes out over a fresh connection (probeHttp documents the timing phases and
 *    redirect rules); API checks send their body per bodyType (NONE sends none; GRAPHQL wraps a
 *    bare query as `{"query": ...}`; FORM turns a JSON object into form fields) with a matching
 *    Content-Type and basicAuth as an Authorization header, unless the headers already set them.
 *    Each TLS connection presents the account's client certificate for its host, if there is one
 *    (ctx.clientCertificates; a redirect to another host gets that host's certificate or none).
 * 4. API only: the teardown script gets the response (skipped when there is none).
 * 5. Assertions run on the response. URL monitors look only at STATUS_CODE assertions and, with
 *    none, fail on a status of 400 or more (shown as the assertion STATUS_CODE LESS_THAN 400).
 * 6. finishProbe applies degradedResponseTime / maxResponseTime and shouldFail.
 *
 * The result's `apiCheckResult` is `{assertions, request: {method, url, data, headers, params},
 * response: {status, statusText, body, headers, timings, timingPhases, bodySize, bodyTruncated,
 * url} | null, requestError, jobLog: {setup, request, teardown}, jobAssets: []}`; the body stored
 * is the first STORED_BODY_BYTES bytes (`bodyTruncated` says it was cut, `bodySize` is the size
 * received). `details` is `{ssl, timingPhases, statusCode}` with `ssl` the HTTPS target's
 * certificate `{daysRemaining, validFrom, validTo, issuer, subject, authorized, authorizationError}`.
 * Secret variable values, in every form createScrubber knows (any case, URL-encoded, base64...),
 * and a whole basic-auth token built from them are scrubbed from everything kept.
 */
export async function runHttpCheck(kind: HttpCheckKind, check: RunnableCheck, ctx: RunContext, sandbox: Sandbox | null): Promise<ProbeResult> {
  const startedAt = new Date();
  try {
    return await attempt(kind, check, ctx, startedAt, sandbox);
  } catch (err) {
    ctx.logger.error({ err, checkId: check.id }, 'HTTP executor failed unexpectedly');
    return finishProbe(check, ctx, {
      startedAt, responseTime: 0, assertions: [], networkError: false, details: null,
      errors: [{ code: 'EXECUTOR_FAILED', message: `the ${kind} check could not run: ${err instanceof Error ? err.message : String(err)}` }],
    });
  }
}

async function attempt(kind: HttpCheckKind, check: RunnableCheck, ctx: RunContext, startedAt: Date, sandbox: Sandbox | null): Promise<ProbeResult> {
  const deadline = performance.now() + ctx.timeoutMs;
  const remaining = () => Math.max(0, Math.round(deadline - performance.now()));
  const source = (check.data.request ?? {}) as Record<string, any>;
  let values = variableValues(ctx.variables);
  const isApi = kind === 'API';
  const jobLog: JobLog = { setup: [], request: [], teardown: [] };
  const errors: ProbeError[] = [];

  let request: PreparedRequest = {
    method: isApi && typeof source.method === 'string' ? source.method.toUpperCase() : 'GET',
    url: stringOf(source.url),
    headers: isApi ? entries(source.headers) : [],
    queryParameters: isApi ? entries(source.queryParameters) : [],
    body: isApi ? stringOf(source.body) : '',
  };
  const interpolate = (r: PreparedRequest, vals: ReadonlyMap<string, string>): PreparedRequest => ({
    method: r.method,
    url: interpolateVariables(r.url, vals),
    headers: r.headers.map((e) => ({ key: interpolateVariables(e.key, vals), value: interpolateVariables(e.value, vals) })),
    queryParameters: r.queryParameters.map((e) => ({ key: interpolateVariables(e.key, vals), value: interpolateVariables(e.value, vals) })),
    body: interpolateVariables(r.body, vals),
  });
  request = interpolate(request, values);

  const setupScript = isApi ? scriptOf(check.data.localSetupScript) : null;
  const teardownScript = isApi ? scriptOf(check.data.localTearDownScript) : null;
  if ((setupScript || teardownScript) && !sandbox) throw new Error('an API check with scripts needs a sandbox to run them in');
  if (setupScript && sandbox) {
    const env = Object.fromEntries(values);
    const outcome = await runRequestScript({
      phase: 'setup', script: setupScript, scriptPath: check.data.setupScriptPath, dependencies: check.data.setupScriptDependencies, request: toScriptRequest(request), response: null, env, scrub: runScrubber(ctx.variables),
      timeoutMs: Math.min(SCRIPT_TIME_LIMIT_MS, remaining()), signal: ctx.signal, sandbox,
    });
    jobLog.setup = outcome.logs;
    if (!outcome.ok) {
      errors.push({ code: outcome.code ?? 'SETUP_SCRIPT_FAILED', message: outcome.error });
      return finish(check, ctx, runScrubber(ctx.variables), { startedAt, request, probe: null, errors, jobLog, assertions: [], kind });
    }
    const changed = new Map(Object.entries(outcome.env).filter(([k, v]) => env[k] !== v));
    values = new Map([...values, ...changed]);
    request = interpolate(fromScriptRequest(outcome.request), changed);
  }

  const basicAuth = isApi ? basicAuthOf(source.basicAuth, values) : null;
  const wire = wireRequest(request, isApi ? String(source.bodyType ?? 'NONE') : 'NONE', basicAuth);
  const scrub = withBasicAuthToken(runScrubber(ctx.variables), basicAuth, secretValues(ctx.variables));

  const probe = await probeHttp({
    method: wire.method,
    url: wire.url,
    headers: wire.headers.map((e) => [e.key, e.value]),
    body: wire.body,
    followRedirects: source.followRedirects !== false,
    skipSSL: source.skipSSL === true,
    family: source.ipFamily === 'IPv6' ? 6 : 4,
    timeoutMs: remaining(),
    signal: ctx.signal,
    clientCertificates: ctx.clientCertificates,
  });
  jobLog.request = probe.log.map((line) => ({ ...line, level: 'info' }));
  if (probe.error) errors.push(probe.error);

  let observed: ScriptResponse | null = probe.response ? {
    statusCode: probe.response.status,
    statusText: probe.response.statusText,
    headers: probe.response.headers,
    body: probe.response.body,
    timings: { ...probe.timings },
    timingPhases: { ...probe.timingPhases },
  } : null;

  if (teardownScript && observed && sandbox) {
    const outcome = await runRequestScript({
      phase: 'teardown', script: teardownScript, scriptPath: check.data.tearDownScriptPath, dependencies: check.data.tearDownScriptDependencies, request: toScriptRequest(wire), response: observed,
      env: Object.fromEntries(values), scrub, timeoutMs: Math.min(SCRIPT_TIME_LIMIT_MS, remaining()), signal: ctx.signal, sandbox,
    });
    jobLog.teardown = outcome.logs;
    if (outcome.ok) observed = outcome.response ?? observed;
    else errors.push({ code: outcome.code ?? 'TEARDOWN_SCRIPT_FAILED', message: outcome.error });
  }

  let assertions: AssertionOutcome[] = [];
  if (observed) {
    const list = assertionsOf(kind, source.assertions);
    assertions = evaluateAssertions(list, {
      kind: 'HTTP', statusCode: observed.statusCode, headers: observed.headers, body: observed.body,
      responseTime: probe.timingPhases.total,
    });
  }
  return finish(check, ctx, scrub, { startedAt, request: wire, probe, observed, errors, jobLog, assertions, kind });
}

interface Finished {
  kind: HttpCheckKind;
  startedAt: Date;
  request: PreparedRequest;
  probe: HttpProbeOutcome | null;
  /** The response as assertions saw it (after the teardown script). */
  observed?: ScriptResponse | null;
  errors: ProbeError[];
  jobLog: JobLog;
  assertions: AssertionOutcome[];
}

function finish(check: RunnableCheck, ctx: RunContext, scrub: Scrubber, f: Finished): ProbeResult {
  const phases: HttpTimingPhases | null = f.probe?.timingPhases ?? null;
  const res = f.probe?.response ?? null;
  const observed = f.observed ?? null;
  // Scrubbed before it is cut: a cut through a secret would keep the part before the cut.
  const stored = observed && res ? storedBody(scrub(observed.body)) : null;
  const requestError = f.probe?.error ? f.probe.error.message : null;
  const apiCheckResult = {
    assertions: f.assertions,
    request: {
      method: f.request.method,
      url: f.request.url,
      data: f.request.body,
      headers: joinEntries(f.request.headers, true),
      params: joinEntries(f.request.queryParameters, false),
    },
    response: observed && res && stored ? {
      status: observed.statusCode,
      statusText: observed.statusCode === res.status ? res.statusText : (STATUS_CODES[observed.statusCode] ?? ''),
      body: stored.text,
      headers: observed.headers,
      timings: f.probe!.timings,
      timingPhases: phases,
      bodySize: res.bodySize,
      bodyTruncated: res.bodyTruncated || stored.truncated,
      url: res.url,
    } : null,
    requestError,
    jobLog: f.jobLog,
    jobAssets: [],
  };
  const result = finishProbe(check, ctx, {
    startedAt: f.startedAt,
    responseTime: phases?.total ?? 0,
    errors: scrubDeep(f.errors, scrub),
    assertions: scrubDeep(f.assertions, scrub),
    networkError: f.probe?.networkError ?? false,
    details: scrubDeep({ ssl: f.probe?.ssl ?? null, timingPhases: phases, statusCode: observed?.statusCode ?? null }, scrub),
  });
  return { ...result, apiCheckResult: scrubDeep(apiCheckResult, scrub) };
}

/** At most STORED_BODY_BYTES of UTF-8, never cutting a character in two. */
function storedBody(body: string): { text: string; truncated: boolean } {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= STORED_BODY_BYTES) return { text: body, truncated: false };
  let end = STORED_BODY_BYTES;
  // Step back over UTF-8 continuation bytes (top bits 10) to a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : v == null ? '' : String(v);
}

function scriptOf(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/** `[{key, value}]` entries of headers or query parameters, without blank keys. */
function entries(v: unknown): Entry[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((e): e is Record<string, unknown> => e !== null && typeof e === 'object' && typeof e.key === 'string' && e.key.trim() !== '')
    .map((e) => ({ key: (e.key as string).trim(), value: stringOf(e.value) }));
}

/** Entries as an object; repeated keys (case-insensitive for headers) joined with ", ". */
function joinEntries(list: Entry[], caseInsensitive: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const names = new Map<string, string>();
  for (const { key, value } of list) {
    const norm = caseInsensitive ? key.toLowerCase() : key;
    const name = names.get(norm);
    if (name === undefined) {
      names.set(norm, key);
      out[key] = value;
    } else {
      out[name] = `${out[name]}, ${value}`;
    }
  }
  return out;
}

function toScriptRequest(r: PreparedRequest): ScriptRequest {
  return {
    method: r.method,
    url: r.url,
    headers: joinEntries(r.headers, true),
    queryParameters: joinEntries(r.queryParameters, false),
    body: r.body,
  };
}

function fromScriptRequest(r: ScriptRequest): PreparedRequest {
  const toEntries = (o: Record<string, string>) => Object.entries(o).map(([key, value]) => ({ key, value }));
  return { method: r.method, url: r.url, headers: toEntries(r.headers), queryParameters: toEntries(r.queryParameters), body: r.body };
}

interface BasicAuth {
  username: string;
  password: string;
  /** base64 of `username:password`, the Authorization header's credentials. */
  token: string;
}

/**
 * `scrub`, also hiding the whole token of a basic auth built from a secret: scrubbing the secret
 * alone would leave the characters it shares with the user name in sight.
 */
function withBasicAuthToken(scrub: Scrubber, basicAuth: BasicAuth | null, secrets: string[]): Scrubber {
  if (!basicAuth || !secrets.some((s) => basicAuth.username.includes(s) || basicAuth.password.includes(s))) return scrub;
  const { token } = basicAuth;
  return (text) => scrub(text.split(token).join(SCRUBBED));
}

function basicAuthOf(v: unknown, values: ReadonlyMap<string, string>): BasicAuth | null {
  if (v === null || typeof v !== 'object') return null;
  const raw = v as Record<string, unknown>;
  const username = interpolateVariables(stringOf(raw.username), values);
  const password = interpolateVariables(stringOf(raw.password), values);
  if (!username && !password) return null;
  return { username, password, token: Buffer.from(`${username}:${password}`, 'utf8').toString('base64') };
}

/** The request with its query parameters in the URL, the body per bodyType and default headers. */
function wireRequest(r: PreparedRequest, bodyType: string, basicAuth: BasicAuth | null): PreparedRequest {
  const has = (name: string) => r.headers.some((e) => e.key.toLowerCase() === name);
  const headers = [...r.headers];
  let url = r.url;
  if (r.queryParameters.length > 0) {
    try {
      const u = new URL(r.url);
      for (const { key, value } of r.queryParameters) u.searchParams.append(key, value);
      url = u.href;
    } catch {
      // An invalid URL is reported by the probe as INVALID_URL.
    }
  }
  const body = bodyType === 'NONE' || r.method === 'HEAD' ? '' : encodeBody(bodyType, r.body);
  const contentType = BODY_CONTENT_TYPES[bodyType] ?? null;
  if (body !== '' && contentType && !has('content-type')) headers.push({ key: 'Content-Type', value: contentType });
  if (basicAuth && !has('authorization')) headers.push({ key: 'Authorization', value: `Basic ${basicAuth.token}` });
  if (!has('user-agent')) headers.push({ key: 'User-Agent', value: DEFAULT_USER_AGENT });
  return { method: r.method, url, headers, queryParameters: r.queryParameters, body };
}

function encodeBody(bodyType: string, body: string): string {
  if (bodyType === 'GRAPHQL') {
    const parsed = parseJsonObject(body);
    return parsed && typeof parsed.query === 'string' ? body : JSON.stringify({ query: body });
  }
  if (bodyType === 'FORM') {
    const parsed = parseJsonObject(body);
    if (!parsed) return body;
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(parsed)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    return form.toString();
  }
  return body;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  if (!text.trim().startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The assertions a kind of check evaluates; a URL monitor without any checks for status < 400. */
function assertionsOf(kind: HttpCheckKind, v: unknown): Assertion[] {
  const list = Array.isArray(v) ? (v as Assertion[]).filter((a) => a !== null && typeof a === 'object') : [];
  if (kind === 'API') return list;
  const statusOnly = list.filter((a) => a.source === 'STATUS_CODE');
  return statusOnly.length > 0 ? statusOnly : [{ source: 'STATUS_CODE', property: null, comparison: 'LESS_THAN', target: 400, regex: null }];
}
