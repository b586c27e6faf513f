import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const chromium = loadConfig().chromiumPath;
const noBrowser = existsSync(chromium) ? '' : ` (skipped: no Chromium at ${chromium}; apt-get install chromium)`;

describe.skipIf(noBrowser !== '')(`screenshots of browser runs${noBrowser}`, () => {
  let s: TestServer;
  let page: Server;
  let url: string;
  beforeAll(async () => {
    page = createServer((_req, res) => res.setHeader('content-type', 'text/html').end('<title>Lookout page</title><h1>Hello</h1>'));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
    page?.close();
  });

  it('serves the screenshot a browser run kept, only to its account and only if the result lists it', async () => {
    const check = (await s.a.request('POST', '/v1/checks/browser', {
      name: 'Page title', locations: ['eu-west-1'],
      script: `await page.goto('${url}'); await expect(page).toHaveTitle('Lookout page');`,
    })).body;
    const outcome = await s.lookout.runner.runNow(s.a.accountId, check.id);
    const result = outcome.finals[0]!;
    expect(result.hasFailures).toBe(false);
    const asset = result.browserCheckResult.jobAssets[0];
    expect(asset).toMatchObject({ type: 'screenshot', contentType: 'image/png' });
    const res = await s.a.request('GET', `/v1/check-results/${check.id}/${result.id}/assets/${asset.file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(res.text, 'latin1').subarray(1, 4).toString('latin1')).toBe('PNG');
    expect((await s.b.request('GET', `/v1/check-results/${check.id}/${result.id}/assets/${asset.file}`)).status).toBe(404);
    expect((await s.a.request('GET', `/v1/check-results/${check.id}/${result.id}/assets/other.png`)).status).toBe(404);
    expect((await s.a.request('GET', `/v1/check-results/${check.id}/${result.id}/assets/..%2F..%2Fetc%2Fpasswd`)).status).toBe(400);
  });
});
