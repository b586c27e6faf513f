import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot, signInToConsole } from '../../support/console-browser.js';
import { startHttpReceiver, type HttpReceiver } from '../../support/http-receiver.js';
import { probe, runnable, testRecorder } from '../../support/run-results.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

if (skipReason) console.warn(`alert-channel-actions-browser.test.ts: skipping, ${skipReason}`);

const MINUTE = 60_000;

describe.skipIf(Boolean(skipReason))(`the alert channel page's Send test, check and group pickers and template variables in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  let receiver: HttpReceiver;
  const pageErrors: string[] = [];
  const checkIds: string[] = [];
  let failedResultId: string;

  const shot = (name: string) => saveConsoleShot(tab, name);
  const card = (name: string) => tab.locator('li.card', { hasText: name });

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    s = await startTestServer();
    for (const [name, path] of [['Good hook', '/good'], ['Broken hook', '/broken']]) {
      const res = await s.a.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name, url: `${receiver.url}${path}` } });
      expect(res.status).toBe(201);
    }
    expect((await s.a.request('POST', '/v1/check-groups', { name: 'Payments', activated: false, alertChannelSubscriptions: [] })).status).toBe(201);
    const recorder = testRecorder(s.lookout.store);
    // Deactivated: the runs are the ones written here, not scheduled ones.
    for (const name of ['Homepage', 'Checkout']) {
      const res = await s.a.request('POST', '/v1/checks/api?autoAssignAlerts=false', { name, activated: false, locations: ['eu-west-1'], request: { url: 'https://shop.example.test' } });
      expect(res.status).toBe(201);
      checkIds.push(res.body.id);
    }
    const homepage = runnable(s.a, (await s.a.request('GET', `/v1/checks/${checkIds[0]}`)).body);
    const failed = await recorder.record({ check: homepage, probe: probe({ at: new Date(Date.now() - 10 * MINUTE), hasFailures: true }) });
    failedResultId = failed.id;
    await recorder.record({ check: homepage, probe: probe({ at: new Date(Date.now() - MINUTE) }) });
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(15_000);
    await signInToConsole(tab, s.url, s.a);
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
    await receiver?.close();
  });

  it('sends a test message from the channel page and says it was delivered, or why the receiver refused it', async () => {
    await tab.goto(`${s.url}/alert-channels`);
    await card('Good hook').getByRole('button', { name: /Send a test message/ }).click();
    await card('Good hook').getByRole('status').filter({ hasText: 'Test message delivered' }).waitFor();
    expect(receiver.to('/good')[0]!.json).toMatchObject({ isTest: true });
    await shot('alert-channel-send-test-delivered');

    receiver.answer('/broken', 500);
    await card('Broken hook').getByRole('button', { name: /Send a test message/ }).click();
    const refusal = card('Broken hook').getByRole('alert').filter({ hasText: 'The receiver refused the message.' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('HTTP 500');
    await shot('alert-channel-send-test-refused');
  });

  it('subscribes every check at once with "All checks"', async () => {
    await tab.goto(`${s.url}/alert-channels`);
    const good = card('Good hook');
    await good.getByLabel('All checks').check();
    await good.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await tab.getByRole('status').filter({ hasText: 'Subscribed all 2 checks' }).waitFor();
    await good.getByRole('link', { name: 'Checkout' }).waitFor();
    const channels = (await s.a.request('GET', '/v1/alert-channels')).body as { config: { name: string }; subscriptions: { checkId: string }[] }[];
    const subscribed = channels.find((c) => c.config.name === 'Good hook')!.subscriptions.map((x) => x.checkId);
    expect(subscribed.sort()).toEqual([...checkIds].sort());
    await shot('alert-channel-all-checks-subscribed');
  });

  it('subscribes a group with the group picker', async () => {
    await tab.goto(`${s.url}/alert-channels`);
    const broken = card('Broken hook');
    await broken.getByLabel('Subscribe groups').selectOption({ label: 'Payments' });
    await broken.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await tab.getByRole('status').filter({ hasText: 'Subscribed 1 group to the' }).waitFor();
    await broken.getByRole('link', { name: 'Payments' }).waitFor();
    expect(await broken.getByLabel('Subscribe groups').count()).toBe(0);
    const channels = (await s.a.request('GET', '/v1/alert-channels')).body as { config: { name: string }; subscriptions: { checkId: string | null; groupId: number | null }[] }[];
    expect(channels.find((c) => c.config.name === 'Broken hook')!.subscriptions).toEqual([expect.objectContaining({ checkId: null, groupId: expect.any(Number) })]);
    await shot('alert-channel-group-subscribed');
  });

  it("lists the webhook template variables the server renders in the channel form", async () => {
    await tab.goto(`${s.url}/alert-channels`);
    await tab.getByLabel('Channel type').selectOption('WEBHOOK');
    await tab.getByText('Template variables').click();
    const list = tab.getByRole('definition').first();
    await list.waitFor();
    for (const name of ['{{CHECK_URL}}', '{{RESULT_URL}}', '{{IS_TEST}}', '{{ALERT_TITLE}}']) await tab.getByRole('term').filter({ hasText: name }).waitFor();
    await shot('alert-channel-template-variables');
  });

  it('opens the result an alert links to (/checks/<id>?result=<id>)', async () => {
    await tab.goto(`${s.url}/checks/${checkIds[0]}?result=${failedResultId}`);
    await tab.getByRole('article', { name: 'Selected result' }).getByRole('heading', { name: /failed/ }).waitFor();
    await shot('check-detail-linked-result');
    expect(pageErrors).toEqual([]);
  });
});
