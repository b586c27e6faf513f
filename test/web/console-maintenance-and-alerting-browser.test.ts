import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot, signInToConsole } from '../support/console-browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

if (skipReason) console.warn(`console-maintenance-and-alerting-browser.test.ts: skipping, ${skipReason}`);

describe.skipIf(Boolean(skipReason))(`the console's maintenance state and the check form's alerting in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  const pageErrors: string[] = [];
  let windowId: number;
  let channelId: number;

  const shot = (name: string) => saveConsoleShot(tab, name);
  const maintenances = async () => (await s.a.request('GET', `/v1/maintenance-windows/${windowId}/maintenances`)).body as { status: string }[];

  beforeAll(async () => {
    s = await startTestServer();
    const channel = await s.a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'ops@example.test' } });
    expect(channel.status).toBe(201);
    channelId = channel.body.id;
    // Deactivated: nothing runs against the made-up host.
    const check = await s.a.request('POST', '/v1/checks/url', { name: 'Orders database', activated: false, tags: ['db'], request: { url: 'https://db.example.test' } });
    expect(check.status).toBe(201);
    const startsAt = new Date(Date.now() + 3_600_000).toISOString();
    const endsAt = new Date(Date.now() + 7_200_000).toISOString();
    const window = await s.a.request('POST', '/v1/maintenance-windows', { name: 'DB upgrade', startsAt, endsAt, tags: ['db'] });
    expect(window.status).toBe(201);
    windowId = window.body.id;
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(15_000);
    await signInToConsole(tab, s.url, s.a);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
  });

  it('shows a window scheduled, starts it now (the check then says it is in maintenance) and ends it now', async () => {
    await tab.goto(`${s.url}/maintenance`);
    const row = tab.getByRole('table', { name: 'Maintenance windows' }).getByRole('row').filter({ hasText: 'DB upgrade' });
    await row.locator('[data-window-state="SCHEDULED"]').waitFor();
    expect(await row.textContent()).toMatch(/Scheduled from \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    // A new window silences only what its tags name unless asked.
    expect(await tab.getByLabel('Silence every alert while it runs').isChecked()).toBe(false);

    await row.getByRole('link', { name: 'DB upgrade' }).click();
    await tab.getByRole('heading', { level: 1, name: 'DB upgrade' }).waitFor();
    await tab.getByRole('button', { name: 'Start now' }).click();
    await tab.getByRole('status').filter({ hasText: 'Maintenance started.' }).waitFor();
    await tab.locator('[data-window-state="IN_PROGRESS"]').waitFor();
    expect((await maintenances())[0]?.status).toBe('IN_PROGRESS');
    await shot('maintenance-started-now');

    await tab.goto(`${s.url}/checks`);
    const checkRow = tab.locator('tr', { hasText: 'Orders database' });
    await checkRow.locator('[data-maintenance="IN_PROGRESS"]').waitFor();
    await shot('check-list-in-maintenance');
    await checkRow.getByRole('link', { name: 'Orders database' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Orders database' }).waitFor();
    const badge = tab.locator('[data-maintenance="IN_PROGRESS"]');
    await badge.waitFor();
    expect(await badge.textContent()).toMatch(/^In maintenance until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(alerts silenced\) · DB upgrade$/);
    await shot('check-detail-in-maintenance');

    await badge.click();
    await tab.getByRole('heading', { level: 1, name: 'DB upgrade' }).waitFor();
    await tab.getByRole('button', { name: 'End now' }).click();
    await tab.getByRole('status').filter({ hasText: 'Maintenance ended.' }).waitFor();
    await tab.locator('[data-window-state="ENDED"]').waitFor();
    expect((await maintenances())[0]?.status).toBe('COMPLETED');
    await shot('maintenance-ended-now');
  });

  it('creates a check with a frequency choice, retries, its own escalation and reminders, and no channel; readable errors first', async () => {
    await tab.goto(`${s.url}/checks/new?type=URL`);
    await tab.getByRole('heading', { level: 1, name: 'New URL check' }).waitFor();
    await tab.getByLabel('URL', { exact: true }).fill('https://shop.example.test');
    await tab.getByRole('button', { name: 'Create check' }).click();
    const nameError = tab.locator('[data-error-for="name"]');
    await nameError.waitFor();
    expect(await nameError.textContent()).toBe('Name is required');

    await tab.getByLabel('Name', { exact: true }).fill('Storefront');
    const frequencies = await tab.getByLabel('Frequency', { exact: true }).locator('option').allTextContents();
    expect(frequencies).toEqual(['Every minute', 'Every 2 minutes', 'Every 5 minutes', 'Every 10 minutes', 'Every 15 minutes', 'Every 30 minutes', 'Every hour', 'Every 2 hours', 'Every 3 hours', 'Every 6 hours', 'Every 12 hours', 'Every day']);
    await tab.getByLabel('Frequency', { exact: true }).selectOption({ label: 'Every 5 minutes' });
    await tab.getByLabel('Retry strategy').selectOption('FIXED');
    await tab.getByLabel('Retries at most').fill('3');
    await tab.getByLabel('Use the account\'s alert settings').uncheck();
    await tab.getByLabel('Alert when').selectOption('TIME_BASED');
    await tab.getByLabel('Minutes failing').selectOption('15');
    await tab.getByLabel('Reminders', { exact: true }).selectOption('2');
    await tab.getByLabel('Minutes between reminders').fill('10');
    const channel = tab.getByRole('checkbox', { name: /ops@example\.test/ });
    expect(await channel.isChecked()).toBe(true);
    await channel.uncheck();
    await tab.getByLabel('Run on schedule (activated)').uncheck();
    await shot('check-form-alerting');
    await tab.getByRole('button', { name: 'Create check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Storefront' }).waitFor();

    const list = (await s.a.request('GET', '/v1/checks')).body as { id: string; name: string }[];
    const stored = (await s.a.request('GET', `/v1/checks/${list.find((c) => c.name === 'Storefront')!.id}`)).body;
    expect(stored).toMatchObject({
      frequency: 5, retryStrategy: { type: 'FIXED', maxRetries: 3 }, useGlobalAlertSettings: false,
      alertSettings: { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 15 }, reminders: { amount: 2, interval: 10 } },
      alertChannelSubscriptions: [],
    });

    // The form opens with what was saved; ticking the channel subscribes the check.
    await tab.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => tab.getByLabel('Frequency', { exact: true }).inputValue()).toBe('5');
    expect(await tab.getByLabel('Retry strategy').inputValue()).toBe('FIXED');
    expect(await tab.getByLabel('Minutes failing').inputValue()).toBe('15');
    await tab.getByRole('checkbox', { name: /ops@example\.test/ }).check();
    await tab.getByRole('button', { name: 'Save check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Storefront' }).waitFor();
    const saved = (await s.a.request('GET', `/v1/checks/${stored.id}`)).body;
    expect(saved.alertChannelSubscriptions).toEqual([expect.objectContaining({ alertChannelId: channelId, activated: true })]);
  });

  it('ran without uncaught page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
