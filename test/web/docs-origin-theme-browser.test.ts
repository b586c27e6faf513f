import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { CHROMIUM } from '../support/chromium.js';
import { CONSOLE_SKIP_REASON } from '../support/console-browser.js';

const ARTIFACTS = path.resolve('test-artifacts/docs-origin-theme');
/** Where the server says it lives: another origin than the one the browser opens (http://127.0.0.1:<port>). */
const PUBLIC_URL = 'https://lookout.example.test';

/** The mean of the red, green and blue of GraphiQL's background (0 black, 255 white). */
async function graphiqlBrightness(tab: Page): Promise<number> {
  const colour = await tab.evaluate(() => getComputedStyle(document.querySelector('.graphiql-container')!).backgroundColor);
  const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return ((r ?? 0) + (g ?? 0) + (b ?? 0)) / 3;
}

if (CONSOLE_SKIP_REASON) console.warn(`docs-origin-theme-browser.test.ts: skipped, ${CONSOLE_SKIP_REASON}`);

describe.skipIf(!!CONSOLE_SKIP_REASON)(`/docs from any origin, GraphiQL and /docs in the console's theme${CONSOLE_SKIP_REASON ? ` (skipped: ${CONSOLE_SKIP_REASON})` : ''}`, () => {
  let browser: Browser;
  let s: TestServer;
  let context: BrowserContext;
  let tab: Page;
  /** What the pages logged as errors (a request the page's policy blocked shows up here). */
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    s = await startTestServer({ config: { publicUrl: PUBLIC_URL } });
    const created = await s.a.request('POST', '/v1/checks/api', { name: 'Tried out', locations: ['eu-west-1'], request: { url: 'https://shop.example.test' } });
    expect(created.status).toBe(201);
    // The reader's system is dark; the console's toggle was never touched.
    context = await browser.newContext({ viewport: { width: 1300, height: 900 }, colorScheme: 'dark' });
    tab = await context.newPage();
    tab.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    tab.on('pageerror', (err) => errors.push(err.message));
    // Signed in as the console leaves it: the key and account in localStorage.
    await tab.goto(`${s.url}/docs`);
    await tab.evaluate(({ key, account }) => {
      localStorage.setItem('lookout.apiKey', key);
      localStorage.setItem('lookout.accountId', account);
    }, { key: s.a.apiKey, account: s.a.accountId });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
  });

  it('runs "Try it out" against the origin the page was opened on, not LOOKOUT_PUBLIC_URL', async () => {
    expect(new URL(s.url).origin).not.toBe(PUBLIC_URL);
    await tab.goto(`${s.url}/docs`);
    // Swagger UI draws operations as they scroll into view: the tag filter brings the Checks ones first.
    await tab.locator('.operation-filter-input').fill('Checks');
    const summary = tab.locator('.opblock-summary-operation-id', { hasText: /^listChecks$/ });
    await summary.click({ timeout: 60_000 });
    const operation = tab.locator('.opblock.is-open', { has: summary });
    await operation.waitFor();
    // The servers list starts with this page's origin; LOOKOUT_PUBLIC_URL stays listed after it.
    const servers = await tab.locator('.servers select option').allInnerTexts();
    expect(servers[0]).toContain(new URL(s.url).origin);
    expect(servers.some((text) => text.includes(PUBLIC_URL))).toBe(true);
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status');
    await expect.poll(async () => (await status.count()) > 0 ? (await status.first().innerText()).trim() : '').toBe('200');
    // The answer's body, as Swagger UI shows it under the status: the check made above.
    expect(await operation.locator('.live-responses-table').innerText()).toContain('Tried out');
    await tab.screenshot({ path: path.join(ARTIFACTS, 'docs-try-it-out-dark.png') });
    expect(errors).toEqual([]);
  });

  it('draws /docs and GraphiQL dark when the system is dark, and light when the console chose light', async () => {
    await tab.goto(`${s.url}/docs`);
    await expect.poll(() => tab.evaluate(() => document.documentElement.classList.contains('dark-mode'))).toBe(true);
    await tab.goto(`${s.url}/graphql`);
    await tab.locator('.graphiql-container').waitFor();
    // GraphiQL marks a forced theme with a class and draws the system's with a media query: read the colour drawn.
    await expect.poll(() => graphiqlBrightness(tab)).toBeLessThan(100);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'graphiql-dark.png') });

    // The console's toggle (use-theme.ts) wins over the system's preference, on every page.
    await tab.evaluate(() => localStorage.setItem('lookout.theme', 'light'));
    await tab.reload();
    await tab.locator('.graphiql-container').waitFor();
    await expect.poll(() => graphiqlBrightness(tab)).toBeGreaterThan(180);
    expect(await tab.evaluate(() => document.body.classList.contains('graphiql-light'))).toBe(true);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'graphiql-light-by-choice.png') });
    await tab.goto(`${s.url}/docs`);
    await tab.locator('.opblock').first().waitFor({ timeout: 60_000 });
    expect(await tab.evaluate(() => document.documentElement.classList.contains('dark-mode'))).toBe(false);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'docs-light-by-choice.png') });
    await tab.evaluate(() => localStorage.removeItem('lookout.theme'));
    expect(errors).toEqual([]);
  });

  it('serves one icon, named by the console, GraphiQL and /docs and answered at /favicon.ico', async () => {
    for (const page of ['/', '/graphql', '/docs']) {
      await tab.goto(`${s.url}${page}`);
      expect(await tab.locator('link[rel="icon"]').getAttribute('href', { timeout: 60_000 })).toBe('/favicon.svg');
    }
    for (const file of ['/favicon.svg', '/favicon.ico']) {
      const res = await fetch(`${s.url}${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await res.text()).toContain('<svg');
    }
  });
});
