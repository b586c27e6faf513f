import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, saveConsoleShot, signedInConsole, type SignedInConsole } from '../../support/console-browser.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

if (skipReason) console.warn(`status-page-services-browser.test.ts: skipping the status page services tests, ${skipReason}`);

describe.skipIf(Boolean(skipReason))(`the console's status page services in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let session: SignedInConsole;
  let tab: Page;
  let s: TestServer;
  const pageErrors: string[] = [];
  const checkIds: string[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    for (const name of ['Shop API health', 'Checkout flow']) {
      const created = await s.a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
        name, frequency: 1440, locations: ['eu-west-1'], activated: false, request: { method: 'GET', url: 'https://shop.example.test/' },
      });
      expect(created.status).toBe(201);
      checkIds.push(created.body.id);
    }
    session = await signedInConsole(s, pageErrors);
    tab = session.tab;
  });
  afterAll(async () => {
    await session?.close();
    await s?.close();
  });

  const services = async () => (await s.a.request('GET', '/v1/status-pages/services?limit=100')).body.entries as Array<{ id: string; name: string; autoIncident: boolean; checks: Array<{ id: string }> }>;

  it('adds a service built from a check, changes its checks and automatic incidents, refuses a blank name, and deletes it after a confirmation', async () => {
    await tab.getByRole('link', { name: 'Status pages' }).click();
    const add = tab.getByRole('form', { name: 'Add a service' });
    await add.getByLabel('Service name').fill('Shop');
    await add.getByLabel('Shop API health').check();
    await add.getByRole('button', { name: 'Add service' }).click();
    const listed = tab.getByRole('list', { name: 'Services' }).getByRole('listitem').filter({ hasText: 'Shop' });
    await listed.getByText('— from Shop API health').waitFor();
    const [service] = await services();
    expect(service).toMatchObject({ name: 'Shop', autoIncident: false, checks: [{ id: checkIds[0] }] });

    await tab.getByRole('button', { name: 'Edit service Shop' }).click();
    const edit = tab.getByRole('form', { name: 'Edit service Shop' });
    expect(await edit.getByLabel('Shop API health').isChecked()).toBe(true);
    await edit.getByLabel('Shop API health').uncheck();
    await edit.getByLabel('Checkout flow').check();
    await edit.getByLabel('Open an incident automatically when its checks fail').check();
    await edit.getByLabel('Service name').fill(' ');
    await edit.getByRole('button', { name: 'Save service' }).click();
    await edit.locator('[data-error-for="name"]').waitFor();
    await saveConsoleShot(tab, 'status-page-service-edit-refused');
    expect((await services())[0]).toMatchObject({ name: 'Shop', checks: [{ id: checkIds[0] }] });

    await edit.getByLabel('Service name').fill('Shop checkout');
    await edit.getByRole('button', { name: 'Save service' }).click();
    await tab.getByRole('list', { name: 'Services' }).getByText('— from Checkout flow, automatic incidents').waitFor();
    await saveConsoleShot(tab, 'status-page-service-edited');
    expect((await services())[0]).toMatchObject({ id: service!.id, name: 'Shop checkout', autoIncident: true, checks: [{ id: checkIds[1] }] });

    await tab.getByRole('button', { name: 'Edit service Shop checkout' }).click();
    const again = tab.getByRole('form', { name: 'Edit service Shop checkout' });
    await again.getByRole('button', { name: 'Delete service' }).click();
    await again.getByRole('button', { name: 'Confirm delete' }).click();
    await tab.getByRole('region', { name: 'Services' }).getByText('No services yet').waitFor();
    expect(await services()).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
