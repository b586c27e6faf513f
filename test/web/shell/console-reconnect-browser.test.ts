import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../../src/store/create-store.js';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot, signInToConsole } from '../../support/console-browser.js';
import { probe, testRecorder } from '../../support/run-results.js';
import { spawnServer, type SpawnedServer } from '../../support/spawn-server.js';

if (skipReason) console.warn(`console-reconnect-browser.test.ts: skipping the console reconnect test, ${skipReason}`);

const BANNER = 'Disconnected — reconnecting…';

/**
 * A console left open across a server restart: `lookout serve` runs as a child process on a PGlite
 * folder, is stopped and started again on the same port, and a run is written to that folder
 * while the server is down (so no event ever announces it).
 */
describe.skipIf(Boolean(skipReason))(`the console across a server restart in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lookout-reconnect-'));
  const account = { accountId: randomUUID(), apiKey: `lo_reconnect_${randomUUID()}` };
  const env = { LOOKOUT_DATA_DIR: dataDir, LOOKOUT_ACCOUNT_ID: account.accountId, LOOKOUT_API_KEY: account.apiKey, LOOKOUT_ROLE: 'api', LOG_LEVEL: 'info' };
  let server: SpawnedServer | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  const pageErrors: string[] = [];

  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running) return;
    running.child.kill('SIGTERM');
    await running.exited;
  };

  beforeAll(async () => {
    server = await spawnServer(env);
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(15_000);
    // `lookout serve` compiles its TypeScript at start: slow on a busy CI machine.
  }, 240_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows a banner while the server is down, then re-reads the page and shows the run that happened meanwhile', async () => {
    const url = server!.url;
    const created = await fetch(`${url}/v1/checks/api`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': 'application/json' },
      // Deactivated: the only run is the one the test writes.
      body: JSON.stringify({ name: 'Homepage', activated: false, locations: ['eu-west-1'], request: { method: 'GET', url: 'https://shop.example.test' } }),
    });
    expect(created.status).toBe(201);
    const check = await created.json() as Record<string, any>;

    await signInToConsole(tab, url, account);
    await tab.goto(`${url}/checks/${check.id}`);
    await tab.getByRole('heading', { level: 1, name: 'Homepage' }).waitFor();
    await tab.getByText('No results yet. Run the check to get one.').waitFor();
    expect(await tab.getByText(BANNER).count()).toBe(0);

    await stop();
    await tab.getByRole('status').filter({ hasText: BANNER }).waitFor();
    await saveConsoleShot(tab, 'console-disconnected');

    const store = await createStore({ dataDir });
    try {
      await testRecorder(store).record({
        check: { id: check.id, accountId: account.accountId, checkType: 'API', name: 'Homepage', data: check as any, groupId: null },
        probe: probe({ at: new Date(), responseTime: 432 }),
      });
    } finally {
      await store.close();
    }
    server = await spawnServer({ ...env, PORT: new URL(url).port });
    expect(server.url).toBe(url);

    // Back-off is capped at 30 s: the console finds the server within that, and says so.
    await tab.getByText(BANNER).waitFor({ state: 'detached', timeout: 45_000 });
    await tab.getByRole('list', { name: 'Latest results, newest first' }).getByRole('button', { name: /Passed run from eu-west-1, .*432 ms/ }).waitFor();
    await saveConsoleShot(tab, 'console-reconnected');
    expect(pageErrors).toEqual([]);
  }, 360_000);
});
