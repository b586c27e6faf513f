import { randomUUID } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { access, copyFile, lstat, mkdir, readdir, rename, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadConfig } from '../../config.js';
import { DEFAULT_RUNTIME_ID } from '../../domain/catalog.js';
import { planScriptFiles } from '../../domain/script-files.js';
import type { AssertionOutcome, ProbeError, ProbeResult } from '../../domain/check-result.js';
import { scrubDeep } from '../../domain/scrub-secrets.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { runScrubber } from '../run-scrubber.js';
import { defaultSandbox } from '../sandbox/default-sandbox.js';
import { SANDBOX_ERROR_CODES, type Sandbox, type SandboxExit, type SandboxRunFolder } from '../sandbox/sandbox.js';
import { exceededLimit, sandboxLimitMessage } from '../sandbox/sandbox-limit-message.js';
import { isOutOfMemory } from '../sandbox/start-sandbox-process.js';
import { BUNDLE_FILE, bundleUserScript, needsBundle } from '../bundle-user-script.js';
import { writeScriptFiles } from '../write-script-files.js';
import { finishProbe } from './finish-probe.js';
import { CANCELLED_CODE, TIMEOUT_CODE } from './network-error.js';

/** Where browser and multi-step checks find their browser and keep their screenshots. */
export interface BrowserRunnerOptions {
  /** Chromium binary (config `chromiumPath`, env LOOKOUT_CHROMIUM_PATH). */
  chromiumPath: string;
  /** Folder the screenshots are moved to (config `assetsDir`, env LOOKOUT_ASSETS_DIR). */
  assetsDir: string;
  /** Where the scripts run. */
  sandbox: Sandbox;
}

/** One line of a browser or multi-step run's job log. */
export interface BrowserJobLogLine {
  time: string;
  level: string;
  /** `script`: the script's console and output; `page`: the page's console, errors and failed requests; `runner`: tests, steps, screenshots. */
  source: string;
  message: string;
}

/** One file kept from a run, stored as `<assetsDir>/<file>`. */
export interface BrowserJobAsset {
  /** Name the file had in the run (`final.png`, `failure.png`, or the script's own), secrets scrubbed. */
  name: string;
  type: 'screenshot';
  contentType: string;
  size: number;
  /** File name inside the assets folder: a fresh UUID and the image's extension. */
  file: string;
}

/**
 * Chromium switches for this machine. Playwright itself adds `--headless`, `--no-sandbox` and a
 * fresh `--user-data-dir` under the run's private TMPDIR (it refuses one in `args`), so the
 * profile is removed with that folder after the run.
 */
export const CHROMIUM_LAUNCH_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Error codes that mean the runner, not the target, failed: such a run never passes, not even with shouldFail. */
export const RUNNER_FAILURE_CODES = new Set(['NO_SCRIPT', 'DEPENDENCY_ERROR', 'NO_BROWSER', 'BROWSER_LAUNCH_FAILED', 'RUNNER_ERROR', SANDBOX_ERROR_CODES.unavailable]);

/** A multi-step script naming none of these runs without starting Chromium. */
const BROWSER_IDENTIFIERS = /\b(page|context|browser|chromium)\b/;
const MAX_LOG_LINES = 500;
const MAX_LOG_LINE_LENGTH = 2000;
const MAX_ERROR_LENGTH = 4000;
const MAX_ASSETS = 10;
const MAX_ASSET_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };
const NETWORK_FAILURE = /net::ERR_|\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH)\b/;

const PLAYWRIGHT_VERSION: string = createRequire(import.meta.url)('playwright-core/package.json').version;

interface ChildError {
  code: string;
  message: string;
  stack: string;
  assertion?: AssertionOutcome;
}

/** What the child reported: its error (null when the script passed) and what it measured. */
interface ChildResult {
  error: ChildError | null;
  screenshots?: string[];
  scriptMs?: number;
  browserVersion?: string | null;
}

