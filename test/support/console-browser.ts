import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from './chromium.js';

/** Where the console's browser tests keep their screenshots (CI keeps the folder as an artifact). */
export const CONSOLE_ARTIFACTS = path.resolve('test-artifacts/console');

/** Why the console's browser suites cannot run here ('' when they can): no Chromium, or no built console. */
export const CONSOLE_SKIP_REASON = !chromiumInstalled
  ? NO_CHROMIUM
  : !existsSync(path.resolve('web/dist/index.html')) ? 'the console is not built (web/dist/index.html): run npm run build:web' : '';

export interface ConsoleTab { browser: Browser; context: BrowserContext; tab: Page }

/** Chromium with one 1280×900 tab whose uncaught page errors land in `pageErrors`. */
export async function launchConsoleTab(pageErrors: string[]): Promise<ConsoleTab> {
  mkdirSync(CONSOLE_ARTIFACTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tab = await context.newPage();
  tab.on('pageerror', (err) => pageErrors.push(err.message));
  return { browser, context, tab };
}

/** Opens the console's sign-in with an API key (email and password come first) at `url`. */
export async function openKeySignIn(tab: Page, url: string): Promise<void> {
  await tab.goto(`${url}/`);
  await tab.getByRole('button', { name: 'Use an API key instead' }).click();
}

/** Signs in on the console at `url` with an account's key, and waits until it is signed in. */
export async function signInToConsole(tab: Page, url: string, account: { apiKey: string; accountId: string }): Promise<void> {
  await openKeySignIn(tab, url);
  await tab.getByLabel('API key').fill(account.apiKey);
  await tab.getByLabel(/Account id/).fill(account.accountId);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await tab.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** A full-page screenshot kept under CONSOLE_ARTIFACTS as `<name>.png`. */
export async function saveConsoleShot(tab: Page, name: string): Promise<void> {
  await tab.screenshot({ path: path.join(CONSOLE_ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A signed-in console tab and the means to close it. */
export interface SignedInConsole extends ConsoleTab {
  /** Closes the tab's context and the browser (not the server). */
  close(): Promise<void>;
}

/**
 * Chromium with one tab signed in to `server`'s console as its account `a` (launchConsoleTab,
 * `timeoutMs` for every locator wait, signInToConsole): the set-up most console suites share.
 */
export async function signedInConsole(server: { url: string; a: { apiKey: string; accountId: string } }, pageErrors: string[], timeoutMs = 10_000): Promise<SignedInConsole> {
  const opened = await launchConsoleTab(pageErrors);
  opened.tab.setDefaultTimeout(timeoutMs);
  await signInToConsole(opened.tab, server.url, server.a);
  return {
    ...opened,
    async close() {
      await opened.context.close();
      await opened.browser.close();
    },
  };
}
