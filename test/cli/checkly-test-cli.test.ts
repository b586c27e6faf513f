import http from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeBundleStore } from '../../src/service/create-code-bundle-store.js';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { playwrightSuiteBundle, tinyTarGz } from '../support/playwright-suite-fixture.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startPageTarget } from '../support/page-target.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';
import { CHROMIUM, chromiumInstalled } from '../support/chromium.js';

/**
 * `checkly test` (the real CLI) against Lookout: the project's code bundle is uploaded and kept per
 * account (`/next/checkly-storage/*`), its checks run as submitted (not as deployed) against real
 * loopback targets in a test session, results streamed over MQTT and stored with the session.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
if (!chromiumInstalled) console.warn(`checkly-test-cli.test.ts: skipping the browser run, no Chromium at ${CHROMIUM} (apt-get install chromium or set LOOKOUT_CHROMIUM_PATH)`);

const CONFIG = `import { defineConfig } from 'checkly'
export default defineConfig({
  projectName: 'Shop monitoring',
  logicalId: 'shop-monitoring',
  checks: { checkMatch: '**/*.check.mjs', frequency: 10, locations: ['eu-central-1'] },
  cli: { runLocation: 'eu-central-1' },
})
`;

describe('checkly test against Lookout', () => {
  let server: TestServer;
  let target: HttpTarget;
  let home: string;
  let project: string;
  let storage: string;

  beforeAll(async () => {
    storage = mkdtempSync(path.join(os.tmpdir(), 'lookout-storage-'));
    [server, target] = await Promise.all([startTestServer({ config: { assetsDir: storage, chromiumPath: CHROMIUM } }), startHttpTarget()]);
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-test-home-'));
    project = mkdtempSync(path.join(os.tmpdir(), 'lookout-test-project-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'shop-monitoring', version: '1.0.0', type: 'module' }));
    writeFileSync(path.join(project, 'checkly.config.mjs'), CONFIG);
    writeFileSync(path.join(project, 'shop.check.mjs'), `
import { ApiCheck } from 'checkly/constructs'
const ok = [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }]
new ApiCheck('cart-api', { name: 'Cart API', request: { url: '${target.http.url}/json', method: 'GET', assertions: ok } })
new ApiCheck('payments-api', { name: 'Payments API', request: { url: '${target.http.url}/status/503', method: 'GET', assertions: ok } })
`);
    // The project imports `checkly/constructs` as a real project would, from the installed package.
    symlinkSync(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    await Promise.all([server?.close(), target?.close()]);
    for (const dir of [home, project, storage]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function upload(client: TestClient, route: string, body: Buffer) {
    return server.raw('POST', route, {
      body: body as unknown as string,
      headers: { authorization: `Bearer ${client.apiKey}`, 'x-checkly-account': client.accountId, 'content-type': 'application/octet-stream' },
    });
  }

  it('runs the checks as submitted, streams their results and exits 1 when one fails; the session is stored', async () => {
    const r = await runChecklyCli(['test', '--test-session-name', 'pr-42'], { server, client: server.a, home, cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('Cart API');
    expect(r.stdout).toContain('Payments API');
    expect(r.stdout).toMatch(/1 failed, 1 passed, 2 total/);
    // The bundle arrived, in the account's own folder.
    expect(readdirSync(path.join(storage, 'checkly-storage', server.a.accountId)).some((f) => f.startsWith('code-bundle-'))).toBe(true);
    // Stored like any session, but the submitted checks are not stored as checks.
    const listed = (await server.a.request('GET', '/v1/test-sessions')).body.entries as Record<string, any>[];
    const id = listed.find((x) => x.name === 'pr-42')!.id;
    const session = (await server.a.request('GET', `/v1/test-sessions/${id}/completion?maxWaitSeconds=5`)).body;
    expect(session.status).toBe('FAILED');
    const byName = Object.fromEntries(session.results.map((e: Record<string, any>) => [e.name, e]));
    expect(byName['Cart API']).toMatchObject({ status: 'PASSED', checkType: 'API' });
    expect(byName['Payments API']).toMatchObject({ status: 'FAILED', checkType: 'API' });
    const failed = await server.a.request('GET', `/v1/test-sessions/${id}/results/${byName['Payments API'].resultIds[0]}`);
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({ name: 'Payments API', hasFailures: true, runLocation: 'eu-central-1', resultType: 'FINAL' });
    expect(failed.body.apiCheckResult.response.status).toBe(503);
    expect((await server.a.request('GET', '/v1/checks')).body).toEqual([]);
    // Another account sees neither the session's results nor the session.
    expect((await server.b.request('GET', `/v1/test-sessions/${id}/results/${byName['Cart API'].resultIds[0]}`)).status).toBe(404);
  });

  it.skipIf(!chromiumInstalled)('runs browser and multi-step checks with their local files: a right title passes, a wrong one fails', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lookout-test-browser-'));
    const site = await startPageTarget('Lookout Shop');
    try {
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'browser-project', version: '1.0.0', type: 'module' }));
      writeFileSync(path.join(dir, 'checkly.config.mjs'), CONFIG.replace("'shop-monitoring'", "'browser-project'"));
      mkdirSync(path.join(dir, 'checks', 'helpers'), { recursive: true });
      mkdirSync(path.join(dir, 'shared'));
      // A TypeScript helper beside the specs, and a JavaScript one a folder up: both reach the runner as `dependencies`.
      writeFileSync(path.join(dir, 'checks', 'helpers', 'shop.ts'), `