interface ChildOutcome {
  result: ChildResult | null;
  /** Set when the parent ended the run: time limit, cancellation, or the child died. */
  failure: ChildError | null;
  logs: BrowserJobLogLine[];
  elapsedMs: number;
}


/**
 * The executor of BROWSER and MULTI_STEP checks with `options`. Each attempt runs the check's
 * `script` (JavaScript) in its own `node` process driving Chromium through playwright-core, in
 * the sandbox (createSandbox): its working folder, HOME, TMPDIR and browser profile are the run's
 * own and removed after; the check's files are read-only.
 *
 * What the script sees, as globals it may shadow:
 * - `page`, `context`, `browser`: a fresh Chromium context and page (actions time out after
 *   30 s or the run's limit). BROWSER checks always start Chromium; a MULTI_STEP script starts
 *   it only when it or one of its files names `page`, `context`, `browser` or `chromium`,
 *   otherwise those are null.
 * - `request`: a Playwright APIRequestContext, without cookies shared with the page.
 * - `expect`: the matchers of browser-expect.mjs (Playwright Test's most used ones).
 * - `test`, and `require('@playwright/test')` giving `{test, expect}`: checks written as
 *   Playwright tests run one after another after the script body, on the same page.
 * - `require` / `import()`: Node.js built-in modules; also `playwright`/`playwright-core`
 *   (whose `chromium.launch()` gives the run's browser).
 * - The project's own files: the check's `dependencies` (`[{path, content}]`, project-relative,
 *   as `checkly test` and `checkly deploy` send them) are written into the working folder in
 *   their layout (planScriptFiles refuses paths leaving it, duplicates and oversize sets).
 *   A script with files, TypeScript or ES module syntax is bundled with them by esbuild
 *   (bundleUserScript: a relative `require`/`import` such as `./helpers/login` resolves from the
 *   entry's `scriptPath`) and runs as an ES module with source maps, so its stack names the
 *   user's files and lines; any other script runs as the body of an async function (`script.js`).
 *   Any other npm package is refused with a clear message.
 * - `playwrightConfig` (the check's `{use, expect, timeout}`, held at the door to what the child
 *   can apply): `use` makes the page's and `request`'s contexts and their timeouts,
 *   `expect.timeout` the matchers' limit, `timeout` an earlier end of the script (ETIMEDOUT).
 * - `process.env`: the run's variables (PATH, HOME and TMPDIR of the sandbox are there too,
 *   unless a variable has that name). Top-level `await` works.
 * The sandbox keeps the service, its files and other accounts out of reach, and ends a run that
 * passes its memory, process or output limit (SANDBOX_MEMORY, SANDBOX_PROCESSES, SANDBOX_OUTPUT).
 *
 * Limits: the whole attempt, browser start included, has `ctx.timeoutMs`. The script must be done
 * a reserve (15%, 0.3 to 5 s) before that so a screenshot of the stuck page can still be taken;
 * at `ctx.timeoutMs` the child, Chromium and every process below them are SIGKILLed. Both end as
 * ETIMEDOUT (TIMEOUT_CODE). A cancelled run ends as CANCELLED. Where the sandbox cannot work,
 * runs end as SANDBOX_UNAVAILABLE, naming the reason and LOOKOUT_SANDBOX.
 *
 * Errors (codes): NO_SCRIPT, DEPENDENCY_ERROR (a dependency path or set planScriptFiles refuses), NO_BROWSER (Chromium missing: install it with
 * `apt-get install chromium` or set LOOKOUT_CHROMIUM_PATH), BROWSER_LAUNCH_FAILED,
 * SCRIPT_SYNTAX_ERROR (with script.js:LINE), SCRIPT_ERROR (a throw; `networkError` when it is a
 * net::ERR_ or connection error), ETIMEDOUT, CANCELLED, RUNNER_CRASHED (the process died, e.g. out
 * of memory or process.exit), RUNNER_ERROR. A failed `expect` is no error but a failed assertion
 * `{source: 'SCRIPT', property: 'expect(page)', comparison: 'toHaveTitle', target, actual}`:
 * hasFailures without hasErrors. Runner failures (RUNNER_FAILURE_CODES) fail even with shouldFail.
 *
 * The result's browserCheckResult (BROWSER) or multiStepCheckResult (MULTI_STEP) is
 * `{type: 'PLAYWRIGHT', runtimeVersion, playwrightVersion, browserVersion, startedAt, stoppedAt,
 * errors: [{code, message, stack}], jobLog: BrowserJobLogLine[], jobAssets: BrowserJobAsset[],
 * playwrightTestTraces: []}`, `stack` holding only the frames in the script. Screenshots: the page
 * left open at the end (`final.png`, or `failure.png` when the run failed; none of about:blank)
 * and up to 10 PNG/JPEG files the script saved in its working folder, each at most 10 MB, moved to
 * `<assetsDir>/<uuid>.<ext>`. `responseTime` is the script's own run time, without the browser
 * start (a run stopped from outside: the time it ran; a script that never started: 0). Secret
 * variable values are scrubbed from the log, errors and asset names (not from screenshot pixels).
 */
