import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot, signInToConsole } from '../../support/console-browser.js';
import { probe, runnable, testRecorder } from '../../support/run-results.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

if (skipReason) console.warn(`check-list-actions-browser.test.ts: skipping the check list action tests, ${skipReason}`);

const MINUTE = 60_000;

describe.skipIf(Boolean(skipReason))(`the console's check list and check page in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  const pageErrors: string[] = [];
  const ids: Record<string, string> = {};

  const row = (name: string) => tab.locator('tr', { has: tab.getByRole('link', { name, exact: true }) });
  const restCheck = async (name: string) => (await s.a.request('GET', `/v1/checks/${ids[name]}`));

  beforeAll(async () => {
    s = await startTestServer();
    const recorder = testRecorder(s.lookout.store);
    const now = Date.now();
    // Deactivated: the runs are the ones written here, not scheduled ones.
    for (const name of ['Homepage', 'Checkout', 'Search', 'Blog']) {
        const res = await s.a.request('POST', '/v1/checks/api', { name, activated: false, locations: ['eu-west-1'], request: { url: 'https://shop.example.test' } });
      expect(res.status).toBe(201);
      ids[name] = res.body.id;
      const check = runnable(s.a, res.body);
      // Homepage: 4 runs over the last hour, one failed, the certificate 9 days from expiry.
      const runs = name === 'Homepage' ? [50, 35, 20, 5] : name === 'Checkout' ? [40] : [];
      for (const [i, minutesAgo] of runs.entries()) {
        await recorder.record({ check, probe: probe({ at: new Date(now - minutesAgo * MINUTE), responseTime: 100 + i * 50, hasFailures: i === 2, details: { sslDaysRemaining: name === 'Homepage' ? 9 : 200 } }) });
      }
    }
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(15_000);
    await signInToConsole(tab, s.url, s.a);
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
  });

  it('shows uptime over 24 h, 7 d and 30 d and the certificate expiry of each check', async () => {
    await tab.goto(`${s.url}/checks`);
    await row('Homepage').waitFor();
    // 3 of the 4 Homepage runs passed; Search never ran.
    await row('Homepage').getByLabel('Uptime: 75 % over the last 24 hours, 75 % over the last 7 days, 75 % over the last 30 days').waitFor();
    await row('Checkout').getByLabel(/^Uptime: 100 % over the last 24 hours/).waitFor();
    await row('Search').getByLabel('Uptime: – over the last 24 hours, – over the last 7 days, – over the last 30 days').waitFor();
    expect(await row('Homepage').getByLabel('Certificate expires in 9 days').textContent()).toBe('cert 9 d');
    expect(await row('Checkout').getByLabel('Certificate expires in 200 days').textContent()).toBe('cert 200 d');
    expect(await row('Search').locator('.cert').count()).toBe(0);
    await saveConsoleShot(tab, 'check-list-uptime');
  });

  it('charts every run of the last hour and day on the check page, with time and millisecond axes', async () => {
    await row('Homepage').getByRole('link', { name: 'Homepage' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Homepage' }).waitFor();
    const uptime = tab.getByRole('definition').filter({ hasText: '%' });
    await uptime.first().waitFor();
    expect(await tab.getByLabel('Uptime', { exact: true }).textContent()).toBe('Uptime 24 h75 %Uptime 7 d75 %Uptime 30 d75 %');
    await tab.getByRole('definition').filter({ hasText: 'Expires in 9 days' }).waitFor();
    const chart = tab.getByRole('img', { name: 'Response time of 4 runs over the last hour, 1 failed' });
    await chart.waitFor();
    expect(await chart.getAttribute('data-runs')).toBe('4');
    // uPlot draws the axes on a canvas (see the screenshots); its legend is text: pointing at the
    // chart names the nearest run's time and response time as people read them.
    const over = chart.locator('.u-over');
    const box = (await over.boundingBox())!;
    await tab.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    const legend = chart.locator('.u-legend');
    await legend.getByText(/^\d+ ms$/).first().waitFor();
    expect(await legend.textContent()).toMatch(/Response time\s*\d+ ms/);
    expect(await legend.textContent()).toMatch(/\d{1,2}:\d{2}/);
    await saveConsoleShot(tab, 'check-detail-run-chart-hour');
    await tab.getByRole('group', { name: 'Chart window' }).getByRole('button', { name: 'Last day' }).click();
    await tab.getByRole('img', { name: 'Response time of 4 runs over the last day, 1 failed' }).waitFor();
    await saveConsoleShot(tab, 'check-detail-run-chart-day');
  });

  it('deletes a check from its page after a confirmation', async () => {
    await tab.goto(`${s.url}/checks/${ids.Search}`);
    await tab.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
    await tab.getByRole('button', { name: 'Delete check' }).click();
    await tab.getByText('Delete Search? Its results and settings are removed for good.').waitFor();
    await saveConsoleShot(tab, 'check-detail-delete-confirm');
    // Cancel keeps it.
    await tab.getByRole('button', { name: 'Cancel' }).click();
    expect((await restCheck('Search')).status).toBe(200);
    await tab.getByRole('button', { name: 'Delete check' }).click();
    await tab.getByRole('button', { name: 'Confirm delete' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Checks' }).waitFor();
    expect((await restCheck('Search')).status).toBe(404);
    await row('Homepage').waitFor();
    expect(await row('Search').count()).toBe(0);
  });

  it('pauses, resumes, mutes and deletes the selected checks, each after a confirmation', async () => {
    const bar = tab.getByRole('group', { name: 'Actions on the selected checks' });
    const status = tab.locator('.bulk-bar').getByRole('status');
    await row('Blog').getByRole('checkbox', { name: 'Select Blog' }).check();
    await row('Checkout').getByRole('checkbox', { name: 'Select Checkout' }).check();
    await bar.getByText('2 selected').waitFor();
    await tab.getByRole('checkbox', { name: 'Select all checks on this page' }).check();
    await bar.getByText('3 selected').waitFor();

    await bar.getByRole('button', { name: 'Resume', exact: true }).click();
    await bar.getByText('Resume 3 checks? They run on their schedules again.').waitFor();
    await saveConsoleShot(tab, 'check-list-bulk-confirm');
    await bar.getByRole('button', { name: 'Confirm resume' }).click();
    await status.filter({ hasText: 'Resumed 3 checks.' }).waitFor();
    for (const name of ['Homepage', 'Checkout', 'Blog']) expect((await restCheck(name)).body.activated).toBe(true);
    // Succeeded checks are deselected.
    await bar.getByText('0 selected').waitFor();

    await tab.getByRole('checkbox', { name: 'Select all checks on this page' }).check();
    await bar.getByRole('button', { name: 'Pause', exact: true }).click();
    await bar.getByText('Pause 3 checks? They stop running until resumed.').waitFor();
    await bar.getByRole('button', { name: 'Confirm pause' }).click();
    await status.filter({ hasText: 'Paused 3 checks.' }).waitFor();
    for (const name of ['Homepage', 'Checkout', 'Blog']) expect((await restCheck(name)).body.activated).toBe(false);
    await row('Blog').getByText('deactivated', { exact: true }).waitFor();

    await row('Homepage').getByRole('checkbox').check();
    await bar.getByRole('button', { name: 'Mute', exact: true }).click();
    await bar.getByRole('button', { name: 'Confirm mute' }).click();
    await status.filter({ hasText: 'Muted 1 check.' }).waitFor();
    expect((await restCheck('Homepage')).body.muted).toBe(true);
    await row('Homepage').getByText('muted', { exact: true }).waitFor();

    await row('Blog').getByRole('checkbox').check();
    await row('Checkout').getByRole('checkbox').check();
    await bar.getByRole('button', { name: 'Delete', exact: true }).click();
    await bar.getByText('Delete 2 checks? Their results and settings are removed for good.').waitFor();
    await bar.getByRole('button', { name: 'Cancel' }).click();
    expect((await restCheck('Blog')).status).toBe(200);
    await bar.getByRole('button', { name: 'Delete', exact: true }).click();
    await bar.getByRole('button', { name: 'Confirm delete' }).click();
    await status.filter({ hasText: 'Deleted 2 checks.' }).waitFor();
    expect((await restCheck('Blog')).status).toBe(404);
    expect((await restCheck('Checkout')).status).toBe(404);
    await row('Blog').waitFor({ state: 'detached' });
    await row('Checkout').waitFor({ state: 'detached' });
    expect(await row('Homepage').count()).toBe(1);
    await saveConsoleShot(tab, 'check-list-bulk-deleted');
    expect(pageErrors).toEqual([]);
  });
});