import { SHOP_URL } from '../../shared/site.js'
export async function openHome(page: { goto(url: string): Promise<unknown> }): Promise<void> {
  await page.goto(SHOP_URL)
}
`);
      writeFileSync(path.join(dir, 'shared', 'site.js'), `export const SHOP_URL = '${site.url}/'\nexport const CART_URL = '${site.url}/api/cart'\n`);
      const spec = (title: string) => `
import { test, expect } from '@playwright/test'
import { openHome } from './helpers/shop'

const wanted: string = '${title}'
test('the home page has its title', async ({ page }) => {
  await openHome(page)
  await expect(page).toHaveTitle(wanted)
})
`;
      writeFileSync(path.join(dir, 'checks', 'home.spec.ts'), spec('Lookout Shop'));
      writeFileSync(path.join(dir, 'checks', 'wrong.spec.ts'), spec('Another Shop'));
      writeFileSync(path.join(dir, 'checks', 'cart.spec.js'), `
import { test, expect } from '@playwright/test'
import { CART_URL } from '../shared/site.js'

test('the cart answers', async ({ request }) => {
  const res = await request.get(CART_URL)
  expect(res.status()).toBe(200)
  expect(await res.json()).toEqual({ items: 3 })
})
`);
      writeFileSync(path.join(dir, 'shop.check.mjs'), `
