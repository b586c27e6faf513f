import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot, signedInConsole, type SignedInConsole } from '../../support/console-browser.js';
import { signInWithPassword } from '../../support/console-people.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

if (skipReason) console.warn(`accept-invitation-browser.test.ts: skipping the console's invitation tests, ${skipReason}`);

describe.skipIf(Boolean(skipReason))(`inviting someone and accepting in the console in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let owner: SignedInConsole;
  let tab: Page;
  let s: TestServer;
  let link: string;
  const pageErrors: string[] = [];
  const email = 'newcomer@example.test';
  const password = 'a newcomer password';

  beforeAll(async () => {
    s = await startTestServer();
    owner = await signedInConsole(s, pageErrors);
    tab = owner.tab;
  });
  afterAll(async () => {
    await owner?.close();
    await s?.close();
  });

  it('invites from the members page with a role, and lists the pending invitation', async () => {
    await tab.getByRole('link', { name: 'Members' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await tab.getByRole('main').getByLabel('Email').fill(email);
    await tab.getByRole('main').getByLabel('Role', { exact: true }).selectOption('READ_RUN');
    await tab.getByRole('button', { name: 'Send invitation' }).click();
    const shown = tab.locator('[data-invitation-link] code');
    await shown.waitFor();
    link = (await shown.textContent())!;
    expect(link).toMatch(/\/invitations\/[^/]+$/);
    await tab.locator(`tr[data-invitation="${email}"]`).waitFor();
    expect(await tab.locator(`tr[data-invitation="${email}"]`).textContent()).toContain('Read & Run');
    await saveConsoleShot(tab, 'members-invited');
  });

  it('accepts the link in another browser without signing in: name and password, then signed in to the account', async () => {
    const other = await launchConsoleTab(pageErrors);
    try {
      const guest = other.tab;
      guest.setDefaultTimeout(10_000);
      await guest.goto(new URL(new URL(link).pathname, s.url).href);
      await guest.getByRole('heading', { name: /^Join / }).waitFor();
      expect(await guest.getByRole('main').textContent()).toContain('Read & Run');
      await guest.getByLabel('Your name').fill('Nia Newcomer');
      await guest.getByLabel('Choose a password').fill('short');
      await guest.getByRole('button', { name: 'Accept and sign in' }).click();
      await expect.poll(() => guest.getByRole('alert').textContent()).toContain('at least');
      await guest.getByLabel('Choose a password').fill(password);
      await saveConsoleShot(guest, 'invitation-accept');
      await guest.getByRole('button', { name: 'Accept and sign in' }).click();
      await guest.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      expect(new URL(guest.url()).pathname).toBe('/');
      // A Read & Run member: no admin pages.
      expect(await guest.getByRole('link', { name: 'Members' }).count()).toBe(0);

      // The link worked once.
      await guest.getByRole('button', { name: 'Sign out', exact: true }).click();
      await guest.goto(new URL(new URL(link).pathname, s.url).href);
      await guest.getByRole('alert').waitFor();
      // And the password signs in.
      await signInWithPassword(guest, s.url, { email, password });
    } finally {
      await other.context.close();
      await other.browser.close();
    }
  });

  it('shows the newcomer among the members with their role, and no longer as invited', async () => {
    await tab.reload();
    await tab.locator(`tr[data-member="${email}"]`).waitFor();
    expect(await tab.locator(`tr[data-member="${email}"]`).textContent()).toContain('Nia Newcomer');
    expect(await tab.locator(`tr[data-invitation="${email}"]`).count()).toBe(0);
    await saveConsoleShot(tab, 'members');
  });

  it('ran without uncaught page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