export function createBrowserCheckExecutor(options: BrowserRunnerOptions): Executor {
  return async (check, ctx) => {
    const startedAt = new Date();
    try {
      return await attempt(options, check, ctx, startedAt);
    } catch (err) {
      ctx.logger.error({ err, checkId: check.id }, 'browser executor failed unexpectedly');
      return finish(check, ctx, startedAt, {
        failure: { code: 'RUNNER_ERROR', message: `the ${check.checkType} check could not run: ${messageOf(err)}`, stack: '' },
      });
    }
  };
}

/**
 * The BROWSER and MULTI_STEP executor configured from the environment at each run
 * (LOOKOUT_CHROMIUM_PATH, LOOKOUT_ASSETS_DIR, LOOKOUT_DATA_DIR); see createBrowserCheckExecutor.
 */
export const runBrowserCheck: Executor = async (check, ctx) => {
  let options: BrowserRunnerOptions;
  try {
    const config = loadConfig();
    options = { chromiumPath: config.chromiumPath, assetsDir: config.assetsDir, sandbox: defaultSandbox() };
  } catch (err) {
    return finish(check, ctx, new Date(), { failure: { code: 'RUNNER_ERROR', message: `configuration: ${messageOf(err)}`, stack: '' } });
  }
  return createBrowserCheckExecutor(options)(check, ctx);
};