import { BrowserCheck, MultiStepCheck } from 'checkly/constructs'
new BrowserCheck('home-browser', { name: 'Home page', code: { entrypoint: './checks/home.spec.ts' } })
new BrowserCheck('wrong-browser', { name: 'Wrong title', code: { entrypoint: './checks/wrong.spec.ts' } })
new MultiStepCheck('cart-flow', { name: 'Cart flow', code: { entrypoint: './checks/cart.spec.js' } })
`);
      symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      const r = await runChecklyCli(['test', '--test-session-name', 'browser-run'], { server, client: server.b, home, cwd: dir });
      expect(r.stdout + r.stderr).toMatch(/1 failed, 2 passed, 3 total/);
      expect(r.code).toBe(1);

      const listed = (await server.b.request('GET', '/v1/test-sessions')).body.entries as Record<string, any>[];
      const id = listed.find((x) => x.name === 'browser-run')!.id;
      const session = (await server.b.request('GET', `/v1/test-sessions/${id}`)).body;
      expect(session.status).toBe('FAILED');
      const byName = Object.fromEntries(session.results.map((e: Record<string, any>) => [e.name, e]));
      expect(byName['Home page']).toMatchObject({ status: 'PASSED', checkType: 'BROWSER' });
      expect(byName['Wrong title']).toMatchObject({ status: 'FAILED', checkType: 'BROWSER' });
      expect(byName['Cart flow']).toMatchObject({ status: 'PASSED', checkType: 'MULTI_STEP' });
      const result = async (name: string) => {
        const res = await server.b.request('GET', `/v1/test-sessions/${id}/results/${byName[name].resultIds[0]}`);
        expect(res.status, res.text).toBe(200);
        return res.body as Record<string, any>;
      };
      const passed = await result('Home page');
      expect(passed).toMatchObject({ checkType: 'BROWSER', hasFailures: false, resultType: 'FINAL', runLocation: 'eu-central-1' });
      expect(passed.browserCheckResult).toMatchObject({ type: 'PLAYWRIGHT', errors: [] });
      expect(passed.browserCheckResult.browserVersion).toEqual(expect.any(String));
      const failed = await result('Wrong title');
      expect(failed).toMatchObject({ checkType: 'BROWSER', hasFailures: true });
      expect(JSON.stringify(failed.browserCheckResult.errors)).toContain('Lookout Shop');
      const flow = await result('Cart flow');
      expect(flow).toMatchObject({ checkType: 'MULTI_STEP', hasFailures: false, browserCheckResult: null });
      // Request-only: no browser was started for it.
      expect(flow.multiStepCheckResult).toMatchObject({ type: 'PLAYWRIGHT', errors: [], browserVersion: null });
      expect((await server.b.request('GET', '/v1/checks')).body).toEqual([]);
    } finally {
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails a browser job whose file would land outside its folder, naming the path, and writes nothing there', async () => {
    const escape = `lookout-escape-${process.pid}.js`;
    const started = await server.a.request('POST', '/v1/test-sessions/run', {
      name: 'escape',
      checkRunJobs: [{
        checkType: 'BROWSER', logicalId: 'escape', name: 'Escape', script: "require('./helper.js')", scriptPath: 'checks/a.spec.js',
        dependencies: [0, 1], environmentVariables: [],
      }],
      sharedFiles: [{ path: 'checks/helper.js', content: '' }, { path: `../../../../../../tmp/${escape}`, content: 'owned' }],
    });
    expect(started.status, started.text).toBe(202);
    const done = await server.a.request('GET', `/v1/test-sessions/${started.body.testSessionId}/completion?maxWaitSeconds=10`);
    expect(done.body.status).toBe('FAILED');
    const res = await server.a.request('GET', `/v1/test-sessions/${started.body.testSessionId}/results/${done.body.results[0].resultIds[0]}`);
    expect(res.body.browserCheckResult.errors[0]).toMatchObject({ code: 'DEPENDENCY_ERROR' });
    expect(res.body.browserCheckResult.errors[0].message).toContain(`dependencies.1.path "../../../../../../tmp/${escape}" points outside the project`);
    expect(existsSync(path.join(os.tmpdir(), escape))).toBe(false);
  });

  it('applies --env variables to the submitted checks and --retries to their runs (ATTEMPT, then FINAL)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lookout-test-env-'));
    try {
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'env-project', version: '1.0.0', type: 'module' }));
      writeFileSync(path.join(dir, 'checkly.config.mjs'), CONFIG.replace("'shop-monitoring'", "'env-project'"));
      writeFileSync(path.join(dir, 'token.check.mjs'), `
import { ApiCheck } from 'checkly/constructs'
new ApiCheck('token-api', { name: 'Token API', request: { url: '${target.http.url}/echo?token={{TOKEN}}', method: 'GET',
  assertions: [{ source: 'JSON_BODY', property: '$.query.token', comparison: 'EQUALS', target: 'abc' }] } })
