import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, openKeySignIn, saveConsoleShot, signInToConsole } from '../support/console-browser.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

if (skipReason) console.warn(`console-browser.test.ts: skipping the console browser tests, ${skipReason}`);

/** An API check of the REST API's shape, asserting status 200. */
const apiCheck = (name: string, url: string, tags: string[] = []) => ({
  name, tags, locations: ['eu-west-1'], activated: false,
  request: { method: 'GET', url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
});

describe.skipIf(Boolean(skipReason))(`the web console in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  let target: HttpTarget;
  let targetClosed = false;
  const pageErrors: string[] = [];
  const liveCheckName = 'Live storefront';
  let liveCheckId: string;

  const shot = (name: string) => saveConsoleShot(tab, name);
  const signIn = () => signInToConsole(tab, s.url, s.a);

  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer(), startHttpTarget()]);
    for (const [name, tags] of [['Checkout API', ['shop']], ['Search API', ['shop', 'search']], ['Billing export', ['internal']]] as const) {
      expect((await s.a.request('POST', '/v1/checks/api', apiCheck(name, 'https://shop.example.test/health', [...tags]))).status).toBe(201);
    }
    const live = await s.a.request('POST', '/v1/checks/api', apiCheck(liveCheckName, `${target.http.url}/status/200`, ['live']));
    expect(live.status).toBe(201);
    liveCheckId = live.body.id;
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
    if (!targetClosed) await target?.close();
  });

  it('refuses a wrong API key with a clear message, then signs in with the right one and shows the overview', async () => {
    await openKeySignIn(tab, s.url);
    await tab.getByLabel('API key').fill('lk_not-a-real-key');
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => tab.getByRole('alert').textContent()).toContain('not accepted');
    expect(await tab.evaluate(() => localStorage.getItem('lookout.apiKey'))).toBeNull();

    await signIn();
    expect(await tab.evaluate(() => [localStorage.getItem('lookout.apiKey'), localStorage.getItem('lookout.accountId')])).toEqual([s.a.apiKey, s.a.accountId]);
    await tab.locator('[data-count="Checks"] .tile__count', { hasText: '4' }).waitFor();
    await shot('overview');
  });

  it('lists the stored checks and narrows them by text and tag', async () => {
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Checks' }).click();
    await tab.locator('tbody tr').nth(3).waitFor();
    const names = await tab.locator('tbody tr td:nth-child(3) a').allTextContents();
    expect(names.sort()).toEqual(['Billing export', 'Checkout API', liveCheckName, 'Search API']);

    await tab.getByLabel('Name contains').fill('api');
    await expect.poll(() => tab.locator('tbody tr td:nth-child(3) a').allTextContents()).toEqual(expect.arrayContaining(['Checkout API', 'Search API']));
    await expect.poll(() => tab.locator('tbody tr').count()).toBe(2);
    await expect.poll(() => new URL(tab.url()).search).toBe('?q=api');

    await tab.getByRole('button', { name: 'Filter by tag search' }).click();
    await expect.poll(() => tab.locator('tbody tr td:nth-child(3) a').allTextContents()).toEqual(['Search API']);
    await shot('checks-filtered');
    await tab.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => tab.locator('tbody tr').count()).toBe(4);
  });

  it('turns a check red live, without reloading, when its target starts failing', async () => {
    const row = tab.locator(`tr[data-check-id="${liveCheckId}"]`);
    await row.waitFor();
    // A marker a reload would wipe out.
    await tab.evaluate(() => { (window as unknown as { __sameDocument: boolean }).__sameDocument = true; });

    const pass = await s.a.request('POST', `/v1/checks/${liveCheckId}/run`);
    expect(pass.status).toBe(200);
    expect(pass.body.results[0].hasFailures).toBe(false);
    await expect.poll(() => row.getAttribute('data-health'), { timeout: 15_000 }).toBe('PASSING');

    await target.close();
    targetClosed = true;
    const fail = await s.a.request('POST', `/v1/checks/${liveCheckId}/run`);
    expect(fail.status).toBe(200);
    expect(fail.body.results[0].hasFailures).toBe(true);
    await expect.poll(() => row.getAttribute('data-health'), { timeout: 15_000 }).toBe('FAILING');
    expect(await row.locator('.status').textContent()).toBe('Failing');
    expect(await tab.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await shot('check-turned-red');
  });

  it('shows the check detail with its settings, results and the failing result\'s errors', async () => {
    await tab.locator(`tr[data-check-id="${liveCheckId}"] a`).first().click();
    await tab.getByRole('heading', { level: 1, name: liveCheckName }).waitFor();
    await tab.getByRole('heading', { name: 'Settings' }).waitFor();
    await expect.poll(() => tab.locator('.timeline__item').count()).toBe(2);
    await tab.getByRole('article', { name: 'Selected result' }).waitFor();
    expect(await tab.getByRole('article', { name: 'Selected result' }).textContent()).toContain('failed');
    await shot('check-detail');

    await tab.getByRole('button', { name: 'Mute', exact: true }).click();
    await tab.getByRole('button', { name: 'Unmute', exact: true }).waitFor();
    expect((await s.a.request('GET', `/v1/checks/${liveCheckId}`)).body.muted).toBe(true);
  });

  it('creates a check through the form: the API\'s complaint shows on the URL field, then a valid URL creates it', async () => {
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Checks', exact: true }).click();
    await tab.getByRole('main').getByRole('link', { name: 'New check' }).click();
    await tab.getByLabel('Name', { exact: true }).fill('Created in the console');
    await tab.getByLabel('URL', { exact: true }).fill('not a url');
    await tab.getByRole('button', { name: 'Create check' }).click();
    const urlError = tab.locator('[data-error-for="request.url"]');
    await urlError.waitFor();
    expect(await urlError.textContent()).toContain('http(s) URL');
    expect(await tab.getByLabel('URL', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await tab.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    await shot('check-form-invalid');

    await tab.getByLabel('URL', { exact: true }).fill('https://shop.example.test/created');
    await tab.getByRole('button', { name: 'Create check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Created in the console' }).waitFor();
    const stored = (await s.a.request('GET', '/v1/checks')).body as { name: string; request: { url: string } }[];
    expect(stored.find((c) => c.name === 'Created in the console')?.request.url).toBe('https://shop.example.test/created');
  });

  it('edits the created check: the form opens with its values and saves only what changed', async () => {
    await tab.getByRole('link', { name: 'Edit' }).click();
    await expect.poll(() => tab.getByLabel('URL', { exact: true }).inputValue()).toBe('https://shop.example.test/created');
    await tab.getByLabel('Name', { exact: true }).fill('Renamed in the console');
    await tab.getByLabel('Tags').fill('console, edited');
    await tab.getByRole('button', { name: 'Save check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Renamed in the console' }).waitFor();
    const stored = (await s.a.request('GET', '/v1/checks')).body as { name: string; tags: string[]; request: { url: string; assertions: unknown[] } }[];
    expect(stored.find((c) => c.name === 'Renamed in the console')).toMatchObject({
      tags: ['console', 'edited'],
      request: { url: 'https://shop.example.test/created', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
  });

  it('adds environment variables, shows the API\'s complaint on the key field, and never shows a secret\'s value', async () => {
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Variables' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Environment variables' }).waitFor();
    await tab.getByLabel('Key', { exact: true }).fill('not a key');
    await tab.getByLabel('Value', { exact: true }).fill('x');
    await tab.getByRole('button', { name: 'Add variable' }).click();
    await tab.locator('[data-error-for="key"]').waitFor();
    expect(await tab.getByLabel('Key', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await tab.getByLabel('Key', { exact: true }).fill('API_TOKEN');
    await tab.getByLabel('Value', { exact: true }).fill('s3cr3t-value');
    await tab.getByLabel(/Secret/).check();
    await tab.getByRole('button', { name: 'Add variable' }).click();
    const row = tab.locator('tr[data-variable="API_TOKEN"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('secret (write-only)');
    expect(await tab.content()).not.toContain('s3cr3t-value');
    expect((await s.a.request('GET', '/v1/variables/API_TOKEN')).body).toMatchObject({ key: 'API_TOKEN', secret: true });
    await shot('variables');

    await tab.getByRole('button', { name: 'Delete variable API_TOKEN' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await s.a.request('GET', '/v1/variables/API_TOKEN')).status).toBe(404);
  });

  it.each([
    ['light', 'rgb(246, 247, 249)'],
    ['dark', 'rgb(15, 18, 22)'],
  ])('follows the system\'s %s colour scheme until the toggle overrides it', async (scheme, background) => {
    const other = scheme === 'dark' ? 'light' : 'dark';
    const bodyBackground = () => tab.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await tab.getByLabel('Colour theme').selectOption('system');
    await tab.emulateMedia({ colorScheme: scheme as 'light' | 'dark' });
    expect(await bodyBackground()).toBe(background);
    await tab.getByLabel('Colour theme').selectOption(other);
    expect(await bodyBackground()).not.toBe(background);
    await tab.reload();
    await tab.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await tab.evaluate(() => document.documentElement.dataset.theme)).toBe(other);
    await shot(`theme-${other}`);
    await tab.getByLabel('Colour theme').selectOption('system');
    expect(await bodyBackground()).toBe(background);
  });

  it('signs out, forgetting the key', async () => {
    await tab.getByRole('button', { name: 'Sign out' }).click();
    await tab.getByRole('heading', { name: 'Sign in to Lookout' }).waitFor();
    expect(await tab.evaluate(() => [localStorage.getItem('lookout.apiKey'), localStorage.getItem('lookout.accountId')])).toEqual([null, null]);
  });

  it('ran without uncaught page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
