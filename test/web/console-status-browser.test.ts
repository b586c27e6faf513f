import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, saveConsoleShot, signedInConsole, type SignedInConsole } from '../support/console-browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

if (skipReason) console.warn(`console-status-browser.test.ts: skipping the console status page tests, ${skipReason}`);

/** A REST list: an array, or a cursor page of `entries`. */
function entries<T>(body: unknown): T[] {
  return (Array.isArray(body) ? body : (body as { entries: T[] }).entries) as T[];
}

describe.skipIf(Boolean(skipReason))(`the console's status pages, incidents and maintenance windows in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let session: SignedInConsole;
  let tab: Page;
  let s: TestServer;
  const pageErrors: string[] = [];

  const shot = (name: string) => saveConsoleShot(tab, name);
  const nav = (name: string) => tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  const rest = async <T>(route: string) => entries<T>((await s.a.request('GET', route)).body);

  beforeAll(async () => {
    s = await startTestServer();
    session = await signedInConsole(s, pageErrors);
    tab = session.tab;
  });
  afterAll(async () => {
    await session?.close();
    await s?.close();
  });

  it('adds services and a status page: a bad slug shows on its field, then the page is created, linked and edited', async () => {
    await nav('Status pages');
    await tab.getByRole('heading', { level: 1, name: 'Status pages' }).waitFor();
    for (const name of ['API', 'Website']) {
      await tab.getByLabel('Service name').fill(name);
      // From the keyboard: Enter in the field submits the form.
      await tab.getByLabel('Service name').press('Enter');
      await tab.getByRole('list', { name: 'Services' }).getByText(name, { exact: true }).waitFor();
    }
    expect((await rest<{ name: string }>('/v1/status-pages/services')).map((x) => x.name).sort()).toEqual(['API', 'Website']);

    await tab.getByLabel('Page name').fill('Acme Status');
    expect(await tab.getByLabel('Page slug').inputValue()).toBe('acme-status');
    await tab.getByLabel('Page slug').fill('Bad Slug!');
    await tab.getByRole('group', { name: 'Services shown' }).getByLabel('API').check();
    await tab.getByRole('button', { name: 'Create status page' }).click();
    await tab.locator('[data-error-for="url"]').waitFor();
    expect(await tab.getByLabel('Page slug').getAttribute('aria-invalid')).toBe('true');
    expect(await tab.getByLabel('Page name').getAttribute('aria-invalid')).toBeNull();
    await shot('status-page-form-invalid');

    await tab.getByLabel('Page slug').fill('acme-status');
    await tab.getByRole('button', { name: 'Create status page' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Acme Status' }).waitFor();
    const link = tab.getByRole('link', { name: 'Open the public page of Acme Status (new tab)' });
    expect(await link.getAttribute('href')).toBe(`${s.url}/status/acme-status`);
    expect((await fetch(`${s.url}/status/acme-status`)).status).toBe(200);
    const [stored] = await rest<{ name: string; url: string; cards: { services: unknown[] }[] }>('/v1/status-pages');
    expect(stored).toMatchObject({ name: 'Acme Status', url: 'acme-status' });
    expect(stored!.cards).toHaveLength(1);

    await tab.getByLabel('Page name').fill('Acme Cloud Status');
    await tab.getByLabel('Description').fill('Everything Acme runs.');
    await tab.getByRole('group', { name: 'Services shown' }).getByLabel('Website').check();
    await tab.getByRole('button', { name: 'Save status page' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Acme Cloud Status' }).waitFor();
    const [edited] = await rest<{ name: string; url: string; description: string; cards: { services: unknown[] }[] }>('/v1/status-pages');
    expect(edited).toMatchObject({ name: 'Acme Cloud Status', url: 'acme-status', description: 'Everything Acme runs.' });
    expect(edited!.cards).toHaveLength(1);
    expect(edited!.cards[0]!.services).toHaveLength(2);
    await shot('status-page-detail');
  });

  it('opens an incident (a missing service said on the services), follows an update live, posts one and resolves it', async () => {
    await tab.getByRole('link', { name: 'Incidents of this page' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
    expect(await tab.getByLabel('Status page').inputValue()).not.toBe('');
    await tab.getByRole('status').getByText('No open incidents on Acme Cloud Status.').waitFor();
    // The page's services are preselected: clear them to see the API's error on the field.
    for (const name of ['API', 'Website']) await tab.getByRole('group', { name: 'Affected services' }).getByLabel(name).uncheck();
    await tab.getByLabel('Incident name').fill('API errors');
    await tab.getByLabel('Severity').selectOption('CRITICAL');
    await tab.getByLabel('First update').fill('We are seeing errors on the API.');
    await tab.getByRole('button', { name: 'Open incident' }).click();
    await tab.locator('[data-error-for="services"]').waitFor();
    await shot('incident-form-invalid');

    await tab.getByRole('group', { name: 'Affected services' }).getByLabel('API').check();
    await tab.getByRole('button', { name: 'Open incident' }).click();
    await tab.getByRole('heading', { level: 1, name: 'API errors' }).waitFor();
    await tab.locator('[data-incident-status="INVESTIGATING"]').waitFor();
    const [incident] = await rest<{ id: string; name: string; severity: string }>('/v1/status-pages/incidents');
    expect(incident).toMatchObject({ name: 'API errors', severity: 'CRITICAL' });

    // Written elsewhere (REST): the screen follows through the incidentUpdated subscription, no reload.
    const posted = await s.a.request('POST', `/v1/status-pages/incidents/${incident!.id}/incident-updates`, { description: 'A bad deploy: rolling back.', status: 'IDENTIFIED' });
    expect(posted.status).toBe(201);
    await tab.getByRole('list', { name: 'Incident updates' }).getByText('A bad deploy: rolling back.').waitFor();
    await tab.locator('[data-incident-status="IDENTIFIED"]').waitFor();

    expect(await tab.getByLabel('New status').inputValue()).toBe('MONITORING');
    await tab.getByLabel('Update', { exact: true }).fill('Rolled back; watching error rates.');
    await tab.getByRole('button', { name: 'Post update' }).click();
    await tab.getByRole('list', { name: 'Incident updates' }).getByText('Rolled back; watching error rates.').waitFor();
    await tab.locator('[data-incident-status="MONITORING"]').waitFor();

    await tab.getByRole('button', { name: 'Resolve incident' }).click();
    await tab.locator('[data-incident-status="RESOLVED"]').waitFor();
    await tab.getByRole('list', { name: 'Incident updates' }).getByText('This incident has been resolved.').waitFor();
    expect(await tab.getByRole('button', { name: 'Resolve incident' }).count()).toBe(0);
    const updates = entries<{ status: string }>((await s.a.request('GET', `/v1/status-pages/incidents/${incident!.id}/incident-updates`)).body);
    expect(updates).toHaveLength(4);
    await shot('incident-detail');

    // Listed per service among the resolved incidents.
    await tab.getByRole('link', { name: 'API', exact: true }).click();
    await tab.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
    await tab.getByRole('table', { name: 'Incidents' }).getByRole('link', { name: 'API errors' }).waitFor();
    await tab.getByLabel('State').selectOption('open');
    await expect.poll(() => tab.getByRole('table', { name: 'Incidents' }).count()).toBe(0);
  });

  it('creates a maintenance window (a bad time zone said on its field), edits and deletes it', async () => {
    // A week from now (maintenances are planned up to 400 days ahead), 02:00 to 04:00 UTC.
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await nav('Maintenance');
    await tab.getByRole('heading', { level: 1, name: 'Maintenance windows' }).waitFor();
    await tab.getByLabel('Window name').fill('Database upgrade');
    await tab.getByLabel('Starts (UTC)').fill(`${day}T02:00`);
    await tab.getByLabel('Ends (UTC)').fill(`${day}T04:00`);
    await tab.getByLabel('Time zone').fill('Mars/Olympus');
    await tab.getByRole('button', { name: 'Create maintenance window' }).click();
    await tab.locator('[data-error-for="timezone"]').waitFor();
    expect(await tab.getByLabel('Time zone').getAttribute('aria-invalid')).toBe('true');
    await shot('maintenance-form-invalid');

    await tab.getByLabel('Time zone').fill('Europe/Berlin');
    await tab.getByLabel('Repeats').selectOption('WEEK');
    await tab.getByLabel('Repeat interval').fill('2');
    await tab.getByLabel('Window tags').fill('db, prod');
    await tab.getByRole('button', { name: 'Create maintenance window' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Database upgrade' }).waitFor();
    const [stored] = await rest<Record<string, unknown>>('/v1/maintenance-windows');
    expect(stored).toMatchObject({ name: 'Database upgrade', timezone: 'Europe/Berlin', repeatUnit: 'WEEK', repeatInterval: 2, tags: ['db', 'prod'] });
    expect(new Date(stored!.startsAt as string).toISOString()).toBe(`${day}T02:00:00.000Z`);
    // Its maintenances, planned from the series, each with its dates and status.
    await expect.poll(() => tab.getByRole('region', { name: 'Maintenances' }).textContent()).toContain(`${day} 02:00 UTC`);

    expect(await tab.getByLabel('Starts (UTC)').inputValue()).toBe(`${day}T02:00`);
    await tab.getByLabel('Window name').fill('Database upgrade (v16)');
    await tab.getByLabel('Repeats').selectOption('');
    await tab.getByRole('button', { name: 'Save maintenance window' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Database upgrade (v16)' }).waitFor();
    const [edited] = await rest<Record<string, unknown>>('/v1/maintenance-windows');
    expect(edited).toMatchObject({ name: 'Database upgrade (v16)' });
    expect(edited!.repeatUnit ?? null).toBeNull();
    await tab.emulateMedia({ colorScheme: 'dark' });
    await shot('maintenance-detail-dark');
    await tab.emulateMedia({ colorScheme: 'light' });

    await tab.getByRole('button', { name: 'Delete maintenance window' }).click();
    await tab.getByRole('button', { name: 'Confirm delete' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Maintenance windows' }).waitFor();
    await tab.getByText('No maintenance windows yet.', { exact: false }).waitFor();
    expect(await rest('/v1/maintenance-windows')).toEqual([]);
  });

  it('deletes a status page, keeping its services', async () => {
    await nav('Status pages');
    await tab.getByRole('link', { name: 'Acme Cloud Status', exact: true }).click();
    await tab.getByRole('heading', { level: 1, name: 'Acme Cloud Status' }).waitFor();
    await tab.getByRole('button', { name: 'Delete status page' }).click();
    await tab.getByRole('button', { name: 'Cancel' }).press('Enter');
    await tab.getByRole('button', { name: 'Delete status page' }).press('Enter');
    await tab.getByRole('button', { name: 'Confirm delete' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Status pages' }).waitFor();
    await expect.poll(() => tab.getByRole('link', { name: 'Acme Cloud Status', exact: true }).count()).toBe(0);
    expect(await rest('/v1/status-pages')).toEqual([]);
    expect(await rest('/v1/status-pages/services')).toHaveLength(2);
  });

  it('ran without uncaught page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