async function attempt(options: BrowserRunnerOptions, check: RunnableCheck, ctx: RunContext, startedAt: Date): Promise<ProbeResult> {
  const script = typeof check.data.script === 'string' ? check.data.script : '';
  if (script.trim() === '') {
    return finish(check, ctx, startedAt, { failure: { code: 'NO_SCRIPT', message: `the ${check.checkType} check has no script to run`, stack: '' } });
  }
  const plan = planScriptFiles(script, check.data.scriptPath, check.data.dependencies);
  if ('error' in plan) {
    return finish(check, ctx, startedAt, { failure: { code: 'DEPENDENCY_ERROR', message: `the script's files cannot be used: ${plan.error}`, stack: '' } });
  }
  // A helper file may be the one driving the browser.
  const needsBrowser = check.checkType !== 'MULTI_STEP' || [script, ...plan.files.map((f) => f.content)].some((text) => BROWSER_IDENTIFIERS.test(text));
  if (needsBrowser && !(await isExecutable(options.chromiumPath))) {
    return finish(check, ctx, startedAt, {
      failure: {
        code: 'NO_BROWSER',
        message: `no Chromium browser at ${options.chromiumPath}: install it with \`apt-get install chromium\` or set LOOKOUT_CHROMIUM_PATH to a Chromium binary`,
        stack: '',
      },
    });
  }
  if (ctx.signal.aborted) {
    return finish(check, ctx, startedAt, { failure: { code: CANCELLED_CODE, message: 'the run was cancelled before it started', stack: '' } });
  }
  const { sandbox } = options;
  if (sandbox.unavailable) {
    return finish(check, ctx, startedAt, {
      failure: { code: SANDBOX_ERROR_CODES.unavailable, message: `the script cannot run: ${sandbox.unavailable} (LOOKOUT_SANDBOX)`, stack: '' },
    });
  }

  const bundle = needsBundle(plan.entry, script, plan.files) ? await bundleUserScript(plan.entry, script, plan.files) : null;
  if (bundle && !bundle.ok) return finish(check, ctx, startedAt, { failure: { code: bundle.code, message: bundle.message, stack: '' } });

  const folder = await sandbox.createRunFolder();
  try {
    try {
      await writeScriptFiles(folder.host.project, bundle ? [...plan.files, { path: BUNDLE_FILE, content: bundle.code }] : plan.files);
    } catch (err) {
      return finish(check, ctx, startedAt, { failure: { code: 'DEPENDENCY_ERROR', message: `the script's files could not be written: ${messageOf(err)}`, stack: '' } });
    }
    const outcome = await runChild(options, { script, bundled: bundle !== null, playwrightConfig: check.data.playwrightConfig ?? null }, needsBrowser, ctx, folder);
    const scrub = runScrubber(ctx.variables);
    const assets = await keepAssets(folder, outcome.result?.screenshots ?? [], options.assetsDir, (name) => scrub(name), (line) => outcome.logs.push(line));
    return finish(check, ctx, startedAt, { ...outcome, assets });
  } finally {
    await folder.close().catch((err: unknown) => {
      ctx.logger.warn({ err, dir: folder.host.work }, 'could not remove the browser run folder');
    });
  }
}

/** What of the check the child runs: its script, whether it was bundled (with its files), and its playwrightConfig. */
interface ChildScript {
  script: string;
  bundled: boolean;
  playwrightConfig: Record<string, any> | null;
}

async function runChild(options: BrowserRunnerOptions, { script, bundled, playwrightConfig }: ChildScript, needsBrowser: boolean, ctx: RunContext, folder: SandboxRunFolder): Promise<ChildOutcome> {
  const reserveMs = Math.min(5000, Math.max(300, Math.round(ctx.timeoutMs * 0.15)));
  const job = {
    script,
    ...(bundled ? { bundlePath: path.posix.join(folder.inside.project, BUNDLE_FILE) } : {}),
    playwrightConfig,
    projectDir: folder.inside.project,
    needsBrowser,
    chromiumPath: options.chromiumPath,
    launchArgs: CHROMIUM_LAUNCH_ARGS,
    variables: Object.fromEntries(ctx.variables.map((v) => [v.key, v.value])),
    deadlineAt: Date.now() + ctx.timeoutMs - reserveMs,
    timeoutMs: ctx.timeoutMs,
    timeoutCode: TIMEOUT_CODE,
    actionTimeoutMs: Math.max(1, Math.min(30_000, ctx.timeoutMs - reserveMs)),
    screenshotTimeoutMs: Math.max(100, reserveMs - 200),
    shotsDir: folder.inside.shots,
  };
  const logs: BrowserJobLogLine[] = [];
  const addLog = (source: string, level: string, message: string) => {
    if (logs.length >= MAX_LOG_LINES) return;
    const text = message.length > MAX_LOG_LINE_LENGTH ? `${message.slice(0, MAX_LOG_LINE_LENGTH)}…` : message;
    logs.push({ time: new Date().toISOString(), level, source, message: text });
  };
  let result: ChildResult | null = null;
  const run = folder.run({
    entry: 'browser-check-child.mjs',
    nodeArgs: ['--max-old-space-size=512', '--disable-warning=ExperimentalWarning', ...(bundled ? ['--enable-source-maps'] : [])],
    job,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onOutput: (stream, line) => addLog('script', stream === 'stdout' ? 'info' : 'error', line),
    onMessage: (msg) => {
      if (msg.type === 'log') {
        addLog(String(msg.source ?? 'script'), String(msg.level ?? 'log'), String(msg.message ?? ''));
      } else if (msg.type === 'result' && !result) {
        let error = (msg.error ?? null) as ChildError | null;
        if (error?.code === 'SCRIPT_ERROR' && isOutOfMemory(String(error.message))) {
          error = { ...error, code: SANDBOX_ERROR_CODES.memory, message: `${sandboxLimitMessage('the script', 'memory', options.sandbox)}: ${error.message}` };
        }
        const screenshots = Array.isArray(msg.screenshots) ? msg.screenshots.filter((n): n is string => typeof n === 'string') : [];
        result = { error, screenshots, scriptMs: typeof msg.scriptMs === 'number' ? msg.scriptMs : undefined, browserVersion: typeof msg.browserVersion === 'string' ? msg.browserVersion : null };
        // The result is in: the child, Chromium and all below them go.
        run.stop();
      }
    },
  });
  const exit = await run.done;
  const reported = result as ChildResult | null;
  const limit = exceededLimit(exit);
  if (reported?.error && limit && reported.error.code !== SANDBOX_ERROR_CODES[limit]) {
    reported.error = { ...reported.error, code: SANDBOX_ERROR_CODES[limit], message: `${sandboxLimitMessage('the script', limit, options.sandbox)}: ${reported.error.message}` };
  }
  const failure = result ? null : childFailure(exit, needsBrowser, ctx, logs, options.sandbox);
  return { result, failure, logs, elapsedMs: exit.elapsedMs };
}