new ApiCheck('down-api', { name: 'Down API', request: { url: '${target.http.url}/status/500', method: 'GET',
  assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } })
`);
      symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      const r = await runChecklyCli(['test', '-e', 'TOKEN=abc', '--retries', '1', '--test-session-name', 'env-and-retries'], { server, client: server.a, home, cwd: dir });
      expect(r.stdout).toMatch(/1 failed, 1 passed, 2 total/);
      expect(r.code).toBe(1);
      const listed = (await server.a.request('GET', '/v1/test-sessions')).body.entries as Record<string, any>[];
      const id = listed.find((x) => x.name === 'env-and-retries')!.id;
      const session = (await server.a.request('GET', `/v1/test-sessions/${id}/completion?maxWaitSeconds=5`)).body;
      const byName = Object.fromEntries(session.results.map((e: Record<string, any>) => [e.name, e]));
      expect(byName['Token API'].status).toBe('PASSED');
      const final = await server.a.request('GET', `/v1/test-sessions/${id}/results/${byName['Down API'].resultIds[0]}`);
      expect(final.body).toMatchObject({ resultType: 'FINAL', attempts: 2, hasFailures: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the scheduling poll at once: dispatch is immediate', async () => {
    const started = await server.a.request('POST', '/v1/test-sessions/run', {
      name: 'direct', runLocation: { type: 'PUBLIC', region: 'eu-west-1' },
      checkRunJobs: [{ checkType: 'API', logicalId: 'x', name: 'Direct', request: { url: `${target.http.url}/json`, method: 'GET' } }],
    });
    expect(started.status, started.text).toBe(202);
    expect(started.body.sequenceIds).toHaveProperty('x');
    const scheduling = await server.a.request('GET', `/v1/test-sessions/scheduling/${started.body.schedulingId}/completion?maxWaitSeconds=1`);
    expect(scheduling.body).toMatchObject({ status: 'SUCCEEDED', testSessionId: started.body.testSessionId, checksTotal: 1, error: null });
    const done = await server.a.request('GET', `/v1/test-sessions/${started.body.testSessionId}/completion?maxWaitSeconds=10`);
    expect(done.body).toMatchObject({ status: 'PASSED', runLocation: 'eu-west-1' });
  });

  it.each([
    ['checkRunJobs', {}],
    ['checkRunJobs', { checkRunJobs: [] }],
    ['checkRunJobs.0.checkType', { checkRunJobs: [{ checkType: 'HEARTBEAT', name: 'Nightly' }] }],
    ['checkRunJobs.1.codeBundlePath', { checkRunJobs: [{ checkType: 'API', name: 'Up', request: { url: 'http://127.0.0.1:9/', method: 'GET' } }, { checkType: 'PLAYWRIGHT', name: 'Suite' }] }],
    ['checkRunJobs.0.dependencies.1', { checkRunJobs: [{ checkType: 'BROWSER', name: 'Home', script: 'x', dependencies: [0, 7] }], sharedFiles: [{ path: 'a.js', content: '' }] }],
    ['checkRunJobs.0.dependencies.0.path', { checkRunJobs: [{ checkType: 'MULTI_STEP', name: 'Flow', script: 'x', dependencies: [{ content: '' }] }] }],
    ['checkRunJobs.0.request', { checkRunJobs: [{ checkType: 'API', name: 'No request' }] }],
  ])('answers 400 naming %s for a bad run body', async (key, body) => {
    const res = await server.a.request('POST', '/v1/test-sessions/run', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toContain(key);
    if (key.endsWith('checkType')) expect(res.body.message).toContain('checks cannot run from `checkly test` on Lookout yet');
  });

  it.each([
    ['/next/checkly-storage/upload-code-bundle', /^code-bundle\//],
    ['/next/checkly-storage/upload', /^file\//],
  ])('%s stores the body and gives a key its account reads it back with', async (route, keyPattern) => {
    // A code bundle is a project archive (anything else is refused); other files are any bytes.
    const bytes = route.endsWith('code-bundle') ? playwrightSuiteBundle() : Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const stored = await upload(server.a, route, bytes);
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body.key).toMatch(keyPattern);
    const back = await fetch(`${server.url}/next/checkly-storage/download`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.a.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: stored.body.key }),
    });
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('does not give one account\'s file to another', async () => {
    const stored = await upload(server.a, '/next/checkly-storage/upload-code-bundle', playwrightSuiteBundle());
    const other = await server.b.request('POST', '/next/checkly-storage/download', { key: stored.body.key });
    expect(other.status).toBe(404);
  });

  it.each(['../../etc/passwd', 'code-bundle/../../x', 'code-bundle/not-a-uuid'])('answers 404 for the key %s', async (key) => {
    const res = await server.a.request('POST', '/next/checkly-storage/download', { key });
    expect(res.status).toBe(404);
  });

  it('refuses a bundle declared above the limit with 413 naming the limit, before reading it', async () => {
    const url = new URL('/next/checkly-storage/upload-code-bundle', server.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${server.a.apiKey}`, 'content-type': 'application/octet-stream', 'content-length': String(200 * 1024 * 1024) },
      }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => {
          // The rest of the declared body is never sent: drop the connection rather than leave it waiting.
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).message).toMatch(/maximum allowed: \d+/);
  });

  it('cuts off a streamed upload past the limit and keeps nothing of it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lookout-bundles-'));
    try {
      const bundles = createCodeBundleStore({ dir, maxBytes: 1000 });
      await expect(bundles.put('acc', 'code-bundle', Readable.from([Buffer.alloc(600), Buffer.alloc(600)])))
        .rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'Payload content length greater than maximum allowed: 1000' });
      const small = tinyTarGz();
      expect(small.length).toBeLessThanOrEqual(1000);
      const ok = await bundles.put('acc', 'code-bundle', Readable.from([small]));
      expect(await bundles.has('acc', ok.key)).toBe(true);
      expect(await bundles.has('other', ok.key)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(BACKENDS)('submitted checks on $name', (backend) => {
  let server: TestServer;
  let target: HttpTarget;

  beforeAll(async () => {
    [server, target] = await Promise.all([startTestServer({ backend }), startHttpTarget()]);
  });

  afterAll(async () => {
    await Promise.all([server?.close(), target?.close()]);
  });

  it('keeps each result with its session, readable by the session\'s account only', async () => {
    const started = await server.a.request('POST', '/v1/test-sessions/run', {
      name: 'direct', runLocation: { type: 'PUBLIC', region: 'eu-west-1' },
      checkRunJobs: [
        { checkType: 'API', logicalId: 'ok', name: 'Up', request: { url: `${target.http.url}/json`, method: 'GET' } },
        { checkType: 'URL', logicalId: 'down', name: 'Down', request: { url: `${target.http.url}/status/500` } },
      ],
    });
    expect(started.status, started.text).toBe(202);
    const done = await server.a.request('GET', `/v1/test-sessions/${started.body.testSessionId}/completion?maxWaitSeconds=10`);
    expect(done.body.status).toBe('FAILED');
    const down = done.body.results.find((e: Record<string, any>) => e.name === 'Down');
    const result = await server.a.request('GET', `/v1/test-sessions/${started.body.testSessionId}/results/${down.resultIds[0]}`);
    expect(result.body).toMatchObject({ name: 'Down', checkType: 'URL', hasFailures: true, runLocation: 'eu-west-1' });
    expect((await server.b.request('GET', `/v1/test-sessions/${started.body.testSessionId}/results/${down.resultIds[0]}`)).status).toBe(404);
    // The failure is grouped like any test session error.
    const groups = await server.a.request('GET', `/v1/test-sessions/${started.body.testSessionId}/error-groups`);
    expect(groups.body).toHaveLength(1);
    expect(groups.body[0].rawErrorMessage).toMatch(/500|STATUS_CODE/);
  });
});
