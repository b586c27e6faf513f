import { existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const CHROMIUM = process.env.LOOKOUT_CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve('test-artifacts/status-pages');
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`status page from checks browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

describe.skipIf(!hasChromium)('a status page built from checks, in a real browser', () => {
  let s: TestServer;
  let browser: Browser;
  let target: http.Server;
  let healthy = true;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    target = http.createServer((_req, res) => res.writeHead(healthy ? 200 : 503).end(healthy ? 'ok' : 'down'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    s = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
  });

  it('turns red when the check fails, with no incident written by hand, and operational again when it passes', async () => {
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const check = (await s.a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name: 'Shop API health', frequency: 1440, locations: ['eu-west-1'],
      request: { method: 'GET', url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    })).body;
    const service = (await s.a.request('POST', '/v1/status-pages/services', { name: 'Shop API', checks: [{ id: check.id }] })).body;
    const slug = `checks-${randomUUID().slice(0, 8)}`;
    expect((await s.a.request('POST', '/v1/status-pages', { name: 'Shop status', url: slug, cards: [{ name: 'Shop', services: [{ id: service.id }] }] })).status).toBe(201);
    const run = async () => expect((await s.a.request('POST', `/v1/checks/${check.id}/run`)).status).toBe(200);
    await run();

    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const tab = await context.newPage();
    await tab.goto(`${s.url}/status/${slug}`);
    const state = () => tab.locator(`[data-service-id="${service.id}"]`).getAttribute('data-state');
    expect(await state()).toBe('OPERATIONAL');
    await tab.getByText('All systems operational').waitFor();
    await tab.screenshot({ path: path.join(ARTIFACTS, 'from-checks-operational.png'), fullPage: true });

    healthy = false;
    await run();
    // The open page refreshes itself on the change event the status change published.
    await expect.poll(state, { timeout: 15_000 }).toBe('MAJOR_OUTAGE');
    await tab.screenshot({ path: path.join(ARTIFACTS, 'from-checks-failing.png'), fullPage: true });
    const incidents = (await s.a.request('GET', '/v1/status-pages/incidents?limit=100')).body.entries;
    expect(incidents).toEqual([]);

    healthy = true;
    await run();
    await expect.poll(state, { timeout: 15_000 }).toBe('OPERATIONAL');
    await tab.getByText('All systems operational').waitFor();
    await tab.screenshot({ path: path.join(ARTIFACTS, 'from-checks-recovered.png'), fullPage: true });
    await context.close();
  });
});