/** Why a run that reported no result ended: a limit, cancellation, or the process died. */
function childFailure(exit: SandboxExit, needsBrowser: boolean, ctx: RunContext, logs: BrowserJobLogLine[], sandbox: Sandbox): ChildError {
  if (exit.startError) return { code: 'RUNNER_ERROR', message: `the script process failed: ${exit.startError}`, stack: '' };
  if (exit.cancelled) return { code: CANCELLED_CODE, message: 'the run was cancelled', stack: '' };
  if (exit.limit === 'time') {
    return {
      code: TIMEOUT_CODE,
      message: `the ${needsBrowser ? 'browser ' : ''}script did not finish within the time limit of ${ctx.timeoutMs} ms and was stopped`,
      stack: '',
    };
  }
  if (exit.limit) return { code: SANDBOX_ERROR_CODES[exit.limit], message: sandboxLimitMessage('the script', exit.limit, sandbox), stack: '' };
  const last = logs.filter((l) => l.level === 'error').slice(-3).map((l) => l.message).join(' | ');
  return {
    code: 'RUNNER_CRASHED',
    message: `the script process exited (${exit.exitSignal ?? `code ${exit.exitCode}`}) before the script finished${last ? `: ${last}` : ''}`,
    stack: '',
  };
}

/** Moves the screenshots of a run into the assets folder under fresh names. */
async function keepAssets(
  folder: SandboxRunFolder, reported: string[], assetsDir: string, scrubName: (name: string) => string, log: (line: BrowserJobLogLine) => void,
): Promise<BrowserJobAsset[]> {
  const found = reported.map((name) => ({ name: path.basename(name), from: path.join(folder.host.shots, path.basename(name)) }));
  const saved = await readdir(folder.host.work, { withFileTypes: true }).catch(() => []);
  for (const entry of saved) {
    if (entry.isFile() && IMAGE_TYPES[path.extname(entry.name).toLowerCase()]) found.push({ name: entry.name, from: path.join(folder.host.work, entry.name) });
  }
  const note = (message: string) => log({ time: new Date().toISOString(), level: 'warn', source: 'runner', message });
  const kept: BrowserJobAsset[] = [];
  for (const { name, from } of found) {
    if (kept.length >= MAX_ASSETS) {
      note(`only the first ${MAX_ASSETS} screenshots are kept`);
      break;
    }
    // lstat: a link the script made (to the server's files) is not followed; only its own files are kept.
    const info = await lstat(from).catch(() => null);
    if (!info || !info.isFile() || info.size === 0) continue;
    if (info.size > MAX_ASSET_BYTES) {
      note(`screenshot ${scrubName(name)} is larger than ${MAX_ASSET_BYTES} bytes and was not kept`);
      continue;
    }
    const ext = path.extname(name).toLowerCase();
    const file = `${randomUUID()}${ext}`;
    await mkdir(assetsDir, { recursive: true });
    await moveFile(from, path.join(assetsDir, file));
    kept.push({ name: scrubName(name), type: 'screenshot', contentType: IMAGE_TYPES[ext] ?? 'application/octet-stream', size: info.size, file });
  }
  return kept;
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch {
    // Another file system (tmp and data on different mounts): copy instead.
    await copyFile(from, to);
  }
}

