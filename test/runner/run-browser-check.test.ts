import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import type { RunVariable } from '../../src/runner/executor.js';
import {
  createBrowserCheckExecutor, runBrowserCheck, type BrowserJobAsset, type BrowserJobLogLine,
} from '../../src/runner/executors/run-browser-check.js';
import { TIMEOUT_CODE } from '../../src/runner/executors/network-error.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';
import { createSandbox } from '../../src/runner/sandbox/create-sandbox.js';
import type { Sandbox } from '../../src/runner/sandbox/sandbox.js';
import { loadConfig } from '../../src/config.js';
import pino from 'pino';

if (!chromiumInstalled) console.warn(`run-browser-check.test.ts: skipping the browser tests, ${NO_CHROMIUM}`);

const PAGE = `<!doctype html>
<html><head><title>Lookout test page</title></head>
<body>
  <h1>Welcome</h1>
  <button id="toggle" onclick="this.textContent = 'Clicked'">Click me</button>
  <script>console.log('page says hello')</script>
</body></html>`;
const SECRET = 'tok-5b1f9e27c4a8';

let server: http.Server;
let baseUrl: string;
let assetsDir: string;
/** The runner's temporary folders go here, and its runs have user ids from UID_BASE, so leftovers of this file's runs can be found. */
let runTmp: string;
let savedTmpdir: string | undefined;
const UID_BASE = 300_000 + (process.pid % 10_000) * 10;
let sandbox: Sandbox;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/api/status') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'ok' }));
    } else if (req.url === '/api/secure') {
      const ok = req.headers.authorization === `Bearer ${SECRET}`;
      res.statusCode = ok ? 200 : 401;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ authorized: ok }));
    } else if (req.url === '/') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  assetsDir = await mkdtemp(path.join(tmpdir(), 'lookout-assets-test-'));
  runTmp = await mkdtemp(path.join(tmpdir(), 'lookout-runs-test-'));
  // The runs' own users pass through it to their folders.
  await chmod(runTmp, 0o711);
  const config = loadConfig();
  sandbox = createSandbox({
    settings: { ...config.sandbox, uidBase: UID_BASE }, chromiumPath: CHROMIUM, protectedPaths: [], scratchDir: runTmp,
    logger: pino({ level: 'silent' }),
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(assetsDir, { recursive: true, force: true });
  sandbox.close();
  await rm(runTmp, { recursive: true, force: true });
});

beforeEach(() => {
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = runTmp;
});

afterEach(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
});

const run = (type: 'BROWSER' | 'MULTI_STEP', script: string, opts: { timeoutMs?: number; variables?: RunVariable[]; data?: Record<string, unknown> } = {}) =>
  createBrowserCheckExecutor({ chromiumPath: CHROMIUM, assetsDir, sandbox })(
    runnableCheck(type, { script, ...opts.data }),
    runContext({
      timeoutMs: opts.timeoutMs ?? 25_000,
      variables: [{ key: 'BASE_URL', value: baseUrl, secret: false }, ...(opts.variables ?? [])],
    }),
  );

function detail(result: ProbeResult): { errors: { code: string; message: string; stack: string }[]; jobLog: BrowserJobLogLine[]; jobAssets: BrowserJobAsset[] } & Record<string, any> {
  return (result.browserCheckResult ?? result.multiStepCheckResult) as any;
}

/** Run folders left in runTmp (the sandbox's own folder stays until it is closed). */
async function leftRunFolders(): Promise<string[]> {
  return (await readdir(runTmp)).filter((name) => !name.startsWith('lookout-sandbox-'));
}

/** Processes (not yet reaped zombies excluded) started by this file's runs: their folders are under runTmp, their users from UID_BASE (or this process's, with the sandbox off). */
function liveRunProcesses(): number[] {
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        // Not ours to inspect.
      }
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      if (cmdline.includes(runTmp) || cwd.startsWith(runTmp) || (uid >= UID_BASE && uid < UID_BASE + 10)) live.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return live;
}

