import path from 'node:path';
import { planScriptFiles } from '../domain/script-files.js';
import { BUNDLE_FILE, bundleUserScript, needsBundle } from './bundle-user-script.js';
import type { Sandbox, SandboxExit, SandboxRunFolder } from './sandbox/sandbox.js';
import { SANDBOX_ERROR_CODES } from './sandbox/sandbox.js';
import { exceededLimit, sandboxLimitMessage } from './sandbox/sandbox-limit-message.js';
import { isOutOfMemory } from './sandbox/start-sandbox-process.js';
import { writeScriptFiles } from './write-script-files.js';

/** The request as a setup script sees and changes it. */
export interface ScriptRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  queryParameters: Record<string, string>;
  body: string;
}

/** The response as a teardown script sees (and may change) it before assertions run. */
export interface ScriptResponse {
  statusCode: number;
  statusText: string;
  headers: Record<string, string | string[]>;
  body: string;
  timings: Record<string, unknown>;
  timingPhases: Record<string, unknown>;
}

/** One line a script printed with console.*, or wrote to stdout/stderr. */
export interface ScriptLogLine {
  time: string;
  level: string;
  message: string;
}

export interface RequestScriptInput {
  phase: 'setup' | 'teardown';
  script: string;
  /** Project path of the script's file (`setupScriptPath`), from which its imports resolve; inline scripts sit at the root. */
  scriptPath?: unknown;
  /** The project files it imports (`setupScriptDependencies`, `[{path, content}]`). */
  dependencies?: unknown;
  request: ScriptRequest;
  response: ScriptResponse | null;
  /** The run's variables; the script's `process.env` is exactly these. */
  env: Record<string, string>;
  /** Hides the run's secrets in log lines before they are cut to length (a cut could split a secret). */
  scrub?: (text: string) => string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Where the script runs. */
  sandbox: Sandbox;
}

export type RequestScriptOutcome =
  | { ok: true; request: ScriptRequest; response: ScriptResponse | null; env: Record<string, string>; logs: ScriptLogLine[] }
  /** `code` is set when the sandbox, not the script, ended the run (SANDBOX_MEMORY, …). */
  | { ok: false; error: string; code?: string; logs: ScriptLogLine[] };

/** Default wall-time limit of one setup or teardown script. */
export const SCRIPT_TIME_LIMIT_MS = 10_000;
/** Log lines kept per script; a chatty script cannot fill the result. */
const MAX_LOG_LINES = 200;
const MAX_LOG_LINE_LENGTH = 2000;
/** Heap of a script's process; the sandbox's memory limit holds for everything else. */
const HEAP_MB = 256;

/**
 * Runs a group's setup or teardown script in the sandbox (see createSandbox), killed when it
 * passes `timeoutMs`, a sandbox limit or the run is cancelled, so an endless loop or a crash never
 * touches the service. Never throws.
 *
 * The script is the body of an async function; `await` works at its top level. It sees:
 * - `request` — `{method, url, headers, queryParameters, body}` with headers and query parameters
 *   as plain objects. A setup script changes the request by assigning to it, e.g.
 *   `request.headers['X-Token'] = await token()` or `request.url += '/v2'`; in a teardown script
 *   it is the request that was sent.
 * - `response` — teardown only (null in setup): `{statusCode, statusText, headers, body, timings,
 *   timingPhases}`. Changes to `statusCode`, `headers` and `body` are what assertions then see.
 * - `process.env` — the run's variables by key; a value a setup script sets there is available to
 *   the request as `{{KEY}}`.
 * - `require` — node's built-in modules and the service's installed packages.
 * - TypeScript, ES modules and project files: a script in a `.ts`/`.mjs` file, with `import` or
 *   `export` lines, or with `dependencies` is bundled by esbuild with the files it imports
 *   (bundleUserScript) and runs as an ES module (top-level `await`; `request`, `response` and
 *   `require` as globals); an error names the user's `file:line:column` through the source map.
 * - `console.log/info/warn/error/debug` — lines go to the result's job log (secrets scrubbed).
 * A throw, a rejected promise, an exit before the end or the time limit fails the run.
 */
