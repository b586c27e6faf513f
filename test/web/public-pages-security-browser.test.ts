import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ARTIFACTS = path.resolve('test-artifacts/public-pages');
if (!chromiumInstalled) console.warn(`public page security browser tests skipped: ${NO_CHROMIUM}`);

/** What an incident says that a page or feed must show as text, never run. */
const HOSTILE = '<script>alert(1)</script> & "x"';

/** An attacker's site on another loopback origin: `/?src=URL` is a page framing URL. */
async function startFramingSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><head><title>Win a prize</title></head><body><h1>Click the button</h1><iframe id="victim" width="800" height="500" src="${src.replace(/"/g, '&quot;')}"></iframe></body></html>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Console messages about Content-Security-Policy violations a tab reports from now on. */
function cspViolations(tab: Page): string[] {
  const seen: string[] = [];
  tab.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text()); });
  return seen;
}

describe.skipIf(!chromiumInstalled)('public pages in a real browser: security', () => {
  let s: TestServer;
  let browser: Browser;
  let attacker: { url: string; close(): Promise<void> };
  let api: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [s, attacker] = await Promise.all([startTestServer(), startFramingSite()]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    api = (await s.a.request('POST', '/v1/status-pages/services', { name: 'Checkout API' })).body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await attacker?.close();
    await s?.close();
  });

  const createPage = async (body: Record<string, unknown> = {}) => {
    const slug = `secure-${randomUUID().slice(0, 8)}`;
    const res = await s.a.request('POST', '/v1/status-pages', { name: 'Acme status', url: slug, cards: [{ name: 'Shop', services: [{ id: api }] }], ...body });
    expect(res.status).toBe(201);
    return slug;
  };

  it('cannot be framed by another origin: status page, password form and dashboard', async () => {
    const open = await createPage();
    const closed = await createPage({ isPrivate: true, password: 'open sesame' });
    expect((await s.a.request('POST', '/v1/dashboards', { customUrl: `frame-${open}`, header: 'Ops board', tags: ['none'] })).status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 900, height: 640 } });
    for (const [name, target] of [['status-page', `/status/${open}`], ['password-form', `/status/${closed}`], ['dashboard', `/dashboards/frame-${open}`]] as const) {
      const tab = await context.newPage();
      const refused = cspViolations(tab);
      await tab.goto(`${attacker.url}/?src=${encodeURIComponent(`${s.url}${target}`)}`);
      const frame = await (await tab.waitForSelector('#victim')).contentFrame();
      await expect.poll(() => refused.some((m) => m.includes('frame-ancestors'))).toBe(true);
      await tab.screenshot({ path: path.join(ARTIFACTS, `framed-${name}.png`) });
      // The browser showed its error page in the frame, not ours: nothing of the page is there to click.
      expect(frame?.url()).not.toBe(`${s.url}${target}`);
      expect(await frame?.locator('#password, .service, .dashboard, [data-version]').count()).toBe(0);
      await tab.close();
    }
    await context.close();
  });

  it('runs the status page and its password form under the policy without a violation, and sends the headers with page, badge and feeds', async () => {
    const slug = await createPage({ isPrivate: true, password: 'open sesame' });
    const context = await browser.newContext();
    const tab = await context.newPage();
    const violations = cspViolations(tab);
    const prompt = await tab.goto(`${s.url}/status/${slug}`);
    expect(prompt?.headers()['x-frame-options']).toBe('DENY');
    await tab.fill('#password', 'open sesame');
    await tab.click('button[type=submit]');
    await tab.getByText('Checkout API').waitFor();
    // The live-update script runs (allowed by its hash): a new incident shows without a reload.
    const incident = await s.a.request('POST', '/v1/status-pages/incidents', {
      name: 'Card payments failing', severity: 'CRITICAL', services: [{ id: api }], incidentUpdates: [{ description: 'Investigating', status: 'INVESTIGATING' }],
    });
    expect(incident.status).toBe(201);
    await tab.getByText('Card payments failing').waitFor({ timeout: 10_000 });
    await tab.screenshot({ path: path.join(ARTIFACTS, 'private-signed-in.png'), fullPage: true });
    expect(violations).toEqual([]);
    await s.a.request('DELETE', `/v1/status-pages/incidents/${incident.body.id}`);

    const check = (await s.a.request('POST', '/v1/checks/api', { name: 'Shop', request: { url: 'https://shop.example.test' } })).body as { id: string };
    const badge = await tab.goto(`${s.url}/badges/${(await s.a.request('POST', `/v1/badges/checks/${check.id}/public`)).body.token}`);
    const open = await createPage();
    for (const res of [badge, await tab.goto(`${s.url}/status/${open}/feed.rss`), await tab.goto(`${s.url}/status/${open}/feed.atom`)]) {
      expect(res?.headers()).toMatchObject({ 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
      expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    await context.close();
  });

  it('feeds carry an incident\'s text as text: a reader\'s XML parse (and RSS\'s one HTML decode) shows it literally', async () => {
    const slug = await createPage();
    const incident = await s.a.request('POST', '/v1/status-pages/incidents', {
      name: HOSTILE, severity: 'MINOR', services: [{ id: api }], incidentUpdates: [{ description: HOSTILE, status: 'INVESTIGATING' }],
    });
    expect(incident.status).toBe(201);
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${s.url}/status/${slug}/history`);
    const read = await tab.evaluate(async (base) => {
      const xml = async (kind: string) => new DOMParser().parseFromString(await (await fetch(`${base}/feed.${kind}`)).text(), 'application/xml');
      const [rss, atom] = [await xml('rss'), await xml('atom')];
      const item = [...rss.querySelectorAll('item')].find((i) => i.querySelector('guid')?.textContent?.startsWith('incident:'));
      // A reader renders the description as HTML: what a visitor sees is its text, and no element it made.
      const shown = new DOMParser().parseFromString(item?.querySelector('description')?.textContent ?? '', 'text/html');
      const entry = [...atom.getElementsByTagName('entry')].find((e) => e.getElementsByTagName('id')[0]?.textContent?.includes('#incident:'));
      return {
        parseErrors: rss.getElementsByTagName('parsererror').length + atom.getElementsByTagName('parsererror').length,
        rssTitle: item?.querySelector('title')?.textContent,
        rssShown: shown.body.textContent,
        rssScripts: shown.querySelectorAll('script').length,
        atomTitle: entry?.getElementsByTagName('title')[0]?.textContent,
        atomContent: entry?.getElementsByTagName('content')[0]?.textContent,
      };
    }, `/status/${slug}`);
    expect(read.parseErrors).toBe(0);
    expect(read.rssTitle).toContain(HOSTILE);
    expect(read.rssShown).toContain(`INVESTIGATING: ${HOSTILE}`);
    expect(read.rssScripts).toBe(0);
    expect(read.atomTitle).toContain(HOSTILE);
    expect(read.atomContent).toContain(`INVESTIGATING: ${HOSTILE}`);
    await s.a.request('DELETE', `/v1/status-pages/incidents/${incident.body.id}`);
    await context.close();
  });
});
