import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, saveConsoleShot, signedInConsole, type SignedInConsole } from '../../support/console-browser.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

if (skipReason) console.warn(`api-keys-browser.test.ts: skipping the API keys page tests, ${skipReason}`);

describe.skipIf(Boolean(skipReason))(`the console's API keys page in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let session: SignedInConsole;
  let tab: Page;
  let s: TestServer;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    session = await signedInConsole(s, pageErrors);
    tab = session.tab;
  });
  afterAll(async () => {
    await session?.close();
    await s?.close();
  });

  it('lists keys, refuses a blank name on its field, shows a new key once, and revokes it after a confirmation', async () => {
    await tab.getByRole('link', { name: 'API keys' }).click();
    await tab.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(await tab.getByRole('table', { name: 'API keys' }).getByRole('row').count()).toBe(2); // header and the bootstrap key
    expect(await tab.content()).not.toContain(s.a.apiKey);

    await tab.getByRole('button', { name: 'Create key' }).click();
    await tab.locator('[data-error-for="name"]').waitFor();

    await tab.getByLabel('Name (what the key is for)').fill('Deploy pipeline');
    await tab.getByRole('button', { name: 'Create key' }).click();
    const shown = await tab.locator('[data-new-key]').textContent();
    expect(shown).toMatch(/^lo_[0-9a-f]{64}$/);
    await tab.getByRole('cell', { name: 'Deploy pipeline', exact: true }).waitFor();
    await saveConsoleShot(tab, 'api-keys-created');
    const viaKey = await fetch(`${s.url}/v1/checks`, { headers: { authorization: `Bearer ${shown}` } });
    expect(viaKey.status).toBe(200);
    await tab.getByRole('button', { name: 'Done' }).click();
    expect(await tab.content()).not.toContain(shown!);

    await tab.getByRole('button', { name: 'Revoke key Deploy pipeline' }).click();
    await tab.getByRole('button', { name: 'Revoke Deploy pipeline now' }).click();
    await tab.getByText('Revoked Deploy pipeline: it no longer works.').waitFor();
    await saveConsoleShot(tab, 'api-keys-revoked');
    expect((await fetch(`${s.url}/v1/checks`, { headers: { authorization: `Bearer ${shown}` } })).status).toBe(401);
    expect(await tab.getByRole('cell', { name: 'Deploy pipeline', exact: true }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