describe.skipIf(!chromiumInstalled)(`browser and multi-step checks with Chromium${chromiumInstalled ? '' : ` (skipped: ${NO_CHROMIUM})`}`, () => {
  it('passes a browser script that loads the page, checks the title and clicks the button, keeping a final PNG screenshot', async () => {
    const result = await run('BROWSER', `
      await page.goto(process.env.BASE_URL);
      console.log('opened', page.url());
      await expect(page).toHaveTitle('Lookout test page');
      await expect(page.locator('h1')).toBeVisible();
      await page.click('#toggle');
      await expect(page.locator('#toggle')).toHaveText('Clicked');
    `);
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ hasFailures: false, hasErrors: false, networkError: false, multiStepCheckResult: null });
    const d = detail(result);
    expect(d).toMatchObject({ type: 'PLAYWRIGHT', runtimeVersion: '2025.04', errors: [], playwrightTestTraces: [] });
    expect(d.browserVersion).toMatch(/^\d+\./);
    expect(d.jobLog).toContainEqual(expect.objectContaining({ source: 'page', message: 'page says hello' }));
    expect(d.jobLog).toContainEqual(expect.objectContaining({ source: 'script', level: 'log', message: `opened ${baseUrl}` }));
    expect(d.jobAssets).toHaveLength(1);
    const [shot] = d.jobAssets;
    expect(shot).toMatchObject({ name: 'final.png', type: 'screenshot', contentType: 'image/png' });
    expect(shot!.file).toMatch(/^[0-9a-f-]{36}\.png$/);
    const png = await readFile(path.join(assetsDir, shot!.file));
    expect(png.length).toBe(shot!.size);
    expect(png.length).toBeGreaterThan(100);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('fails the run on a failing expect with the expected and received values, as a failed assertion and not an error', async () => {
    const result = await run('BROWSER', `
      await page.goto(process.env.BASE_URL);
      await expect(page).toHaveTitle('Wrong title', { timeout: 300 });
    `);
    expect(result).toMatchObject({ hasFailures: true, hasErrors: false, errors: [] });
    expect(result.assertions).toEqual([expect.objectContaining({
      source: 'SCRIPT', property: 'expect(page)', comparison: 'toHaveTitle', target: 'Wrong title', actual: 'Lookout test page', passed: false,
    })]);
    const d = detail(result);
    expect(d.errors).toHaveLength(1);
    expect(d.errors[0]!.code).toBe('ASSERTION_FAILED');
    expect(d.errors[0]!.message).toContain('Expected: "Wrong title"');
    expect(d.errors[0]!.message).toContain('Received: "Lookout test page"');
    expect(d.errors[0]!.stack).toMatch(/script\.js:3:/);
    expect(d.jobAssets.map((a) => a.name)).toEqual(['failure.png']);
  });

  it('reports a script error with its message and the script line', async () => {
    const result = await run('BROWSER', `await page.goto(process.env.BASE_URL);\nawait page.click('#missing', { timeout: 200 });`);
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: false });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.code).toBe('SCRIPT_ERROR');
    expect(result.errors[0]!.message).toContain('#missing');
    expect(detail(result).errors[0]!.stack).toMatch(/script\.js:2:/);
  });

  it('marks a page that cannot be reached as a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await run('BROWSER', `await page.goto('http://127.0.0.1:${port}/');`);
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: true });
    expect(result.errors[0]!.message).toContain('net::ERR_CONNECTION_REFUSED');
  });

  it('stops a script that never finishes at the time limit with ETIMEDOUT and leaves no browser process behind', async () => {
    const result = await run('BROWSER', `await page.goto(process.env.BASE_URL);\nawait new Promise(() => {});`, { timeoutMs: 5000 });
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true });
    expect(result.errors.map((e) => e.code)).toEqual([TIMEOUT_CODE]);
    expect(result.errors[0]!.message).toContain('5000 ms');
    await vi.waitFor(() => expect(liveRunProcesses()).toEqual([]), { timeout: 5000, interval: 50 });
    expect(await leftRunFolders()).toEqual([]);
  });

  it('kills a script stuck in a synchronous loop, with its browser, at the time limit', async () => {
    // A blocked event loop cannot report by itself: the runner's hard limit kills it. The limit is
    // generous so that even a slow browser start reaches the loop before the script's own deadline.
    const result = await run('BROWSER', `await page.goto(process.env.BASE_URL);\nwhile (true) {}`, { timeoutMs: 10_000 });
    expect(result.errors.map((e) => e.code)).toEqual([TIMEOUT_CODE]);
    expect(result.errors[0]!.message).toContain('was stopped');
    await vi.waitFor(() => expect(liveRunProcesses()).toEqual([]), { timeout: 5000, interval: 50 });
    expect(await leftRunFolders()).toEqual([]);
  });

  it('runs checks written as Playwright tests with import { test, expect } from @playwright/test', async () => {
    const result = await run('BROWSER', [
      "import { test, expect } from '@playwright/test'",
      '',
      "test.describe('home', () => {",
      "  test('shows the button', async ({ page }) => {",
      '    await page.goto(process.env.BASE_URL)',
      "    await test.step('click', async () => page.getByRole('button', { name: 'Click me' }).click())",
      "    await expect(page.getByRole('button')).toHaveText('Clicked')",
      '  })',
      '})',
    ].join('\n'));
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
    expect(detail(result).jobLog).toContainEqual(expect.objectContaining({ source: 'runner', message: 'test: home › shows the button' }));
  });

  it('keeps values of secret variables out of the logs, errors and asset names it stores', async () => {
    const result = await run('BROWSER', `
      console.log('token is', process.env.API_TOKEN);
      const res = await request.get(process.env.BASE_URL + 'api/secure', { headers: { Authorization: 'Bearer ' + process.env.API_TOKEN } });
      expect(res.status()).toBe(200);
      await page.goto(process.env.BASE_URL);
      await page.evaluate((t) => console.log('page saw ' + t), process.env.API_TOKEN);
      await page.screenshot({ path: process.env.API_TOKEN + '.png' });
      throw new Error('rejected token ' + process.env.API_TOKEN);
    `, { variables: [{ key: 'API_TOKEN', value: SECRET, secret: true }] });
    expect(result.errors.map((e) => e.code)).toEqual(['SCRIPT_ERROR']);
    expect(result.errors[0]!.message).toBe('rejected token *****');
    const d = detail(result);
    expect(d.jobLog).toContainEqual(expect.objectContaining({ source: 'script', message: 'token is *****' }));
    expect(d.jobLog).toContainEqual(expect.objectContaining({ source: 'page', message: 'page saw *****' }));
    expect(d.jobAssets.map((a) => a.name).sort()).toEqual(['*****.png', 'failure.png']);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect((await readdir(assetsDir)).join(' ')).not.toContain(SECRET);
  });

  it('runs a multi-step script with request against the local server, without starting a browser', async () => {
    const result = await run('MULTI_STEP', `
      const res = await request.get(process.env.BASE_URL + 'api/status');
      expect(res.ok()).toBeTruthy();
      expect(res).toBeOK();
      expect(await res.json()).toEqual({ status: 'ok' });
    `);
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ hasFailures: false, hasErrors: false, browserCheckResult: null });
    expect(result.multiStepCheckResult).toMatchObject({ type: 'PLAYWRIGHT', browserVersion: null, jobAssets: [], errors: [] });
  });

  it('fails a multi-step script whose request assertion fails', async () => {
    const result = await run('MULTI_STEP', `
      const res = await request.get(process.env.BASE_URL + 'api/missing');
      expect(res.status(), 'the status endpoint answers').toBe(200);
    `);
    expect(result).toMatchObject({ hasFailures: true, hasErrors: false });
    expect(result.assertions[0]).toMatchObject({ comparison: 'toBe', target: '200', actual: '404', error: 'the status endpoint answers' });
  });

  it('starts Chromium for a multi-step script that uses the page', async () => {
    const result = await run('MULTI_STEP', `await page.goto(process.env.BASE_URL);\nawait expect(page).toHaveURL(process.env.BASE_URL);`);
    expect(result.errors).toEqual([]);
    expect(result.multiStepCheckResult).toMatchObject({ browserVersion: expect.stringMatching(/^\d+\./) });
    expect((result.multiStepCheckResult as any).jobAssets.map((a: BrowserJobAsset) => a.name)).toEqual(['final.png']);
  });
});

