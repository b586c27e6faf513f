import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, copyFile, lstat, mkdir, rename, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DEFAULT_RUNTIME_ID } from '../../domain/catalog.js';
import type { ProbeError, ProbeResult } from '../../domain/check-result.js';
import { isCodeBundleKey, storedFileName } from '../../domain/code-bundle-key.js';
import { playwrightTestRun } from '../../domain/playwright-test-command.js';
import { scrubDeep } from '../../domain/scrub-secrets.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { runScrubber } from '../run-scrubber.js';
import { SANDBOX_ERROR_CODES, type Sandbox, type SandboxExit } from '../sandbox/sandbox.js';
import { sandboxLimitMessage } from '../sandbox/sandbox-limit-message.js';
import { SANDBOX_PATHS } from '../sandbox/bwrap-arguments.js';
import { NODE_MODULES_DIR } from '../sandbox/sandbox-layout.js';
import { CHROMIUM_LAUNCH_ARGS, type BrowserJobAsset, type BrowserJobLogLine } from './run-browser-check.js';
import { finishProbe } from './finish-probe.js';
import { CANCELLED_CODE, TIMEOUT_CODE } from './network-error.js';

/** Debian's ffmpeg (`apt-get install ffmpeg`), which records the videos of Playwright check suites. */
export const DEFAULT_FFMPEG_PATH = '/usr/bin/ffmpeg';

/** Where Playwright check suites find their bundles and browser, and keep their files. */
export interface PlaywrightSuiteOptions {
  chromiumPath: string;
  /**
   * The ffmpeg Playwright records videos with (default DEFAULT_FFMPEG_PATH; it must lie under
   * /usr, which the sandbox shows). Missing at run time: suites run without videos and their log
   * says so.
   */
  ffmpegPath?: string;
  /** Folder the kept files (screenshots, traces, …) are moved to. */
  assetsDir: string;
  /** Folder of the uploaded files (`<dir>/<accountId>/code-bundle-<uuid>`), as the code bundle store keeps them. */
  storageDir: string;
  sandbox: Sandbox;
}

/** One test of a suite as the result reports it. */
export interface SuiteTest {
  title: string;
  titlePath: string[];
  file: string;
  line: number;
  project: string;
  /** Playwright's verdict: expected, unexpected, flaky or skipped. */
  outcome: string;
  /** Status of the last try: passed, failed, timedOut, skipped, interrupted. */
  status: string;
  durationMs: number;
  retries: number;
  errors: string[];
  stdout: string;
  /** Files kept of the test (asset file names in `jobAssets`). */
  assets: string[];
}

/** One Playwright project of a suite: what ran and how it went, or why it did not run. */
export interface SuiteProject {
  name: string;
  status: 'passed' | 'failed' | 'notRun';
  /** Why the project did not run (its browser is missing, or it depends on one that did not run). */
  reason: string | null;
  notes: string[];
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
}

interface ChildAttachment { name: string; contentType: string; path: string }
interface ChildTest extends Omit<SuiteTest, 'assets'> { attachments: ChildAttachment[] }
interface ChildReport {
  error?: { code: string; message: string };
  exitCode?: number | null;
  tests?: ChildTest[];
  projects?: { name: string; notRun: string | null; notes: string[] }[];
  errors?: string[];
}

const PLAYWRIGHT_VERSION: string = createRequire(import.meta.url)('@playwright/test/package.json').version;
const MAX_LOG_LINES = 2000;
const MAX_LOG_LINE_LENGTH = 2000;
const MAX_ASSETS = 40;
const MAX_ASSET_BYTES = 50 * 1024 * 1024;
/** Content types kept files are served with; any other is served as bytes (never as a page of the API's origin). */
const SERVED_TYPES = new Set(['image/png', 'image/jpeg', 'application/zip', 'video/webm', 'text/markdown', 'text/plain']);

/** Error codes of a suite that could not run at all: it never passes, not even with shouldFail. */
const RUNNER_FAILURES = new Set(['NO_CODE_BUNDLE', 'BUNDLE_ERROR', 'CONFIG_NOT_FOUND', 'TEST_COMMAND', 'NO_BROWSER', 'NO_TESTS_RUN', 'PLAYWRIGHT_ERROR', 'RUNNER_ERROR', 'RUNNER_CRASHED', SANDBOX_ERROR_CODES.unavailable]);

