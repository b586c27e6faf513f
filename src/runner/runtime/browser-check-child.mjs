// Runs one browser or multi-step script in the sandbox (run-browser-check.ts) and reports to the
// runner. Plain JavaScript so it starts under bare `node` (no loader). The runner owns the time
// limit and kills this process and the browser it started once the result is in (or time is up).
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import vm from 'node:vm';
import { createExpect, ExpectationError } from './browser-expect.mjs';
import { contextOptionsOf, requestOptionsOf } from './playwright-options.mjs';
import { readJob, send } from './runner-channel.mjs';
import { userFrames } from './user-frames.mjs';

const nodeRequire = createRequire(import.meta.url);

/** Name scripts have in stack traces and syntax errors. */
const SCRIPT_FILE = 'script.js';

let finished = false;
let onCrash = (err) => finish({ error: describeError(err) });

function log(source, level, message) {
  send({ type: 'log', source, level, message });
}

for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  console[level] = (...args) => log('script', level, format(...args));
}
process.on('uncaughtException', (err) => onCrash(err));
process.on('unhandledRejection', (err) => onCrash(err));

function finish(result) {
  if (finished) return;
  finished = true;
  send({ type: 'result', ...result });
}


/**
 * job: {script, projectDir (the folder holding the check's project files and the bundle), needsBrowser, chromiumPath, launchArgs, variables, deadlineAt (epoch ms by which
 * the script must be done), timeoutMs (for messages), timeoutCode (the error code of a run out of
 * time), actionTimeoutMs, screenshotTimeoutMs, shotsDir, playwrightConfig (the check's: `use`, `expect`,
 * `timeout`, keys already held to what this runner applies), and for a bundled script (TypeScript,
 * ES modules, project files) bundlePath: the ES module bundle-user-script.ts built, whose inline
 * source map names the project's files (node runs with --enable-source-maps)}.
 */
