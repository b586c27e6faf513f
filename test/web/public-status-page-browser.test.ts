import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const CHROMIUM = process.env.LOOKOUT_CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve('test-artifacts/status-pages');
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`public status page browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

describe.skipIf(!hasChromium)('public status pages in a real browser', () => {
  let s: TestServer;
  let browser: Browser;
  let api: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    s = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    api = (await s.a.request('POST', '/v1/status-pages/services', { name: 'Checkout API' })).body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const createPage = async (body: Record<string, unknown>) => {
    const slug = `browser-${randomUUID().slice(0, 8)}`;
    const res = await s.a.request('POST', '/v1/status-pages', { name: 'Acme status', url: slug, cards: [{ name: 'Shop', services: [{ id: api }] }], ...body });
    expect(res.status).toBe(201);
    return slug;
  };

  it.each([
    ['light', 'rgb(250, 250, 240)'],
    ['dark', 'rgb(16, 32, 48)'],
  ] as const)('follows the visitor\'s %s colour scheme with the page\'s palette', async (scheme, background) => {
    const slug = await createPage({ defaultTheme: 'AUTO', themeColors: { light: { bodyBackgroundColor: '#FAFAF0' }, dark: { bodyBackgroundColor: '#102030' } } });
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1000, height: 800 } });
    const tab = await context.newPage();
    await tab.goto(`${s.url}/status/${slug}`);
    expect(await tab.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
    await expect.poll(() => tab.locator('.bars i').count()).toBe(90);
    await tab.screenshot({ path: path.join(ARTIFACTS, `theme-${scheme}.png`), fullPage: true });
    await context.close();
  });

  it('titles each uptime bar with its day on hover: today up, the days before the service existed without data', async () => {
    const slug = await createPage({});
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const tab = await context.newPage();
    await tab.goto(`${s.url}/status/${slug}`);
    const bars = tab.locator('.bars').first().locator('i');
    await bars.last().hover();
    const today = new Date().toISOString().slice(0, 10);
    await expect.poll(() => bars.last().getAttribute('title')).toBe(`${today}: 100.00%`);
    await bars.first().hover();
    const first = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
    await expect.poll(() => bars.first().getAttribute('title')).toBe(`${first}: No data`);
    await context.close();
  });

  it('shows a new incident and its resolution in an open page without a reload', async () => {
    const slug = await createPage({});
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${s.url}/status/${slug}`);
    await tab.evaluate(() => { (window as unknown as { marker: boolean }).marker = true; });
    await tab.waitForFunction(() => document.body.dataset.version !== undefined);
    const incident = await s.a.request('POST', '/v1/status-pages/incidents', {
      name: 'Payments failing', severity: 'CRITICAL', services: [{ id: api }], incidentUpdates: [{ description: 'Card payments fail', status: 'INVESTIGATING' }],
    });
    expect(incident.status).toBe(201);
    await tab.getByText('Payments failing').waitFor({ timeout: 10_000 });
    expect(await tab.locator(`[data-service-id="${api}"]`).getAttribute('data-state')).toBe('MAJOR_OUTAGE');
    await tab.screenshot({ path: path.join(ARTIFACTS, 'incident-live.png'), fullPage: true });
    await s.a.request('POST', `/v1/status-pages/incidents/${incident.body.id}/incident-updates`, { description: 'Fixed', status: 'RESOLVED' });
    await tab.getByText('All systems operational').waitFor({ timeout: 10_000 });
    // The same document all along: the page swapped its content in place.
    expect(await tab.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
    await context.close();
  });

  it('asks for a private page\'s password and shows the page once it is given', async () => {
    const slug = await createPage({ isPrivate: true, password: 'open sesame' });
    const context = await browser.newContext();
    const tab = await context.newPage();
    const first = await tab.goto(`${s.url}/status/${slug}`);
    expect(first?.status()).toBe(401);
    await expect.poll(() => tab.locator('.service').count()).toBe(0);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'private-prompt.png'), fullPage: true });
    await tab.fill('#password', 'wrong');
    await tab.click('button[type=submit]');
    await tab.getByText('That password is not right.').waitFor();
    await tab.fill('#password', 'open sesame');
    await tab.click('button[type=submit]');
    await tab.getByText('Checkout API').waitFor();
    await tab.screenshot({ path: path.join(ARTIFACTS, 'private-signed-in.png'), fullPage: true });
    await context.close();
  });
});
