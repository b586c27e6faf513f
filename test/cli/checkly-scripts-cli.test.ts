import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';

/**
 * A project written as Checkly users write them, through the real CLI: an API check whose
 * TypeScript setup script imports a project file and awaits at its top level (the CLI's own
 * example), and a browser check that relies on the project's `playwrightConfig` (baseURL, extra
 * headers, locale, viewport) — by `checkly test`, and by `checkly deploy` then `checkly trigger`.
 * A local site records what the checks sent.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
if (!chromiumInstalled) console.warn(`checkly-scripts-cli.test.ts: skipping, ${NO_CHROMIUM}`);

const config = (use: Record<string, unknown>) => `import { defineConfig } from 'checkly'
export default defineConfig({
  projectName: 'Scripts as written',
  logicalId: 'scripts-as-written',
  checks: {
    checkMatch: '**/*.check.ts', frequency: 10, locations: ['eu-central-1'],
    playwrightConfig: { use: ${JSON.stringify(use)}, expect: { timeout: 4000 } },
  },
  cli: { runLocation: 'eu-central-1' },
})
`;

const CHECKS = `import { ApiCheck, BrowserCheck } from 'checkly/constructs'
new ApiCheck('orders-api', {
  name: 'Orders API',
  setupScript: { entrypoint: './setup.ts' },
  request: {
    url: process.env.SITE_URL + '/api/orders', method: 'GET',
    assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }],
  },
})
new BrowserCheck('home-browser', { name: 'Home page', code: { entrypoint: './home.spec.ts' } })
`;

const SETUP = `import { getToken } from './utils/auth-client'

async function setup(): Promise<void> {
  const token: string = await getToken()
  request.headers['Authorization'] = \`Bearer \${token}\`
}

await setup()
`;

const AUTH_CLIENT = `export async function getToken(): Promise<string> {
  const parts: string[] = ['tok', 'from', 'helper']
  return parts.join('-')
}
`;

const SPEC = `import { test, expect } from '@playwright/test'
import { HOME_TITLE } from './utils/site'

test('the home page greets in German on a phone', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle(HOME_TITLE)
})
`;

describe.skipIf(!chromiumInstalled)('scripts as users write them, through the real checkly CLI', () => {
  let server: TestServer;
  let site: http.Server;
  let siteUrl: string;
  let home: string;
  let project: string;
  const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      if (req.url === '/api/orders') {
        res.statusCode = req.headers.authorization === 'Bearer tok-from-helper' ? 200 : 401;
        res.end();
      } else if (req.url === '/') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        // The title is what the browser says of itself: the config's viewport and locale, and the header it sent.
        res.end(`<!doctype html><title>t</title><script>document.title = innerWidth + ' ' + navigator.language + ' ${req.headers['x-shop'] ?? 'none'}'</script>`);
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startTestServer({ config: { chromiumPath: CHROMIUM } });
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-scripts-home-'));
    project = mkdtempSync(path.join(os.tmpdir(), 'lookout-scripts-project-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scripts-as-written', version: '1.0.0', type: 'module' }));
    writeFileSync(path.join(project, 'checkly.config.mjs'), config({ baseURL: siteUrl, extraHTTPHeaders: { 'X-Shop': 'lookout' }, locale: 'de-DE', viewport: { width: 390, height: 844 } }));
    mkdirSync(path.join(project, '__checks__', 'utils'), { recursive: true });
    writeFileSync(path.join(project, '__checks__', 'shop.check.ts'), CHECKS.replace('process.env.SITE_URL', JSON.stringify(siteUrl)));
    writeFileSync(path.join(project, '__checks__', 'setup.ts'), SETUP);
    writeFileSync(path.join(project, '__checks__', 'utils', 'auth-client.ts'), AUTH_CLIENT);
    writeFileSync(path.join(project, '__checks__', 'home.spec.ts'), SPEC);
    writeFileSync(path.join(project, '__checks__', 'utils', 'site.ts'), "export const HOME_TITLE: string = '390 de-DE lookout'\n");
    symlinkSync(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    site?.closeAllConnections();
    await Promise.all([server?.close(), site && new Promise((resolve) => site.close(resolve))]);
    for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]) => runChecklyCli(args, { server, client: server.a, home, cwd: project });

  it('checkly test: the TypeScript setup script with its import and top-level await, and the browser check under the project\'s playwrightConfig, pass', { timeout: 180_000 }, async () => {
    seen.length = 0;
    const r = await cli(['test', '--test-session-name', 'as-written']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2 passed, 2 total/);
    expect(seen.find((s) => s.url === '/api/orders')?.headers.authorization).toBe('Bearer tok-from-helper');
    expect(seen.find((s) => s.url === '/')?.headers).toMatchObject({ 'x-shop': 'lookout' });
  });

  it('checkly deploy stores the scripts\' files and the playwrightConfig; checkly trigger runs them and they pass', { timeout: 180_000 }, async () => {
    const deployed = await cli(['deploy', '--force']);
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    const checks = (await server.a.request('GET', '/v1/checks')).body as Record<string, any>[];
    const api = checks.find((c) => c.name === 'Orders API')!;
    expect(api).toMatchObject({ setupScriptPath: '__checks__/setup.ts', setupScriptDependencies: [{ path: '__checks__/utils/auth-client.ts', content: AUTH_CLIENT }] });
    const browser = checks.find((c) => c.name === 'Home page')!;
    expect(browser.playwrightConfig).toEqual({ use: { baseURL: siteUrl, extraHTTPHeaders: { 'X-Shop': 'lookout' }, locale: 'de-DE', viewport: { width: 390, height: 844 } }, expect: { timeout: 4000 } });

    seen.length = 0;
    const triggered = await cli(['trigger', '--test-session-name', 'deployed-as-written']);
    expect(triggered.code, triggered.stdout + triggered.stderr).toBe(0);
    expect(triggered.stdout).toMatch(/2 passed, 2 total/);
    expect(seen.find((s) => s.url === '/api/orders')?.headers.authorization).toBe('Bearer tok-from-helper');
  });

  it('refuses a playwrightConfig key the runner cannot apply at the door, naming it', { timeout: 120_000 }, async () => {
    writeFileSync(path.join(project, 'checkly.config.mjs'), config({ baseURL: siteUrl, launchOptions: { slowMo: 100 } }));
    try {
      const r = await cli(['test', '--test-session-name', 'refused']);
      expect(r.code).not.toBe(0);
      expect(r.stdout + r.stderr).toContain('playwrightConfig.use.launchOptions');
      const deployed = await cli(['deploy', '--force']);
      expect(deployed.code).not.toBe(0);
      expect(deployed.stdout + deployed.stderr).toContain('playwrightConfig.use.launchOptions');
    } finally {
      writeFileSync(path.join(project, 'checkly.config.mjs'), config({ baseURL: siteUrl }));
    }
  });
});
