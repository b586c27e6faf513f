import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot } from '../../support/console-browser.js';
import { invitePerson, signInWithPassword, type TestPerson } from '../../support/console-people.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

if (skipReason) console.warn(`role-controls-browser.test.ts: skipping the console's role-aware controls tests, ${skipReason}`);

/** Buttons and links of the checks list and a check's page that change or run something. */
const LIST_WRITES = ['New check'];
const DETAIL_WRITES = ['Mute', 'Deactivate', 'Edit', 'Delete check'];

describe.skipIf(Boolean(skipReason))(`the console's controls follow the member's role in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  let checkId: string;
  const pageErrors: string[] = [];
  const people: Record<'readOnly' | 'readRun' | 'readWrite', TestPerson> = {
    readOnly: { email: 'reader@example.test', password: 'reads only here', name: 'Rita Reader', role: 'READ_ONLY' },
    readRun: { email: 'runner@example.test', password: 'reads and runs here', name: 'Rui Runner', role: 'READ_RUN' },
    readWrite: { email: 'writer@example.test', password: 'reads and writes here', name: 'Wes Writer', role: 'READ_WRITE' },
  };

  beforeAll(async () => {
    s = await startTestServer();
    const created = await s.a.request('POST', '/v1/checks/api', {
      name: 'Storefront', locations: ['eu-west-1'], activated: true,
      request: { method: 'GET', url: 'https://shop.example.test/health', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
    expect(created.status).toBe(201);
    checkId = created.body.id;
    for (const person of Object.values(people)) await invitePerson(s.url, s.a, person);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
  });

  /** A fresh browser context signed in as `person`, on the checks list. */
  async function signInAs(person: TestPerson) {
    await context?.close();
    await browser?.close();
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(10_000);
    await signInWithPassword(tab, s.url, person);
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Checks' }).click();
    await tab.locator(`tr[data-check-id="${checkId}"]`).waitFor();
  }

  const visible = (name: string) => tab.getByRole('main').getByRole('button', { name, exact: true }).or(tab.getByRole('main').getByRole('link', { name, exact: true })).count();

  it('shows a Read Only member no write or run control on the checks list and the check page', async () => {
    await signInAs(people.readOnly);
    for (const name of LIST_WRITES) expect(await visible(name), name).toBe(0);
    expect(await tab.getByRole('checkbox').count()).toBe(0);
    expect(await tab.getByRole('group', { name: 'Actions on the selected checks' }).count()).toBe(0);
    await saveConsoleShot(tab, 'roles-read-only-checks');

    await tab.locator(`tr[data-check-id="${checkId}"] a`).first().click();
    await tab.getByRole('heading', { level: 1, name: 'Storefront' }).waitFor();
    await tab.getByRole('heading', { name: 'Settings' }).waitFor();
    for (const name of [...DETAIL_WRITES, 'Run now']) expect(await visible(name), name).toBe(0);
    await saveConsoleShot(tab, 'roles-read-only-check-detail');
    // Nor the admin pages.
    expect(await tab.getByRole('link', { name: 'Members' }).count()).toBe(0);
  });

  it('shows a Read & Run member Run now but no edit control', async () => {
    await signInAs(people.readRun);
    for (const name of LIST_WRITES) expect(await visible(name), name).toBe(0);
    await tab.locator(`tr[data-check-id="${checkId}"] a`).first().click();
    await tab.getByRole('button', { name: 'Run now' }).waitFor();
    for (const name of DETAIL_WRITES) expect(await visible(name), name).toBe(0);
    await saveConsoleShot(tab, 'roles-read-run-check-detail');
  });

  it('shows a Read & Write member every control of the checks list and the check page', async () => {
    await signInAs(people.readWrite);
    for (const name of LIST_WRITES) expect(await visible(name), name).toBe(1);
    expect(await tab.getByRole('checkbox', { name: 'Select Storefront' }).count()).toBe(1);
    await tab.getByRole('group', { name: 'Actions on the selected checks' }).waitFor();
    await tab.locator(`tr[data-check-id="${checkId}"] a`).first().click();
    await tab.getByRole('button', { name: 'Run now' }).waitFor();
    for (const name of DETAIL_WRITES) expect(await visible(name), name).toBe(1);
    await saveConsoleShot(tab, 'roles-read-write-check-detail');
    // A write the role allows goes through with the session's CSRF token.
    await tab.getByRole('button', { name: 'Mute', exact: true }).click();
    await tab.getByRole('button', { name: 'Unmute', exact: true }).waitFor();
    expect((await s.a.request('GET', `/v1/checks/${checkId}`)).body.muted).toBe(true);
  });

  it('ran without uncaught page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
