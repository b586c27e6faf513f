import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';

if (!chromiumInstalled) console.warn(`dashboard-browser.test.ts: skipping the dashboard browser tests, ${NO_CHROMIUM}`);

const ARTIFACTS = path.resolve('test-artifacts/dashboards');
/** A custom domain the browser resolves to the test server (--host-resolver-rules). */
const CUSTOM_DOMAIN = 'status.browser-dashboard.test';
/** Markup that would run script if the page let it through unescaped. */
const HOSTILE = '<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script>';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe.skipIf(!chromiumInstalled)(`public dashboards in Chromium${chromiumInstalled ? '' : ` (skipped: ${NO_CHROMIUM})`}`, () => {
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP ${CUSTOM_DOMAIN} 127.0.0.1`],
    });
  });
  afterAll(async () => browser?.close());

  describe.each(BACKENDS)('on $name', (backend) => {
    let s: TestServer;
    let tab: Page;
    const dialogs: string[] = [];

    beforeAll(async () => {
      s = await startTestServer({ backend });
      const recorder = testRecorder(s.lookout.store);
      const create = async (name: string, outcome: { hasFailures?: boolean; isDegraded?: boolean } | null) => {
        const res = await s.a.request('POST', '/v1/checks/api', { name, tags: ['web'], locations: ['eu-west-1'], request: { url: 'https://shop.example.test' } });
        expect(res.status).toBe(201);
        if (outcome) await recorder.record({ check: runnable(s.a, res.body), probe: probe({ at: new Date(Date.now() - 60_000), responseTime: 180, ...outcome }) });
      };
      await create('Storefront', {});
      await create('Checkout', { hasFailures: true });
      await create('Search', { isDegraded: true });
      await create('Recommendations', null);
      await create(HOSTILE, {});
      const dashboard = await s.a.request('POST', '/v1/dashboards', {
        customUrl: 'browser', customDomain: CUSTOM_DOMAIN, header: `Shop ${HOSTILE}`, description: 'Live status of the shop',
        tags: ['web'], paginate: true, checksPerPage: 3, width: '960PX', expandChecks: true,
        customCSS: '.dashboard__title { color: rgb(1, 2, 3) } .dashboard__title::after { content: "</sty" "le>" }',
      });
      expect(dashboard.status).toBe(201);
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      tab = await context.newPage();
      tab.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
    });
    afterAll(async () => {
      await tab?.context().close();
      await s?.close();
    });

    it('draws the dashboard: header as text, statuses, details open, the custom CSS applied, and no script run', async () => {
      const res = await tab.goto(`${s.url}/dashboards/browser`);
      expect(res?.status()).toBe(200);
      expect(await tab.locator('h1.dashboard__title').textContent()).toBe(`Shop ${HOSTILE}`);
      expect(await tab.locator('.dashboard__title').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(1, 2, 3)');
      expect(await tab.locator('.dashboard__main').evaluate((el) => getComputedStyle(el).maxWidth)).toBe('960px');
      // Page 1 of 2, three checks by name: the hostile one sorts first ("<").
      expect(await tab.locator('.check__name').allTextContents()).toEqual([HOSTILE, 'Checkout', 'Recommendations']);
      expect(await tab.locator('.check').evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).toEqual(['passing', 'failing', 'unknown']);
      expect(await tab.locator('details[open]').count()).toBe(3);
      expect(await tab.locator('.dashboard__summary').textContent()).toBe('1 failing, 1 degraded, 1 not run yet');
      expect(await tab.locator('meta[http-equiv="refresh"]').getAttribute('content')).toBe('60;url=?page=2');
      expect(await tab.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await tab.locator('script').count()).toBe(0);
      expect(dialogs).toEqual([]);
      const file = path.join(ARTIFACTS, `dashboard-${backend.name}.png`);
      await tab.screenshot({ path: file, fullPage: true });
      expect(readFileSync(file).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    });

    it('goes to the second page through its link', async () => {
      await tab.goto(`${s.url}/dashboards/browser`);
      await tab.locator('.dashboard__pages a', { hasText: '2' }).click();
      await tab.waitForURL(/\?page=2$/);
      expect(await tab.locator('.check__name').allTextContents()).toEqual(['Search', 'Storefront']);
      expect(await tab.locator('.dashboard__pages a[aria-current="page"]').textContent()).toBe('2');
    });

    it('shows the same dashboard on its custom domain', async () => {
      const res = await tab.goto(`http://${CUSTOM_DOMAIN}:${new URL(s.url).port}/`);
      expect(res?.status()).toBe(200);
      expect(await tab.locator('.dashboard__description').textContent()).toBe('Live status of the shop');
      expect(await tab.locator('.check').count()).toBe(3);
      const file = path.join(ARTIFACTS, `dashboard-custom-domain-${backend.name}.png`);
      await tab.screenshot({ path: file, fullPage: true });
      expect(readFileSync(file).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    });
  });
});
