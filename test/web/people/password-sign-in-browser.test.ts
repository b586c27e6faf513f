import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot } from '../../support/console-browser.js';
import { apiSignIn, freshTotpCode, invitePerson, signInWithPassword, totpCode, type TestPerson } from '../../support/console-people.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

if (skipReason) console.warn(`password-sign-in-browser.test.ts: skipping the console's password sign-in tests, ${skipReason}`);

describe.skipIf(Boolean(skipReason))(`signing in to the console as a person in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  const pageErrors: string[] = [];
  const ada: TestPerson = { email: 'ada@example.test', password: 'correct horse battery', name: 'Ada Lovelace', role: 'READ_WRITE' };
  const grace: TestPerson = { email: 'grace@example.test', password: 'another long password', name: 'Grace Hopper', role: 'ADMIN' };
  let graceSecret: string;
  let usedCode: string;

  beforeAll(async () => {
    s = await startTestServer();
    await invitePerson(s.url, s.a, ada);
    await invitePerson(s.url, s.a, grace);
    // Grace turns on two-factor authentication, as the security page does.
    const session = await apiSignIn(s.url, grace);
    const enrolment = await session.request('POST', '/v1/users/me/totp');
    expect(enrolment.status).toBe(200);
    graceSecret = enrolment.body.secret;
    usedCode = totpCode(graceSecret);
    expect((await session.request('POST', '/v1/users/me/totp/confirm', { code: usedCode })).status).toBe(204);
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
  });

  it('refuses a wrong password in words, then signs in with the right one: a session cookie, no key in local storage', async () => {
    await tab.goto(`${s.url}/`);
    await tab.getByLabel('Email').fill(ada.email);
    await tab.getByLabel('Password').fill('not the password');
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => tab.getByRole('alert').textContent()).toContain('do not match');
    await saveConsoleShot(tab, 'sign-in-wrong-password');

    await signInWithPassword(tab, s.url, ada);
    await tab.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await tab.evaluate(() => localStorage.getItem('lookout.apiKey'))).toBeNull();
    const cookies = await context.cookies(s.url);
    expect(cookies.find((c) => c.name === 'lookout_session')).toMatchObject({ httpOnly: true });
    // Ada reads and writes through GraphQL with her session (CSRF header sent), and sees her own security page.
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Checks' }).click();
    await tab.getByRole('link', { name: 'New check' }).waitFor();
    await tab.getByRole('link', { name: 'Your security' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Your security' }).waitFor();
    await saveConsoleShot(tab, 'your-security');
  });

  it('stays signed in across a reload, and signing out ends the session', async () => {
    await tab.reload();
    await tab.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await tab.getByRole('button', { name: 'Sign out', exact: true }).click();
    await tab.getByRole('heading', { name: 'Sign in to Lookout' }).waitFor();
    await tab.reload();
    await tab.getByLabel('Email').waitFor();
    expect(await tab.getByRole('button', { name: 'Sign out', exact: true }).count()).toBe(0);
  });

  it('asks a person with two-factor authentication for the code, refuses a wrong one, and signs in with the right one', async () => {
    await signInWithPassword(tab, s.url, grace, true);
    await saveConsoleShot(tab, 'sign-in-totp');
    await tab.getByLabel('Authentication code').fill('000000');
    await tab.getByRole('button', { name: 'Verify code' }).click();
    await expect.poll(() => tab.getByRole('alert').textContent()).toContain('not accepted');

    await tab.getByLabel('Authentication code').fill(await freshTotpCode(graceSecret, usedCode));
    await tab.getByRole('button', { name: 'Verify code' }).click();
    await tab.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    // An admin: the members page and audit log are offered.
    await tab.getByRole('link', { name: 'Members' }).waitFor();
    await tab.getByRole('link', { name: 'Audit log' }).waitFor();
  }, 60_000);

  it('signs out everywhere from the security page', async () => {
    await tab.getByRole('link', { name: 'Your security' }).click();
    await tab.getByRole('button', { name: 'Sign out everywhere' }).click();
    await tab.getByRole('heading', { name: 'Sign in to Lookout' }).waitFor();
  });

  it('ran without uncaught page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