describe('browser and multi-step checks without a runnable browser or script', () => {
  let savedChromium: string | undefined;
  beforeEach(() => {
    savedChromium = process.env.LOOKOUT_CHROMIUM_PATH;
    process.env.LOOKOUT_CHROMIUM_PATH = path.join(tmpdir(), 'no-such-dir', 'chromium');
  });
  afterEach(() => {
    if (savedChromium === undefined) delete process.env.LOOKOUT_CHROMIUM_PATH;
    else process.env.LOOKOUT_CHROMIUM_PATH = savedChromium;
  });

  it('fails with NO_BROWSER naming LOOKOUT_CHROMIUM_PATH when the Chromium binary is missing, even with shouldFail', async () => {
    const check = runnableCheck('BROWSER', { script: 'await page.goto("http://127.0.0.1/")', shouldFail: true });
    const result = await runBrowserCheck(check, runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, multiStepCheckResult: null });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.code).toBe('NO_BROWSER');
    expect(result.errors[0]!.message).toContain(process.env.LOOKOUT_CHROMIUM_PATH);
    expect(result.errors[0]!.message).toContain('LOOKOUT_CHROMIUM_PATH');
    expect(result.errors[0]!.message).toContain('apt-get install chromium');
    expect(result.browserCheckResult).toMatchObject({ browserVersion: null, errors: [expect.objectContaining({ code: 'NO_BROWSER' })], jobAssets: [] });
  });

  it('still runs a request-only multi-step script when no browser is installed', async () => {
    const check = runnableCheck('MULTI_STEP', { script: "const { createHash } = require('node:crypto');\nexpect(createHash('sha1').update('x').digest('hex')).toHaveLength(40);" });
    const result = await runBrowserCheck(check, runContext({ timeoutMs: 20_000 }));
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
  });

  it('reports a syntax error with SCRIPT_SYNTAX_ERROR and the line, before any browser is needed', async () => {
    const check = runnableCheck('MULTI_STEP', { script: 'const a = 1;\nconst b = ;' });
    const result = await runBrowserCheck(check, runContext({ timeoutMs: 20_000 }));
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, responseTime: 0 });
    expect(result.errors[0]!.code).toBe('SCRIPT_SYNTAX_ERROR');
    expect(result.errors[0]!.message).toContain('script.js:2');
    expect((result.multiStepCheckResult as any).errors[0].stack).toContain('const b = ;');
  });

  it('refuses modules other than the Node.js built-ins with a clear error', async () => {
    const check = runnableCheck('MULTI_STEP', { script: "require('pg');" });
    const result = await runBrowserCheck(check, runContext({ timeoutMs: 20_000 }));
    expect(result.errors[0]!.code).toBe('SCRIPT_ERROR');
    expect(result.errors[0]!.message).toContain('Cannot require "pg"');
  });

  it('stops a request-only multi-step script at the time limit', async () => {
    const check = runnableCheck('MULTI_STEP', { script: 'await new Promise(() => {});' });
    const result = await runBrowserCheck(check, runContext({ timeoutMs: 3000 }));
    expect(result.errors.map((e) => e.code)).toEqual([TIMEOUT_CODE]);
  });

  it('ends a run with CANCELLED when its signal is aborted', async () => {
    const controller = new AbortController();
    const check = runnableCheck('MULTI_STEP', { script: "console.log('started');\nawait new Promise(() => {});" });
    const pending = runBrowserCheck(check, { ...runContext({ timeoutMs: 20_000 }), signal: controller.signal });
    controller.abort();
    const result = await pending;
    expect(result.errors.map((e) => e.code)).toEqual(['CANCELLED']);
    expect(result.hasFailures).toBe(true);
  });

  it.each([
    ['a missing script', undefined],
    ['an empty script', '   '],
  ])('fails with NO_SCRIPT for %s', async (_label, script) => {
    const result = await runBrowserCheck(runnableCheck('BROWSER', { script, shouldFail: true }), runContext());
    expect(result.errors.map((e) => e.code)).toEqual(['NO_SCRIPT']);
    expect(result.hasFailures).toBe(true);
  });
});
