import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { oidcSettings } from '../../src/config.js';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot } from '../support/console-browser.js';
import { startOidcProvider, type OidcTestProvider } from '../support/oidc-provider.js';
import { freePort, startTestServer, type TestServer } from '../support/test-server.js';

if (skipReason) console.warn(`sso-browser.test.ts: skipping the single sign-on browser test, ${skipReason}`);

const TEAM = '0b7a4a0e-5f7c-4a51-9d3b-2a2f3a1e0101';

describe.skipIf(Boolean(skipReason))(`single sign-on in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let provider: OidcTestProvider;
  let s: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    provider = await startOidcProvider({ redirectUri: `http://127.0.0.1:${port}/v1/sso/oidc/callback` });
    s = await startTestServer({
      config: {
        port, publicUrl: `http://127.0.0.1:${port}`,
        oidc: oidcSettings({
          LOOKOUT_OIDC_ISSUER: provider.issuer, LOOKOUT_OIDC_CLIENT_ID: provider.clientId, LOOKOUT_OIDC_CLIENT_SECRET: provider.clientSecret!,
          LOOKOUT_OIDC_ROLE_MAP: `/lookout/ops=${TEAM}:READ_WRITE`,
        }),
      },
    });
    await s.lookout.store.accounts.create({ id: TEAM, name: 'Ops team' });
    provider.setPerson('grace', { email: 'grace@example.test', email_verified: true, name: 'Grace', lookout_roles: ['/lookout/ops'] });
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    // The provider's development pages load a web font; nothing here may reach the internet.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
    tab.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
    await provider?.close();
  });

  it("signs in from the console's button through the provider's login and consent pages, and lands on the console signed in", async () => {
    await tab.goto(`${s.url}/`, { waitUntil: 'domcontentloaded' });
    await tab.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await tab.waitForURL((url) => url.href.startsWith(provider.issuer));
    await tab.locator('input[name="login"]').fill('grace');
    await tab.locator('input[name="password"]').fill('any password');
    await saveConsoleShot(tab, 'sso-provider-login');
    await tab.getByRole('button', { name: 'Sign-in' }).click();
    await tab.getByRole('button', { name: 'Continue' }).click();
    await tab.waitForURL(`${s.url}/`, { waitUntil: 'domcontentloaded' });

    const session = await tab.evaluate(async () => {
      const res = await fetch('/v1/session');
      return { status: res.status, body: await res.json() as { user: { email: string }; role: string; accountId: string } };
    });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { email: 'grace@example.test' }, role: 'READ_WRITE', accountId: TEAM });
    const cookies = await context.cookies(s.url);
    expect(cookies.find((c) => c.name === 'lookout_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(cookies.find((c) => c.name === 'lookout_sso')).toBeUndefined();
    // The console itself shows the person signed in, with what their role may do.
    await tab.getByRole('button', { name: 'Sign out' }).waitFor();
    // The overview loads through GraphQL with the session cookie and its CSRF token.
    await tab.getByText('Loading the overview…').waitFor({ state: 'detached' });
    expect(await tab.getByRole('alert').count()).toBe(0);
    await saveConsoleShot(tab, 'sso-landed');
    expect(pageErrors).toEqual([]);
  });

  it('says in words why single sign-on refused a person whose groups give no account', async () => {
    await context.clearCookies();
    provider.setPerson('mallory', { email: 'mallory@example.test', email_verified: true, name: 'Mallory', lookout_roles: ['/somewhere/else'] });
    await tab.goto(`${s.url}/`, { waitUntil: 'domcontentloaded' });
    await tab.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await tab.waitForURL((url) => url.href.startsWith(provider.issuer));
    await tab.locator('input[name="login"]').fill('mallory');
    await tab.locator('input[name="password"]').fill('any password');
    await tab.getByRole('button', { name: 'Sign-in' }).click();
    await tab.getByRole('button', { name: 'Continue' }).click();
    await tab.waitForURL(`${s.url}/?ssoError=SSO_NO_ACCOUNT`, { waitUntil: 'domcontentloaded' });
    await tab.getByRole('alert').filter({ hasText: 'Your sign-on groups give you no Lookout account' }).waitFor();
    await saveConsoleShot(tab, 'sso-refused');
    expect((await context.cookies(s.url)).find((c) => c.name === 'lookout_session')).toBeUndefined();
  });
});
