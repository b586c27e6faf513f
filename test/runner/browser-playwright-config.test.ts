import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import { createBrowserCheckExecutor } from '../../src/runner/executors/run-browser-check.js';
import { defaultSandbox } from '../../src/runner/sandbox/default-sandbox.js';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

/**
 * A browser check's `playwrightConfig` (as the CLI sends it, merged from the project, the group and
 * the check) is what its page and request contexts are made with; scripts written as ES modules
 * or TypeScript import the project's files. The local target records what the browser sent.
 */

if (!chromiumInstalled) console.warn(`browser-playwright-config.test.ts: skipping, ${NO_CHROMIUM}`);

/** The page reports what the browser says about itself, as its title. */
const PAGE = `<!doctype html><html><head><title>pending</title></head><body>
<script>document.title = [innerWidth + 'x' + innerHeight, navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone].join(' ')</script>
</body></html>`;

let server: http.Server;
let origin: string;
let assetsDir: string;
const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/app/') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
    } else if (req.url === '/app/api/health') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, team: req.headers['x-team'] ?? null }));
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  assetsDir = await mkdtemp(path.join(tmpdir(), 'lookout-pwconfig-assets-'));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(assetsDir, { recursive: true, force: true });
});

const run = (type: 'BROWSER' | 'MULTI_STEP', data: Record<string, unknown>): Promise<ProbeResult> =>
  createBrowserCheckExecutor({ chromiumPath: CHROMIUM, assetsDir, sandbox: defaultSandbox() })(
    runnableCheck(type, data),
    runContext({ timeoutMs: 30_000 }),
  );

function detail(result: ProbeResult): { errors: { code: string; message: string; stack: string }[] } {
  return (result.browserCheckResult ?? result.multiStepCheckResult) as { errors: { code: string; message: string; stack: string }[] };
}

describe.skipIf(!chromiumInstalled)('playwrightConfig of a browser check', () => {
  it('opens the page with its baseURL, viewport, locale, time zone, user agent and extra headers', async () => {
    seen.length = 0;
    const result = await run('BROWSER', {
      scriptPath: '__checks__/home.spec.ts',
      script: [
        "import { test, expect } from '@playwright/test'",
        "test('home', async ({ page, request }) => {",
        "  await page.goto('/app/')",
        "  await expect(page).toHaveTitle('412x915 de-DE Europe/Berlin')",
        "  const health = await request.get('/app/api/health')",
        "  expect(await health.json()).toEqual({ ok: true, team: 'checkers' })",
        "})",
      ].join('\n'),
      playwrightConfig: {
        use: {
          baseURL: `${origin}/app/`,
          viewport: { width: 412, height: 915 },
          locale: 'de-DE',
          timezoneId: 'Europe/Berlin',
          userAgent: 'LookoutTest/1.0',
          extraHTTPHeaders: { 'X-Team': 'checkers' },
          actionTimeout: 5000,
          navigationTimeout: 10000,
        },
        expect: { timeout: 3000 },
        timeout: 20000,
      },
    });
    expect(detail(result).errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
    const page = seen.find((r) => r.url === '/app/');
    expect(page?.headers).toMatchObject({ 'x-team': 'checkers', 'user-agent': 'LookoutTest/1.0' });
    expect(page?.headers['accept-language']).toMatch(/^de-DE/);
    expect(seen.find((r) => r.url === '/app/api/health')?.headers).toMatchObject({ 'x-team': 'checkers', 'user-agent': 'LookoutTest/1.0' });
  });

  it('gives page.goto a relative path nowhere to go without a baseURL (what the config fixes)', async () => {
    const result = await run('BROWSER', { script: "await page.goto('/app/')" });
    expect(result.hasFailures).toBe(true);
    expect(result.errors[0]!.code).toBe('SCRIPT_ERROR');
    expect(result.errors[0]!.message).toMatch(/invalid url|Cannot navigate/i);
  });

  it('fails a slow expect at expect.timeout and names the limit', async () => {
    const result = await run('BROWSER', {
      script: "await page.goto('/app/')\nawait expect(page).toHaveTitle('never')",
      playwrightConfig: { use: { baseURL: `${origin}/app/` }, expect: { timeout: 300 } },
    });
    expect(result.hasFailures).toBe(true);
    expect(result.assertions[0]).toMatchObject({ comparison: 'toHaveTitle', passed: false });
    expect(detail(result).errors[0]!.message).toContain('Timeout: 300ms');
  });

  it('ends a script at playwrightConfig.timeout, well before the run\'s own limit', async () => {
    const result = await run('BROWSER', {
      script: "await page.goto('/app/')\nawait new Promise(() => {})",
      playwrightConfig: { use: { baseURL: `${origin}/app/` }, timeout: 1500 },
    });
    expect(result.errors[0]!.code).toBe('ETIMEDOUT');
    expect(result.errors[0]!.message).toBe('the script did not finish within playwrightConfig.timeout of 1500 ms');
  });
});

describe.skipIf(!chromiumInstalled)('browser scripts as ES modules with project files', () => {
  it('runs an ES module script that imports a helper driving the page', async () => {
    const result = await run('BROWSER', {
      scriptPath: 'tests/home.spec.mjs',
      script: "import { openHome } from './pages/home.mjs'\nconst title = await openHome(page)\nexpect(title).toBe('412x915 de-DE Europe/Berlin')\n",
      dependencies: [{ path: 'tests/pages/home.mjs', content: "export async function openHome(page) {\n  await page.goto('/app/')\n  return page.title()\n}\n" }],
      playwrightConfig: { use: { baseURL: `${origin}/app/`, viewport: { width: 412, height: 915 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' } },
    });
    expect(detail(result).errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
  });

  it('reports an error thrown in an imported TypeScript file at the user\'s file and line', async () => {
    const result = await run('BROWSER', {
      scriptPath: 'tests/login.spec.ts',
      script: "import { login } from './helpers/login'\nawait page.goto('/app/')\nawait login(page, 'ada')\n",
      dependencies: [{
        path: 'tests/helpers/login.ts',
        content: "import type { Page } from '@playwright/test'\n\nexport async function login(page: Page, user: string): Promise<void> {\n  throw new Error(`no login form for ${user} at ${page.url()}`)\n}\n",
      }],
      playwrightConfig: { use: { baseURL: `${origin}/app/` } },
    });
    expect(result.errors[0]!.code).toBe('SCRIPT_ERROR');
    expect(result.errors[0]!.message).toBe(`no login form for ada at ${origin}/app/`);
    const stack = detail(result).errors[0]!.stack.split('\n');
    expect(stack[0]).toMatch(/^at login \(tests\/helpers\/login\.ts:4:\d+\)$/);
    expect(stack[1]).toMatch(/tests\/login\.spec\.ts:3:\d+/);
  });
});