async function main(job) {
  let run;
  if (job.bundlePath) {
    bundledIn = job.projectDir;
    run = () => import(pathToFileURL(job.bundlePath).href);
  } else {
    try {
      run = compile(job.script);
    } catch (err) {
      return finish({ error: describeSyntaxError(err) });
    }
  }
  const config = job.playwrightConfig ?? {};
  const use = config.use ?? {};
  // Loaded after the compile (it takes a good part of a second) so a syntax error comes back at once.
  const { chromium, request: apiRequest, selectors } = nodeRequire('playwright-core');
  if (use.testIdAttribute) selectors.setTestIdAttribute(use.testIdAttribute);

  // Captured before the run's variables are added: the browser gets the sandbox environment only.
  const browserEnv = { ...process.env };
  const rt = { browser: null, context: null, page: null, browserVersion: null };
  const ensureBrowser = async () => {
    if (!rt.browser || !rt.browser.isConnected()) {
      rt.browser = await chromium.launch({
        executablePath: job.chromiumPath,
        headless: true,
        args: job.launchArgs,
        env: browserEnv,
        timeout: Math.max(1, job.deadlineAt - Date.now()),
      });
      rt.browserVersion = rt.browser.version();
    }
    return rt.browser;
  };

  if (job.needsBrowser) {
    try {
      await ensureBrowser();
      rt.context = await rt.browser.newContext(contextOptionsOf(use));
      // The check's own timeouts, never past the run's: the runner still owns the time limit.
      rt.context.setDefaultTimeout(Math.min(use.actionTimeout || job.actionTimeoutMs, job.actionTimeoutMs));
      if (use.navigationTimeout) rt.context.setDefaultNavigationTimeout(Math.min(use.navigationTimeout, job.actionTimeoutMs));
      rt.context.on('page', watchPage);
      rt.page = await rt.context.newPage();
    } catch (err) {
      const timedOut = Date.now() >= job.deadlineAt;
      return finish({
        browserVersion: rt.browserVersion,
        error: {
          code: timedOut ? job.timeoutCode : 'BROWSER_LAUNCH_FAILED',
          message: timedOut
            ? `the browser did not start within the time limit of ${job.timeoutMs} ms`
            : `Chromium at ${job.chromiumPath} could not be started: ${err instanceof Error ? err.message : String(err)}`,
          stack: '',
        },
      });
    }
  }
  const request = await apiRequest.newContext({ ...requestOptionsOf(use), timeout: Math.min(use.actionTimeout || job.actionTimeoutMs, job.actionTimeoutMs) });

  const expect = createExpect(config.expect?.timeout !== undefined ? { timeout: config.expect.timeout } : {});
  const registry = createTestRegistry();
  const chromiumShim = { name: () => 'chromium', launch: () => ensureBrowser() };
  const modules = {
    '@playwright/test': { test: registry.test, expect, chromium: chromiumShim, request: apiRequest },
    playwright: { chromium: chromiumShim, request: apiRequest },
    'playwright-core': { chromium: chromiumShim, request: apiRequest },
  };
  const packageRequire = (id) => {
    if (isBuiltin(id)) return nodeRequire(id);
    if (Object.hasOwn(modules, id)) return modules[id];
    throw new Error(`Cannot require "${id}": scripts may require Node.js built-in modules, @playwright/test and the project's own files only`);
  };
  // Relative ids resolve from the entry's place in the project to the check's dependency files.
  // A plain script (not bundled) has no project files: a relative path names nothing it was sent.
  const scriptRequire = (id) => {
    if (typeof id === 'string' && /^\.{0,2}\//.test(id)) throw new Error(`Cannot require "${id}": the check has no project files (dependencies) to load it from`);
    return packageRequire(id);
  };
  const globals = {
    page: rt.page, context: rt.context, browser: rt.browser, request, expect, test: registry.test,
    // A bundle has the project's files inside it; what it still asks for (packages, built-ins) comes from here.
    require: scriptRequire, __lookoutRequire: packageRequire,
  };
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
  Object.assign(process.env, job.variables);

  const t0 = performance.now();
  // playwrightConfig.timeout bounds the script (Playwright's test timeout) within the run's own limit.
  const ownLimit = config.timeout ? Date.now() + config.timeout : Infinity;
  const deadlineAt = Math.min(job.deadlineAt, ownLimit);
  const outcome = await within(deadlineAt, async () => {
    await run();
    await registry.runAll({ page: rt.page, context: rt.context, browser: rt.browser, request, browserName: 'chromium' });
  });
  const scriptMs = performance.now() - t0;

  let error = null;
  if (outcome.timedOut) {
    const limit = deadlineAt === ownLimit ? `playwrightConfig.timeout of ${config.timeout} ms` : `the time limit of ${job.timeoutMs} ms`;
    error = { code: job.timeoutCode, message: `the script did not finish within ${limit}`, stack: '' };
  } else if (!outcome.ok) {
    error = describeError(outcome.error);
  } else {
    const soft = expect.softFailures();
    if (soft.length > 0) error = describeError(soft[0]);
  }

  const screenshots = [];
  const target = pageToCapture(rt);
  if (target) {
    const name = error ? 'failure.png' : 'final.png';
    try {
      await target.screenshot({ path: path.join(job.shotsDir, name), timeout: job.screenshotTimeoutMs });
      screenshots.push(name);
    } catch (err) {
      log('runner', 'warn', `no ${name} screenshot: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  finish({ error, screenshots, scriptMs, browserVersion: rt.browserVersion });
}

/** Resolves with the work's outcome, or {timedOut} at `deadlineAt`, or the first uncaught error. */
function within(deadlineAt, work) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ timedOut: true }), Math.max(0, deadlineAt - Date.now()));
    const settle = (outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    };
    onCrash = (err) => settle({ ok: false, error: err });
    work().then(() => settle({ ok: true }), (err) => settle({ ok: false, error: err }));
  });
}

function watchPage(page) {
  page.on('console', (msg) => {
    const type = msg.type();
    const level = type === 'warning' ? 'warn' : ['error', 'info', 'debug'].includes(type) ? type : 'log';
    log('page', level, msg.text());
  });
  page.on('pageerror', (err) => log('page', 'error', `Uncaught ${err.name}: ${err.message}`));
  page.on('requestfailed', (req) => log('page', 'warn', `request failed: ${req.method()} ${req.url()} ${req.failure()?.errorText ?? ''}`.trim()));
}

/** The page the script left on screen: `page` if it is still open, else the newest open one. */
function pageToCapture(rt) {
  const candidates = [rt.page];
  try {
    for (const context of rt.browser?.contexts() ?? []) candidates.push(...context.pages().slice().reverse());
  } catch {
    // The script closed the browser: nothing left to capture.
  }
  return candidates.find((p) => p && !p.isClosed() && p.url() !== 'about:blank') ?? null;
}

/**
 * A plain script (no ES module syntax, no TypeScript, no project files: those are bundled) as an
 * async function: it runs as the body, so top-level `await` and `return` work.
 */
function compile(script) {
  const source = `(async function () {\n${script}\n})`;
  return new vm.Script(source, {
    filename: SCRIPT_FILE,
    lineOffset: -1,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }).runInThisContext();
}

/** The run's project folder when the script runs bundled (its frames are mapped to the project's files there). */
let bundledIn = null;

/** Lines of a stack trace that point into the script or its files (the runner's own frames say nothing). */
function scriptFrames(stack) {
  if (bundledIn) return userFrames(stack, bundledIn).join('\n');
  return String(stack ?? '').split('\n').filter((l) => l.includes(`${SCRIPT_FILE}:`)).map((l) => l.trim()).join('\n');
}

function describeError(err) {
  if (err instanceof ExpectationError) {
    return { code: 'ASSERTION_FAILED', message: err.message, stack: scriptFrames(err.stack), assertion: err.outcome };
  }
  if (err instanceof Error) {
    const message = err.name && err.name !== 'Error' ? `${err.name}: ${err.message}` : err.message;
    return { code: 'SCRIPT_ERROR', message, stack: scriptFrames(err.stack) };
  }
  return { code: 'SCRIPT_ERROR', message: `thrown: ${format(err)}`, stack: '' };
}

/** A SyntaxError of vm.Script: its stack starts with "script.js:LINE", the line and a caret. */
function describeSyntaxError(err) {
  const stack = String(err?.stack ?? '');
  const where = stack.match(new RegExp(`^${SCRIPT_FILE.replace('.', '\\.')}:(\\d+)`));
  const location = where ? ` (${SCRIPT_FILE}:${where[1]})` : '';
  return {
    code: 'SCRIPT_SYNTAX_ERROR',
    message: `${err?.name ?? 'SyntaxError'}: ${err?.message ?? String(err)}${location}`,
    stack: where ? stack.split('\n\n')[0] : '',
  };
}

/**
 * The `test` of `@playwright/test`, enough for checks written as Playwright tests: test,
 * test.only, test.skip/fixme, test.describe (and .serial/.parallel/.only/.skip/.configure),
 * test.step, the four hooks, and no-op test.setTimeout/test.slow. Tests run one after another
 * after the script body, all on the same page; test.use is refused rather than ignored.
 */
function createTestRegistry() {
  const tests = [];
  const hooks = { beforeAll: [], beforeEach: [], afterEach: [], afterAll: [] };
  const titles = [];
  const fnOf = (a, b) => (typeof a === 'function' ? a : b);
  const add = (only) => (title, a, b) => {
    const fn = typeof title === 'function' ? title : fnOf(a, b);
    const name = typeof title === 'string' ? title : '(untitled)';
    if (typeof fn !== 'function') throw new TypeError(`test("${name}") needs a function`);
    tests.push({ title: [...titles, name].filter(Boolean).join(' › '), fn, only });
  };
  const test = add(false);
  test.only = add(true);
  test.skip = (title, a, b) => {
    if (typeof title === 'string' && typeof fnOf(a, b) === 'function') log('runner', 'info', `test skipped: ${title}`);
  };
  test.fixme = test.skip;
  const describe = (title, fn) => {
    const body = typeof title === 'function' ? title : fn;
    titles.push(typeof title === 'string' ? title : '');
    try {
      body();
    } finally {
      titles.pop();
    }
  };
  describe.only = describe;
  describe.serial = describe;
  describe.parallel = describe;
  describe.skip = (title) => log('runner', 'info', `tests skipped: ${typeof title === 'string' ? title : ''}`);
  describe.configure = () => {};
  test.describe = describe;
  test.step = async (title, body) => {
    log('runner', 'info', `step: ${title}`);
    return body();
  };
  for (const hook of Object.keys(hooks)) test[hook] = (a, b) => hooks[hook].push(fnOf(a, b));
  test.setTimeout = () => {};
  test.slow = () => {};
  test.use = () => {
    throw new Error('test.use is not supported by this runner: configure the page in the test instead');
  };

  const runAll = async (fixtures) => {
    const selected = tests.some((t) => t.only) ? tests.filter((t) => t.only) : tests;
    if (selected.length === 0) return;
    for (const hook of hooks.beforeAll) await hook(fixtures);
    for (const t of selected) {
      log('runner', 'info', `test: ${t.title}`);
      for (const hook of hooks.beforeEach) await hook(fixtures, { title: t.title });
      await t.fn(fixtures, { title: t.title });
      for (const hook of hooks.afterEach) await hook(fixtures, { title: t.title });
    }
    for (const hook of hooks.afterAll) await hook(fixtures);
  };
  return { test, runAll };
}

// Last, once every declaration above is initialised.
main(readJob()).catch((err) => finish({ error: { ...describeError(err), code: 'RUNNER_ERROR' } }));
