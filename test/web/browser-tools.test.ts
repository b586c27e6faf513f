import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createRunRecorder } from '../../src/runner/create-run-recorder.js';
import { probe, runnable } from '../support/run-results.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';

if (!chromiumInstalled) console.warn(`browser-tools.test.ts: skipping the GraphiQL and API reference browser tests, ${NO_CHROMIUM}`);

const ARTIFACTS = path.resolve('test-artifacts/browser-tools');

describe.skipIf(!chromiumInstalled)(`GraphiQL and the API reference in Chromium${chromiumInstalled ? '' : ` (skipped: ${NO_CHROMIUM})`}`, () => {
  let browser: Browser;
  let s: TestServer;
  let context: BrowserContext;
  let tab: Page;
  let storefront: Record<string, any>;
  /** Requests the pages made to other origins (there must be none: the tools work offline). */
  const foreign: string[] = [];
  /** What the pages logged as errors (a script or worker the page's policy refused shows up here). */
  const errors: string[] = [];
  /** Requests of the pages answered with an error status. */
  const failed: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    s = await startTestServer();
    for (const name of ['Storefront', 'Checkout']) {
      const res = await s.a.request('POST', '/v1/checks/api', { name, locations: ['eu-west-1'], request: { url: 'https://shop.example.test' } });
      expect(res.status).toBe(201);
      if (name === 'Storefront') storefront = res.body;
    }
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    tab = await context.newPage();
    tab.on('request', (req) => {
      const url = new URL(req.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.host !== new URL(s.url).host) foreign.push(req.url());
    });
    tab.on('console', (msg) => {
      // Failed requests are listed with their URL below; Chromium's own /favicon.ico request is not a page's.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(msg.text());
    });
    tab.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    tab.on('pageerror', (err) => errors.push(err.message));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
  });

  it('asks for the key once in GraphiQL, runs a query with it and shows the answer', async () => {
    const query = '{ checks(first: 5) { totalCount } }';
    await tab.goto(`${s.url}/graphql#query=${encodeURIComponent(query)}`);
    await tab.getByLabel('API key').fill(s.a.apiKey);
    await tab.getByRole('button', { name: 'Open GraphiQL' }).click();
    await tab.locator('.graphiql-query-editor .view-lines').filter({ hasText: 'totalCount' }).waitFor();
    await tab.getByRole('button', { name: /Execute query/ }).click();
    await expect.poll(async () => (await tab.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ')).toContain('"totalCount": 2');
    await tab.screenshot({ path: path.join(ARTIFACTS, 'graphiql-query.png') });
    // Kept where the console reads it too.
    expect(await tab.evaluate(() => localStorage.getItem('lookout.apiKey'))).toBe(s.a.apiKey);
  });

  it('opens GraphiQL again without asking for the key, with the schema documented from introspection', async () => {
    await tab.goto(`${s.url}/graphql`);
    await tab.getByRole('button', { name: 'Change key' }).waitFor();
    expect(await tab.getByLabel('API key').count()).toBe(0);
    await tab.getByRole('button', { name: /Show Documentation Explorer/ }).click();
    await tab.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor();
    await tab.screenshot({ path: path.join(ARTIFACTS, 'graphiql-docs.png') });
  });

  it('runs a subscription over graphql-ws, authenticated with the same key, and shows the events as they come', async () => {
    const subscription = 'subscription { checkResultCreated { checkId result { responseTime } } }';
    // From another page: a fragment change alone would not load the page again.
    await tab.goto('about:blank');
    await tab.goto(`${s.url}/graphql#query=${encodeURIComponent(subscription)}`);
    await tab.locator('.graphiql-query-editor .view-lines').filter({ hasText: 'checkResultCreated' }).waitFor({ timeout: 10_000 });
    await tab.getByRole('button', { name: /Execute query/ }).click();
    await expect.poll(() => s.lookout.graphqlSubscriptions!.stats().subscribers).toBe(1);
    // Recorded as the runner records a run, on the server's own event bus.
    const recorder = createRunRecorder({ store: s.lookout.store, bus: s.lookout.bus, logger: pino({ level: 'silent' }) });
    await recorder.record({ check: runnable(s.a, storefront), probe: probe({ responseTime: 321 }), location: 'eu-west-1', sequenceId: crypto.randomUUID(), attempts: 1, resultType: 'FINAL' });
    await recorder.close();
    await expect.poll(async () => (await tab.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ')).toContain(`"checkId": "${storefront.id}"`);
    expect((await tab.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ')).toContain('"responseTime": 321');
    await tab.screenshot({ path: path.join(ARTIFACTS, 'graphiql-subscription.png') });
    await tab.getByRole('button', { name: /Stop/ }).click();
    await expect.poll(() => s.lookout.graphqlSubscriptions!.stats().subscribers).toBe(0);
  });

  it('renders the operations of /openapi.json in the API reference', async () => {
    // Swagger UI draws operations as they scroll into view: a deep link scrolls to one further down and opens it.
    await tab.goto(`${s.url}/docs#/Checks/getCheck`);
    await tab.locator('.opblock.is-open .opblock-summary-operation-id', { hasText: /^getCheck$/ }).waitFor();
    await tab.locator('.opblock-summary-description', { hasText: 'List checks' }).first().waitFor();
    // Authorized with the key GraphiQL stored: Swagger UI shows the lock closed.
    await expect.poll(async () => tab.locator('.authorize.locked').count()).toBeGreaterThan(0);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'api-reference.png') });
  });

  it('lets the console start under the same content security policy, signed in with the key entered in GraphiQL', async () => {
    await tab.goto(`${s.url}/checks`);
    await tab.locator('#root *').first().waitFor();
    await tab.screenshot({ path: path.join(ARTIFACTS, 'console-deep-link.png') });
  });

  it('loaded nothing from another origin, and no request failed or error was logged', () => {
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });
});