/**
 * The executor of PLAYWRIGHT check suites. Each attempt copies the check's code bundle (the
 * project archive `checkly deploy`/`checkly test` uploaded, `codeBundlePath`) into a run folder of
 * the sandbox, where playwright-suite-child.mjs extracts it and runs the runtime's @playwright/test
 * on the project's own config and tests (TypeScript included) with the arguments of
 * `testCommand` (`--project`, `--grep`, …). Chromium-based projects use the runtime's Chromium;
 * projects needing Firefox or WebKit are reported as not run with the reason, and do not fail the
 * check. Nothing is installed: `installCommand` is not run, the project's packages resolve from
 * the runtime (a missing one is named in the log). Videos (`use.video`, every Playwright mode) are
 * recorded with the runner's ffmpeg (`ffmpegPath`); without it they are off and the log says so.
 *
 * The result's `browserCheckResult` is the browser checks' shape plus `playwrightTestResults`
 * (`{projects: SuiteProject[], tests: SuiteTest[]}`) and `playwrightTestTraces`; screenshots,
 * traces, error contexts and other files the tests attached are kept as `jobAssets`. The check
 * fails when a test failed (unexpected), when Playwright reported an error, or when no test ran.
 */
export function createPlaywrightCheckExecutor(options: PlaywrightSuiteOptions): Executor {
  return async (check, ctx) => {
    const startedAt = new Date();
    try {
      return await attempt(options, check, ctx, startedAt);
    } catch (err) {
      ctx.logger.error({ err, checkId: check.id }, 'playwright suite executor failed unexpectedly');
      return finish(check, ctx, startedAt, { failure: { code: 'RUNNER_ERROR', message: `the suite could not run: ${messageOf(err)}` } });
    }
  };
}

async function attempt(options: PlaywrightSuiteOptions, check: RunnableCheck, ctx: RunContext, startedAt: Date): Promise<ProbeResult> {
  const key = check.data.codeBundlePath;
  if (!isCodeBundleKey(key)) {
    return finish(check, ctx, startedAt, { failure: { code: 'NO_CODE_BUNDLE', message: 'the suite has no code bundle (codeBundlePath): deploy it with the checkly CLI' } });
  }
  const bundle = path.join(options.storageDir, check.accountId, storedFileName(key));
  const info = await lstat(bundle).catch(() => null);
  if (!info?.isFile()) {
    return finish(check, ctx, startedAt, { failure: { code: 'NO_CODE_BUNDLE', message: `the code bundle ${key} is not stored on this runner: deploy the project again` } });
  }
  const run = playwrightTestRun(check.data.testCommand);
  if ('error' in run) return finish(check, ctx, startedAt, { failure: { code: 'TEST_COMMAND', message: `testCommand ${run.error}` } });
  if (!(await lstat(options.chromiumPath).catch(() => null))) {
    return finish(check, ctx, startedAt, {
      failure: { code: 'NO_BROWSER', message: `no Chromium browser at ${options.chromiumPath}: install it with \`apt-get install chromium\` or set LOOKOUT_CHROMIUM_PATH` },
    });
  }
  if (ctx.signal.aborted) return finish(check, ctx, startedAt, { failure: { code: CANCELLED_CODE, message: 'the run was cancelled before it started' } });
  const { sandbox } = options;
  if (sandbox.unavailable) {
    return finish(check, ctx, startedAt, { failure: { code: SANDBOX_ERROR_CODES.unavailable, message: `the suite cannot run: ${sandbox.unavailable} (LOOKOUT_SANDBOX)` } });
  }
  const ffmpegPath = options.ffmpegPath ?? DEFAULT_FFMPEG_PATH;
  const ffmpeg = await isExecutableFile(ffmpegPath);
  const folder = await sandbox.createRunFolder();
  try {
    await copyFile(bundle, path.join(folder.host.project, 'bundle.tar.gz'));
    const inBwrap = sandbox.mode === 'bwrap';
    const logs: BrowserJobLogLine[] = [];
    const addLog = (source: string, level: string, message: string) => {
      if (logs.length >= MAX_LOG_LINES) return;
      logs.push({ time: new Date().toISOString(), level, source, message: message.length > MAX_LOG_LINE_LENGTH ? `${message.slice(0, MAX_LOG_LINE_LENGTH)}…` : message });
    };
    // Playwright stops itself a little before the sandbox would, so its report is still written.
    const reserveMs = Math.min(30_000, Math.max(3_000, Math.round(ctx.timeoutMs * 0.1)));
    let report: ChildReport | null = null;
    const proc = folder.run({
      entry: 'playwright-suite-child.mjs',
      nodeArgs: ['--disable-warning=ExperimentalWarning'],
      job: {
        bundle: path.join(folder.inside.project, 'bundle.tar.gz'),
        work: folder.inside.work,
        workingDir: typeof check.data.workingDir === 'string' ? check.data.workingDir : '.',
        configPath: run.configPath,
        args: run.args,
        nodeModules: inBwrap ? SANDBOX_PATHS.nodeModules : NODE_MODULES_DIR,
        chromiumPath: options.chromiumPath,
        launchArgs: CHROMIUM_LAUNCH_ARGS.filter((a) => a !== '--headless'),
        ffmpegPath: ffmpeg ? ffmpegPath : null,
        ffmpegMissing: ffmpeg ? null : `this runner has no ffmpeg at ${ffmpegPath} (on Debian: apt-get install ffmpeg)`,
        variables: Object.fromEntries(ctx.variables.map((v) => [v.key, v.value])),
        globalTimeoutMs: Math.max(1_000, ctx.timeoutMs - reserveMs),
      },
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
      onOutput: (stream, line) => addLog('playwright', stream === 'stdout' ? 'info' : 'error', line),
      onMessage: (msg) => {
        if (msg.type === 'result' && !report) report = msg as ChildReport;
      },
    });
    const exit = await proc.done;
    const got = report as ChildReport | null;
    // What Lookout changed of a project (videos it cannot record, …) belongs in the log too.
    for (const p of got?.projects ?? []) for (const note of p.notes) addLog('runner', 'warn', `${p.name ? `project "${p.name}": ` : ''}${note}`);
    const scrub = runScrubber(ctx.variables);
    const kept = got?.tests ? await keepAttachments(got.tests, folder.host.work, options.assetsDir, scrub, (m) => addLog('runner', 'warn', m)) : null;
    return finish(check, ctx, startedAt, {
      report: got, failure: got ? null : exitFailure(exit, ctx, options.sandbox, logs), logs, assets: kept?.assets ?? [], testAssets: kept?.byTest ?? [],
    });
  } finally {
    await folder.close().catch((err: unknown) => ctx.logger.warn({ err, dir: folder.host.work }, 'could not remove the suite run folder'));
  }
}