export async function runRequestScript(input: RequestScriptInput): Promise<RequestScriptOutcome> {
  const logs: ScriptLogLine[] = [];
  const addLog = (level: string, message: string) => {
    if (logs.length >= MAX_LOG_LINES) return;
    const scrubbed = input.scrub ? input.scrub(message) : message;
    const text = scrubbed.length > MAX_LOG_LINE_LENGTH ? `${scrubbed.slice(0, MAX_LOG_LINE_LENGTH)}…` : scrubbed;
    logs.push({ time: new Date().toISOString(), level, message: text });
  };
  const failed = (error: string, code?: string): RequestScriptOutcome => ({ ok: false, error, ...(code ? { code } : {}), logs });
  if (input.sandbox.unavailable) {
    return failed(`${input.phase} script cannot run: ${input.sandbox.unavailable} (LOOKOUT_SANDBOX)`, SANDBOX_ERROR_CODES.unavailable);
  }
  const plan = planScriptFiles(input.script, input.scriptPath, input.dependencies);
  if ('error' in plan) return failed(`${input.phase} script's files cannot be used: ${plan.error}`, 'DEPENDENCY_ERROR');
  const bundle = needsBundle(plan.entry, input.script, plan.files) ? await bundleUserScript(plan.entry, input.script, plan.files) : null;
  if (bundle && !bundle.ok) return failed(`${input.phase} script failed: ${bundle.message}`);
  let folder: SandboxRunFolder;
  try {
    folder = await input.sandbox.createRunFolder();
  } catch (err) {
    return failed(`${input.phase} script could not start: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    if (bundle) await writeScriptFiles(folder.host.project, [...plan.files, { path: BUNDLE_FILE, content: bundle.code }]);
  } catch (err) {
    await folder.close().catch(() => {});
    return failed(`${input.phase} script's files could not be written: ${err instanceof Error ? err.message : String(err)}`, 'DEPENDENCY_ERROR');
  }
  const bundled = bundle ? { bundlePath: path.posix.join(folder.inside.project, BUNDLE_FILE), projectDir: folder.inside.project } : {};
  try {
    let outcome: RequestScriptOutcome | null = null;
    const run = folder.run({
      entry: 'request-script-child.mjs',
      nodeArgs: [`--max-old-space-size=${HEAP_MB}`, ...(bundle ? ['--enable-source-maps'] : [])],
      job: { script: input.script, request: input.request, response: input.response, env: input.env, ...bundled },
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      onOutput: (stream, line) => addLog(stream === 'stdout' ? 'info' : 'error', line),
      onMessage: (msg) => {
        if (outcome) return;
        if (msg.type === 'log') {
          addLog(String(msg.level ?? 'log'), String(msg.message ?? ''));
        } else if (msg.type === 'error') {
          const message = String(msg.message ?? 'unknown error');
          outcome = isOutOfMemory(message)
            ? failed(`${sandboxLimitMessage(`${input.phase} script`, 'memory', input.sandbox)}: ${message}`, SANDBOX_ERROR_CODES.memory)
            : failed(`${input.phase} script failed: ${message}`);
          run.stop();
        } else if (msg.type === 'done') {
          outcome = toOutcome(input, msg, logs);
          run.stop();
        }
      },
    });
    const exit = await run.done;
    const reported = outcome as RequestScriptOutcome | null;
    const limit = exceededLimit(exit);
    if (reported && !reported.ok && limit) {
      return failed(`${sandboxLimitMessage(`${input.phase} script`, limit, input.sandbox)}: ${reported.error}`, SANDBOX_ERROR_CODES[limit]);
    }
    if (reported) return reported;
    return failed(...whyEnded(input, exit));
  } finally {
    await folder.close().catch(() => {});
  }
}

/** The words and code of a run that ended before the script finished. */
function whyEnded(input: RequestScriptInput, exit: SandboxExit): [string, string?] {
  const phase = `${input.phase} script`;
  if (exit.startError) return [`${phase} could not start: ${exit.startError}`];
  if (exit.cancelled) return [`${phase} stopped: the run was cancelled`];
  if (exit.limit === 'time') return [`${phase} did not finish within ${input.timeoutMs} ms`];
  if (exit.limit) return [sandboxLimitMessage(phase, exit.limit, input.sandbox), SANDBOX_ERROR_CODES[exit.limit]];
  return [`${phase} exited (${exit.exitSignal ?? `code ${exit.exitCode}`}) before it finished`];
}

function toOutcome(input: RequestScriptInput, msg: Record<string, unknown>, logs: ScriptLogLine[]): RequestScriptOutcome {
  const request = toScriptRequest(msg.request);
  if (typeof request === 'string') return { ok: false, error: `${input.phase} script left an invalid request: ${request}`, logs };
  const response = input.response ? toScriptResponse(msg.response, input.response) : null;
  if (typeof response === 'string') return { ok: false, error: `${input.phase} script left an invalid response: ${response}`, logs };
  return { ok: true, request, response, env: toStringRecord(msg.env), logs };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Plain string values of an object; null and undefined entries are dropped (a header removed). */
function toStringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(v)) return out;
  for (const [k, value] of Object.entries(v)) {
    if (value != null) out[k] = typeof value === 'string' ? value : String(value);
  }
  return out;
}

/** The request a script handed back, or why it is unusable. */
function toScriptRequest(v: unknown): ScriptRequest | string {
  if (!isRecord(v)) return 'request is not an object';
  if (typeof v.method !== 'string' || !v.method) return 'request.method must be a non-empty string';
  if (typeof v.url !== 'string' || !v.url) return 'request.url must be a non-empty string';
  if (v.headers != null && !isRecord(v.headers)) return 'request.headers must be an object';
  if (v.queryParameters != null && !isRecord(v.queryParameters)) return 'request.queryParameters must be an object';
  let body = v.body;
  if (body != null && typeof body !== 'string') body = JSON.stringify(body);
  return {
    method: v.method.toUpperCase(),
    url: v.url,
    headers: toStringRecord(v.headers),
    queryParameters: toStringRecord(v.queryParameters),
    body: (body as string | null | undefined) ?? '',
  };
}

function toScriptResponse(v: unknown, original: ScriptResponse): ScriptResponse | string {
  if (!isRecord(v)) return 'response is not an object';
  const statusCode = Number(v.statusCode);
  if (!Number.isInteger(statusCode)) return 'response.statusCode must be an integer';
  if (v.headers != null && !isRecord(v.headers)) return 'response.headers must be an object';
  const headers: Record<string, string | string[]> = {};
  for (const [k, value] of Object.entries(v.headers ?? {})) {
    if (value != null) headers[k] = Array.isArray(value) ? value.map(String) : String(value);
  }
  const body = v.body == null ? '' : typeof v.body === 'string' ? v.body : JSON.stringify(v.body);
  return { ...original, statusCode, headers, body };
}
