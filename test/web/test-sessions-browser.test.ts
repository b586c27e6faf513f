import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot, signInToConsole } from '../support/console-browser.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

if (skipReason) console.warn(`test-sessions-browser.test.ts: skipping the test session pages, ${skipReason}`);

const OK = [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }];

/** A project as `checkly deploy` sends it: a group and two checks in it, both tagged `shop`. */
const bundle = (target: HttpTarget) => ({
  project: { logicalId: 'shop-project', name: 'Shop', repoUrl: 'https://git.example.test/shop' },
  sharedFiles: [],
  resources: [
    {
      logicalId: 'shop', type: 'check-group', member: true,
      payload: { name: 'Shop checks', locations: ['eu-central-1'], apiCheckDefaults: { headers: [], queryParameters: [], url: '', basicAuth: { username: '', password: '' } }, environmentVariables: [], v: 2 },
    },
    ...[['cart', 'Cart API', '/json'], ['pay', 'Payments API', '/status/503']].map(([logicalId, name, urlPath]) => ({
      logicalId, type: 'check', member: true,
      payload: {
        name, tags: ['shop'], locations: ['eu-central-1'], frequency: 10, groupId: { ref: 'shop' }, useGlobalAlertSettings: true, runParallel: false,
        environmentVariables: [], checkType: 'API', request: { url: `${target.http.url}${urlPath}`, method: 'GET', assertions: OK },
      },
    })),
  ],
});

/**
 * The first hour of a Checkly user: `checkly trigger` (the real CLI) prints an "Open session" link;
 * it opens the session in the console, its results and their files; the checks and the group the
 * project deployed say which project manages them, and their forms do not invite an edit the next
 * deploy would undo.
 */
describe.skipIf(Boolean(skipReason))(`test session pages and managed resources in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  let target: HttpTarget;
  let home: string;
  const pageErrors: string[] = [];
  const ids: Record<string, string> = {};

  const shot = (name: string) => saveConsoleShot(tab, name);

  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer(), startHttpTarget()]);
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-sessions-browser-'));
    const deployed = await s.a.request('POST', '/v1/projects/deploy?dryRun=false', bundle(target));
    expect(deployed.status, deployed.text).toBe(202);
    for (const d of deployed.body.result.diff as { logicalId: string; physicalId: string }[]) ids[d.logicalId] = String(d.physicalId);
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(15_000);
    await signInToConsole(tab, s.url, s.a);
    // A server's start alone can take a minute on a loaded 2-core CI machine.
  }, 240_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await Promise.all([s?.close(), target?.close()]);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('opens the session `checkly trigger` links to: its checks, their status, duration, location and error, live to the end', async () => {
    const run = await runChecklyCli(['trigger', '--tags', 'shop', '--test-session-name', 'release 7'], { server: s, client: s.a, home, cwd: home });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const link = /Open session:\s+(\S+)/.exec(run.stdout)?.[1];
    expect(link, run.stdout).toMatch(new RegExp(`^${s.url}/accounts/${s.a.accountId}/test-sessions/[0-9a-f-]{36}$`));
    const sessionId = link!.split('/').at(-1)!;
    // The short link the CLI asks the server for leads to the same page.
    expect(run.stdout).toMatch(new RegExp(`Detailed session summary at:\\s+\\S+/accounts/${s.a.accountId}/test-sessions/${sessionId}`));

    await tab.goto(link!);
    await tab.getByRole('heading', { level: 1, name: 'release 7' }).waitFor();
    const rows = tab.getByRole('table', { name: 'Checks of the session' }).getByRole('row');
    const cart = rows.filter({ hasText: 'Cart API' });
    const pay = rows.filter({ hasText: 'Payments API' });
    await cart.getByText('Passed').waitFor();
    await pay.getByText('Failed').waitFor();
    expect(await pay.textContent()).toMatch(/eu-central-1/);
    expect(await pay.textContent()).toMatch(/Assertion failed: STATUS_CODE EQUALS 200 \(got 503\)|503/);
    expect(await cart.textContent()).toMatch(/\d+(\.\d+)? (ms|s)/);
    await tab.locator('[data-status="FAILED"]').first().waitFor();
    await shot('test-session-from-cli-link');

    await pay.getByRole('link', { name: /Result of Payments API/ }).click();
    await tab.getByRole('heading', { level: 1, name: 'Payments API: failed' }).waitFor();
    await tab.getByRole('list', { name: 'Files of the result' }).getByRole('link', { name: /logs\.json/ }).waitFor();
    expect(await tab.getByRole('table', { name: 'Assertions' }).textContent()).toContain('503');
    await shot('test-session-result');

    await tab.getByRole('link', { name: /release 7/ }).click();
    await tab.getByRole('heading', { level: 1, name: 'release 7' }).waitFor();
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Test sessions', exact: true }).click();
    await tab.getByRole('table', { name: 'Recent test sessions' }).getByRole('link', { name: 'release 7' }).waitFor();
    await shot('test-sessions-list');
  });

  it('marks the deployed check as managed, lists its triggered run with a link to the session, and keeps its form read-only', async () => {
    await tab.goto(`${s.url}/checks/${ids.cart}`);
    await tab.getByRole('heading', { level: 1, name: 'Cart API' }).waitFor();
    const marker = tab.getByRole('note').filter({ hasText: 'Managed by project Shop' });
    await marker.waitFor();
    expect(await marker.textContent()).toContain('edit in code');
    expect(await marker.textContent()).toContain('shop-project');
    const triggered = tab.getByRole('list', { name: 'Test sessions that ran this check' });
    await triggered.getByRole('link', { name: 'release 7', exact: true }).waitFor();
    await triggered.getByRole('link', { name: 'Result in release 7' }).waitFor();
    expect(await triggered.textContent()).toContain('test session');
    await shot('managed-check-with-triggered-runs');

    await tab.getByRole('link', { name: 'Edit', exact: true }).click();
    await tab.getByRole('note').filter({ hasText: 'Managed by project Shop' }).waitFor();
    await expect.poll(() => tab.getByLabel('Name', { exact: true }).inputValue()).toBe('Cart API');
    expect(await tab.getByRole('button', { name: 'Save check' }).isDisabled()).toBe(true);
    expect(await tab.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await shot('managed-check-form-read-only');

    await tab.goto(`${s.url}/groups/${ids.shop}`);
    await tab.getByRole('heading', { level: 1, name: 'Shop checks' }).waitFor();
    await tab.getByRole('note').filter({ hasText: 'Managed by project Shop' }).waitFor();
    expect(await tab.getByRole('button', { name: 'Save group' }).isDisabled()).toBe(true);
    await shot('managed-group');
  });

  it('leaves a check made in the console editable, without a marker', async () => {
    const own = await s.a.request('POST', '/v1/checks/api', { name: 'By hand', locations: ['eu-central-1'], request: { method: 'GET', url: `${target.http.url}/json`, assertions: OK } });
    expect(own.status, own.text).toBe(201);
    await tab.goto(`${s.url}/checks/${own.body.id}/edit`);
    await expect.poll(() => tab.getByLabel('Name', { exact: true }).inputValue()).toBe('By hand');
    expect(await tab.getByRole('button', { name: 'Save check' }).isDisabled()).toBe(false);
    expect(await tab.getByRole('note').filter({ hasText: 'Managed by project' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