/** Whether `file` is (or links to) a file this process may execute. */
async function isExecutableFile(file: string): Promise<boolean> {
  const info = await stat(file).catch(() => null);
  return !!info?.isFile() && (await access(file, constants.X_OK).then(() => true, () => false));
}

/** Why a run that reported nothing ended. */
function exitFailure(exit: SandboxExit, ctx: RunContext, sandbox: Sandbox, logs: BrowserJobLogLine[]): { code: string; message: string } {
  if (exit.startError) return { code: 'RUNNER_ERROR', message: `the suite process failed: ${exit.startError}` };
  if (exit.cancelled) return { code: CANCELLED_CODE, message: 'the run was cancelled' };
  if (exit.limit === 'time') return { code: TIMEOUT_CODE, message: `the suite did not finish within the time limit of ${ctx.timeoutMs} ms and was stopped` };
  if (exit.limit) return { code: SANDBOX_ERROR_CODES[exit.limit], message: sandboxLimitMessage('the suite', exit.limit, sandbox) };
  const last = logs.filter((l) => l.level === 'error').slice(-3).map((l) => l.message).join(' | ');
  return { code: 'RUNNER_CRASHED', message: `the suite process exited (${exit.exitSignal ?? `code ${exit.exitCode}`}) before reporting${last ? `: ${last}` : ''}` };
}

/** What kind of file a test attached, as `jobAssets` name it. */
function assetType(a: ChildAttachment): string {
  if (a.name === 'trace') return 'trace';
  if (a.contentType.startsWith('image/')) return 'screenshot';
  if (a.contentType.startsWith('video/')) return 'video';
  return 'attachment';
}

/** Moves the files the tests attached (inside the run's working folder only) into the assets folder under fresh names. */
async function keepAttachments(
  tests: ChildTest[], work: string, assetsDir: string, scrub: (text: string) => string, note: (message: string) => void,
): Promise<{ assets: (BrowserJobAsset & Record<string, unknown>)[]; byTest: string[][] }> {
  const assets: (BrowserJobAsset & Record<string, unknown>)[] = [];
  const byTest: string[][] = [];
  for (const t of tests) {
    const files: string[] = [];
    for (const a of t.attachments ?? []) {
      const from = path.resolve(work, a.path);
      const rel = path.relative(work, from);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (assets.length >= MAX_ASSETS) {
        note(`only the first ${MAX_ASSETS} files the tests attached are kept`);
        byTest.push(files);
        return { assets, byTest: [...byTest, ...tests.slice(byTest.length).map(() => [])] };
      }
      // lstat: a link the tests made (to the server's files) is not followed; only their own files are kept.
      const info = await lstat(from).catch(() => null);
      if (!info?.isFile() || info.size === 0) continue;
      if (info.size > MAX_ASSET_BYTES) {
        note(`${a.name} of "${t.title}" is larger than ${MAX_ASSET_BYTES} bytes and was not kept`);
        continue;
      }
      const ext = (path.extname(from).toLowerCase().match(/^\.[a-z0-9]{1,10}$/)?.[0]) ?? '.bin';
      const file = `${randomUUID()}${ext}`;
      await mkdir(assetsDir, { recursive: true });
      await rename(from, path.join(assetsDir, file)).catch(() => copyFile(from, path.join(assetsDir, file)));
      assets.push({
        name: scrub(`${a.name}${ext}`), type: assetType(a) as BrowserJobAsset['type'],
        contentType: SERVED_TYPES.has(a.contentType) ? a.contentType : 'application/octet-stream',
        size: info.size, file, test: scrub(t.title), project: t.project,
      });
      files.push(file);
    }
    byTest.push(files);
  }
  return { assets, byTest };
}

