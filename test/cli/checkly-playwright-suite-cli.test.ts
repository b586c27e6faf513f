import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumInstalled } from '../support/chromium.js';
import { gqlData } from '../support/graphql.js';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { startPageTarget, type PageTarget } from '../support/page-target.js';
import { copyPlaywrightSuite, playwrightSuiteBundle } from '../support/playwright-suite-fixture.js';
import { SANDBOX_SKIP_REASON, sandboxWorks } from '../support/sandbox.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/**
 * Playwright check suites with the real `checkly` CLI: the project (a setup, a chromium and a
 * firefox project; a passing and a failing test importing a TypeScript helper) is uploaded as a
 * code bundle and run by @playwright/test in the sandbox with Debian's Chromium, against a local
 * shop; per test and per project results, and the files the tests attached as assets.
 */

const skip = !chromiumInstalled ? `no Chromium at ${CHROMIUM}` : !sandboxWorks ? SANDBOX_SKIP_REASON : '';
if (skip) console.warn(`checkly-playwright-suite-cli.test.ts: skipping the suite runs (${skip})`);

type Json = Record<string, any>;

describe('Playwright check suites against Lookout', () => {
  let server: TestServer;
  let shop: PageTarget;
  let home: string;
  let project: string;
  let storage: string;

  beforeAll(async () => {
    storage = mkdtempSync(path.join(os.tmpdir(), 'lookout-pw-storage-'));
    [server, shop] = await Promise.all([startTestServer({ config: { assetsDir: storage, chromiumPath: CHROMIUM } }), startPageTarget('Lookout Shop')]);
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-pw-home-'));
    project = copyPlaywrightSuite();
  });

  afterAll(async () => {
    await Promise.all([server?.close(), shop?.close()]);
    for (const dir of [home, project, storage]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]) => runChecklyCli(args, { server, client: server.a, home, cwd: project, env: { SHOP_URL: shop.url } });

  async function upload(client: TestClient, body: Buffer) {
    return server.raw('POST', '/next/checkly-storage/upload-code-bundle', {
      body: body as unknown as string,
      headers: { authorization: `Bearer ${client.apiKey}`, 'x-checkly-account': client.accountId, 'content-type': 'application/octet-stream' },
    });
  }

  /** What a suite's result says per project, by name. */
  const projectsOf = (result: Json) => Object.fromEntries(
    (result.browserCheckResult.playwrightTestResults.projects as Json[]).map((p) => [p.name, p]),
  );

  function expectShopSuiteResult(result: Json) {
    expect(result).toMatchObject({ checkType: 'PLAYWRIGHT', hasFailures: true });
    const detail = result.browserCheckResult;
    expect(detail).toMatchObject({ type: 'PLAYWRIGHT', playwrightVersion: '1.65.1' });
    const projects = projectsOf(result);
    expect(projects['login-setup']).toMatchObject({ status: 'passed', passed: 1, failed: 0 });
    expect(projects.chromium).toMatchObject({ status: 'failed', passed: 1, failed: 1 });
    // No Firefox here: reported with the reason, not run, not a failure of its own.
    expect(projects.firefox).toMatchObject({ status: 'notRun', passed: 0, failed: 0 });
    expect(projects.firefox.reason).toContain('no Firefox browser');
    const tests = Object.fromEntries((detail.playwrightTestResults.tests as Json[]).map((t) => [`${t.project} ${t.title}`, t]));
    expect(tests['chromium the home page has its title']).toMatchObject({ outcome: 'expected', status: 'passed', stdout: 'home page opened\n' });
    const failed = tests['chromium the checkout shows its heading @checkout']!;
    expect(failed).toMatchObject({ outcome: 'unexpected', status: 'failed' });
    expect(failed.errors.join('\n')).toContain('Received: "Lookout Shop"');
    expect(detail.errors).toContainEqual(expect.objectContaining({ code: 'TEST_FAILED', message: expect.stringContaining('the checkout shows its heading') }));
    // The failing test's screenshot and trace (trace: 'retain-on-failure', screenshot: 'only-on-failure') are its assets.
    const kinds = (detail.jobAssets as Json[]).filter((a) => failed.assets.includes(a.file)).map((a) => a.type).sort();
    expect(kinds).toEqual(expect.arrayContaining(['screenshot', 'trace']));
    expect(detail.playwrightTestTraces).toHaveLength(1);
    expect((detail.jobLog as Json[]).map((l) => l.message).join('\n')).toContain('[chromium] › tests/home.spec.ts');
  }

  it.skipIf(skip !== '')('checkly test runs the suites from their code bundle: per project and per test, with the failing test\'s files', async () => {
    const r = await cli(['test', '--test-session-name', 'suites']);
    expect(r.stdout + r.stderr).toMatch(/1 failed, 1 passed, 2 total/);
    expect(r.code).toBe(1);
    const listed = (await server.a.request('GET', '/v1/test-sessions')).body.entries as Json[];
    const id = listed.find((x) => x.name === 'suites')!.id;
    const session = (await server.a.request('GET', `/v1/test-sessions/${id}`)).body;
    const byName = Object.fromEntries(session.results.map((e: Json) => [e.name, e]));
    expect(byName['Shop suite']).toMatchObject({ status: 'FAILED', checkType: 'PLAYWRIGHT' });
    expect(byName['Shop home']).toMatchObject({ status: 'PASSED', checkType: 'PLAYWRIGHT' });
    const result = async (name: string) => (await server.a.request('GET', `/v1/test-sessions/${id}/results/${byName[name].resultIds[0]}`)).body as Json;
    expectShopSuiteResult(await result('Shop suite'));
    // --grep-invert @checkout was honoured: the checkout test never ran.
    const passing = await result('Shop home');
    expect(passing.hasFailures).toBe(false);
    expect((passing.browserCheckResult.playwrightTestResults.tests as Json[]).map((t) => t.title).sort())
      .toEqual(['the home page has its title', 'the shop answers before the tests']);
  });

  it.skipIf(skip !== '')('checkly deploy stores the suites; a run of the deployed suite keeps its files readable by its account only', async () => {
    const r = await cli(['deploy', '--force']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const checks = (await server.a.request('GET', '/v1/checks')).body as Json[];
    const suite = checks.find((c) => c.name === 'Shop suite')!;
    expect(suite).toMatchObject({
      checkType: 'PLAYWRIGHT', codeBundlePath: expect.stringMatching(/^code-bundle\//), testCommand: 'npx playwright test --config playwright.config.ts',
      browsers: ['chromium', 'firefox'], playwrightVersion: '1.65.1', workingDir: '.',
    });
    const outcome = await server.lookout.runner.runNow(server.a.accountId, suite.id);
    const result = outcome.finals[0]!;
    expectShopSuiteResult(result);
    const trace = (result.browserCheckResult.jobAssets as Json[]).find((a) => a.type === 'trace')!;
    const res = await server.a.request('GET', `/v1/check-results/${suite.id}/${result.id}/assets/${trace.file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(res.text, 'latin1').subarray(0, 2).toString('latin1')).toBe('PK');
    expect((await server.b.request('GET', `/v1/check-results/${suite.id}/${result.id}/assets/${trace.file}`)).status).toBe(404);
  });

  it.skipIf(skip !== '')('checkly trigger runs the deployed suites as a test session', async () => {
    const r = await cli(['trigger', '--test-session-name', 'triggered suites']);
    expect(r.stdout + r.stderr).toMatch(/1 failed, 1 passed, 2 total/);
    expect(r.code).toBe(1);
    const listed = (await server.a.request('GET', '/v1/test-sessions')).body.entries as Json[];
    const session = (await server.a.request('GET', `/v1/test-sessions/${listed.find((x) => x.name === 'triggered suites')!.id}`)).body;
    expect(Object.fromEntries(session.results.map((e: Json) => [e.name, e.status]))).toEqual({ 'Shop suite': 'FAILED', 'Shop home': 'PASSED' });
  });

  it('refuses a code bundle that is not a gzip-compressed tar archive, and keeps nothing of it', async () => {
    const res = await upload(server.a, Buffer.from('this is not an archive'));
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toContain('body');
    expect(res.body.message).toContain('gzip-compressed tar archive');
  });

  it.each([
    ['codeBundlePath', (_key: string) => ({ codeBundlePath: 'code-bundle/00000000-0000-4000-8000-000000000000' })],
    ['testCommand', (key: string) => ({ codeBundlePath: key, testCommand: 'npm ci && npx playwright test' })],
    ['testCommand', (key: string) => ({ codeBundlePath: key, testCommand: 'npx playwright test --ui' })],
    ['testCommand', (key: string) => ({ codeBundlePath: key, testCommand: 'npx jest' })],
    ['workingDir', (key: string) => ({ codeBundlePath: key, workingDir: '../elsewhere' })],
  ])('refuses a suite it cannot run with 400 naming %s', async (field, body) => {
    const key = (await upload(server.b, playwrightSuiteBundle())).body.key as string;
    const res = await server.b.request('POST', '/v1/checks', { checkType: 'PLAYWRIGHT', name: 'Suite', locations: ['eu-west-1'], ...body(key) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toContain(field);
  });

  it('refuses another account\'s code bundle as unknown', async () => {
    const key = (await upload(server.a, playwrightSuiteBundle())).body.key as string;
    const res = await server.b.request('POST', '/v1/checks', { checkType: 'PLAYWRIGHT', name: 'Suite', locations: ['eu-west-1'], codeBundlePath: key });
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toContain('codeBundlePath');
    const own = await server.a.request('POST', '/v1/checks', { checkType: 'PLAYWRIGHT', name: 'Suite', locations: ['eu-west-1'], codeBundlePath: key });
    expect(own.status, own.text).toBe(201);
  });

  it('creates a suite over GraphQL from an uploaded bundle, with how it runs', async () => {
    const key = (await upload(server.b, playwrightSuiteBundle())).body.key as string;
    const data = await gqlData(server.b, `mutation($input: PlaywrightCheckInput!) {
      createPlaywrightCheck(input: $input) { check { ... on PlaywrightCheck { name codeBundlePath testCommand browsers } } userErrors { field message } }
    }`, { input: { name: 'GraphQL suite', codeBundlePath: key, testCommand: 'npx playwright test --project chromium', browsers: ['chromium'] } });
    expect(data.createPlaywrightCheck.userErrors).toEqual([]);
    expect(data.createPlaywrightCheck.check).toEqual({ name: 'GraphQL suite', codeBundlePath: key, testCommand: 'npx playwright test --project chromium', browsers: ['chromium'] });
  });
});