interface Finished {
  result?: ChildResult | null;
  failure?: ChildError | null;
  logs?: BrowserJobLogLine[];
  assets?: BrowserJobAsset[];
  elapsedMs?: number;
}

function finish(check: RunnableCheck, ctx: RunContext, startedAt: Date, f: Finished): ProbeResult {
  const stoppedAt = new Date();
  const reported = f.failure ?? f.result?.error ?? null;
  const error = reported ? { ...reported, message: capped(String(reported.message ?? '')), stack: String(reported.stack ?? '') } : null;
  const errors: ProbeError[] = [];
  const assertions: AssertionOutcome[] = [];
  if (error?.code === 'ASSERTION_FAILED' && error.assertion) assertions.push(assertionOf(error.assertion));
  else if (error) errors.push({ code: error.code, message: error.message });

  const runtimeVersion = typeof check.data.runtimeId === 'string' ? check.data.runtimeId : DEFAULT_RUNTIME_ID;
  const detail = {
    type: 'PLAYWRIGHT',
    runtimeVersion,
    playwrightVersion: PLAYWRIGHT_VERSION,
    browserVersion: f.result?.browserVersion ?? null,
    startedAt: startedAt.toISOString(),
    stoppedAt: stoppedAt.toISOString(),
    errors: error ? [{ code: error.code, message: error.message, stack: error.stack }] : [],
    jobLog: f.logs ?? [],
    jobAssets: f.assets ?? [],
    playwrightTestTraces: [],
  };
  // The script's own time; a run stopped from outside took as long as it ran; one that never started, 0.
  const scriptMs = f.result?.scriptMs;
  const responseTime = typeof scriptMs === 'number' ? scriptMs : f.failure ? (f.elapsedMs ?? 0) : 0;
  const probe = finishProbe(check, ctx, {
    startedAt,
    responseTime: Math.round(responseTime),
    errors,
    assertions,
    networkError: error?.code === 'SCRIPT_ERROR' && NETWORK_FAILURE.test(error.message),
    details: null,
  }, stoppedAt);
  const scrubbed = scrubDeep(detail, runScrubber(ctx.variables));
  return {
    ...probe,
    hasFailures: probe.hasFailures || errors.some((e) => RUNNER_FAILURE_CODES.has(e.code)),
    browserCheckResult: check.checkType === 'MULTI_STEP' ? null : scrubbed,
    multiStepCheckResult: check.checkType === 'MULTI_STEP' ? scrubbed : null,
  };
}

/** The child's description of a failed expect as an AssertionOutcome, whatever it sent. */
function assertionOf(a: Partial<AssertionOutcome>): AssertionOutcome {
  const text = (v: unknown) => (v === null || v === undefined ? null : capped(String(v)));
  return {
    source: String(a.source ?? 'SCRIPT'),
    property: text(a.property),
    comparison: String(a.comparison ?? 'expect'),
    target: typeof a.target === 'number' ? a.target : text(a.target),
    regex: text(a.regex),
    actual: text(a.actual),
    passed: false,
    ...(a.error ? { error: capped(String(a.error)) } : {}),
  };
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, fsConstants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function capped(text: string): string {
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