/** Per project: passed, failed or not run (with why), and its test counts. */
function projectsOf(report: ChildReport, tests: ChildTest[]): SuiteProject[] {
  const declared = report.projects ?? [];
  const names = [...new Set([...declared.map((p) => p.name), ...tests.map((t) => t.project)])];
  return names.map((name) => {
    const own = tests.filter((t) => t.project === name);
    const d = declared.find((p) => p.name === name);
    const count = (outcome: string) => own.filter((t) => t.outcome === outcome).length;
    const failed = count('unexpected');
    return {
      name, status: d?.notRun ? 'notRun' : failed > 0 ? 'failed' : 'passed', reason: d?.notRun ?? null, notes: d?.notes ?? [],
      passed: count('expected'), failed, flaky: count('flaky'), skipped: count('skipped'),
    };
  });
}

interface Finished {
  report?: ChildReport | null;
  failure?: { code: string; message: string } | null;
  logs?: BrowserJobLogLine[];
  assets?: BrowserJobAsset[];
  testAssets?: string[][];
}

function finish(check: RunnableCheck, ctx: RunContext, startedAt: Date, f: Finished): ProbeResult {
  const stoppedAt = new Date();
  const errors: ProbeError[] = [];
  const failure = f.failure ?? f.report?.error ?? null;
  if (failure) errors.push({ code: failure.code, message: failure.message });
  const tests = f.report?.tests ?? [];
  const projects = f.report && !f.report.error ? projectsOf(f.report, tests) : [];
  for (const message of f.report?.errors ?? []) errors.push({ code: 'PLAYWRIGHT_ERROR', message });
  for (const t of tests.filter((x) => x.outcome === 'unexpected')) {
    errors.push({ code: 'TEST_FAILED', message: `[${t.project}] › ${t.titlePath.join(' › ')}: ${t.errors[0]?.split('\n')[0] ?? t.status}` });
  }
  const ran = tests.some((t) => t.outcome !== 'skipped');
  if (f.report && !failure && !ran && errors.length === 0) {
    const notRun = projects.filter((p) => p.status === 'notRun').map((p) => `${p.name}: ${p.reason}`);
    errors.push({ code: 'NO_TESTS_RUN', message: `no test ran${notRun.length ? ` (${notRun.join('; ')})` : ': the config and testCommand select none'}` });
  }
  const runtimeVersion = typeof check.data.runtimeId === 'string' ? check.data.runtimeId : DEFAULT_RUNTIME_ID;
  const assets = f.assets ?? [];
  const detail = {
    type: 'PLAYWRIGHT',
    runtimeVersion,
    playwrightVersion: PLAYWRIGHT_VERSION,
    browserVersion: null,
    startedAt: startedAt.toISOString(),
    stoppedAt: stoppedAt.toISOString(),
    errors: errors.map((e) => ({ ...e, stack: '' })),
    jobLog: f.logs ?? [],
    jobAssets: assets,
    playwrightTestTraces: assets.filter((a) => a.type === ('trace' as string)),
    playwrightTestVideos: assets.filter((a) => a.type === ('video' as string)),
    playwrightTestResults: {
      projects,
      tests: tests.map(({ attachments: _attachments, ...t }, i) => ({ ...t, assets: f.testAssets?.[i] ?? [] })),
    },
  };
  const responseTime = stoppedAt.getTime() - startedAt.getTime();
  const probe = finishProbe(check, ctx, { startedAt, responseTime, errors, assertions: [], networkError: false, details: null }, stoppedAt);
  return {
    ...probe,
    hasFailures: probe.hasFailures || errors.some((e) => RUNNER_FAILURES.has(e.code)),
    browserCheckResult: scrubDeep(detail, runScrubber(ctx.variables)),
    multiStepCheckResult: null,
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
