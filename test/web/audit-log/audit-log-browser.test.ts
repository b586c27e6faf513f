import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot } from '../../support/console-browser.js';
import { signInWithPassword } from '../../support/console-people.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

if (skipReason) console.warn(`audit-log-browser.test.ts: skipping the console's audit log test, ${skipReason}`);

describe.skipIf(Boolean(skipReason))(`the audit log page in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
  });

  it('lists changes made in the console and by key, each once, and narrows them by resource type', async () => {
    const byKey = await s.a.request('POST', '/v1/snippets', { name: 'made by key', script: '// key' });
    expect(byKey.status).toBe(201);
    await signInWithPassword(tab, s.url, { email: 'owner@localhost', password: s.lookout.bootstrap.owner!.password! });
    await tab.getByRole('navigation', { name: 'Main' }).waitFor();
    // A change through the console: a variable, whose value must never show in the log.
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Variables' }).click();
    await tab.getByLabel('Key', { exact: true }).fill('SHOP_TOKEN');
    await tab.getByLabel('Value', { exact: true }).fill('never-shown-value');
    await tab.getByRole('button', { name: 'Add variable' }).click();
    await tab.getByText('SHOP_TOKEN').first().waitFor();

    await tab.getByRole('link', { name: 'Audit log' }).click();
    const table = tab.getByRole('table', { name: 'Audit log' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    const text = await table.innerText();
    expect(text).toContain('owner@localhost');
    expect(text).toContain('SHOP_TOKEN');
    expect(text).toContain('key bootstrap');
    expect(text).not.toContain('never-shown-value');
    expect(await table.locator('tr', { hasText: 'SHOP_TOKEN' }).count()).toBe(1);
    await saveConsoleShot(tab, 'audit-log');

    await tab.getByLabel('Resource type').fill('snippet');
    await tab.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(String(byKey.body.id));
    expect(pageErrors).toEqual([]);
  });
});
