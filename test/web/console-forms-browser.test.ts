import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SKIP_REASON as skipReason, launchConsoleTab, saveConsoleShot, signInToConsole } from '../support/console-browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

if (skipReason) console.warn(`console-forms-browser.test.ts: skipping the console form tests, ${skipReason}`);

interface StoredCheck { id: string; name: string; checkType: string; groupId: number | null; request?: Record<string, unknown>; heartbeat?: Record<string, unknown> }

describe.skipIf(Boolean(skipReason))(`the console's check, group and alert channel forms in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let s: TestServer;
  const pageErrors: string[] = [];
  let heartbeatId: string;

  const shot = (name: string) => saveConsoleShot(tab, name);
  const checks = async () => (await s.a.request('GET', '/v1/checks')).body as StoredCheck[];
  const nav = (name: string) => tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  beforeAll(async () => {
    s = await startTestServer();
    const heartbeat = await s.a.request('POST', '/v1/checks/heartbeat', {
      name: 'Nightly backup', activated: true, heartbeat: { period: 1, periodUnit: 'days', grace: 30, graceUnit: 'minutes' },
    });
    expect(heartbeat.status).toBe(201);
    heartbeatId = heartbeat.body.id;
    ({ browser, context, tab } = await launchConsoleTab(pageErrors));
    tab.setDefaultTimeout(10_000);
    await signInToConsole(tab, s.url, s.a);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.close();
  });

  it('creates a TCP check: an out-of-range port shows on the port field, then a valid one creates it', async () => {
    await nav('Checks');
    await tab.getByRole('main').getByRole('link', { name: 'New check' }).click();
    await tab.getByLabel('Check type').selectOption('TCP');
    await tab.getByRole('heading', { level: 1, name: 'New TCP check' }).waitFor();
    expect(await tab.getByLabel('URL', { exact: true }).count()).toBe(0);
    await tab.getByLabel('Name', { exact: true }).fill('Database port');
    await tab.getByLabel('Host', { exact: true }).fill('db.example.test');
    await tab.getByLabel('Port', { exact: true }).fill('70000');
    await tab.getByRole('button', { name: 'Create check' }).click();
    const portError = tab.locator('[data-error-for="request.port"]');
    await portError.waitFor();
    expect(await portError.textContent()).toMatch(/65535/);
    expect(await tab.getByLabel('Port', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await tab.getByLabel('Host', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    await shot('tcp-check-form-invalid');

    await tab.getByLabel('Port', { exact: true }).fill('5432');
    await tab.getByRole('button', { name: 'Create check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Database port' }).waitFor();
    const stored = (await checks()).find((c) => c.name === 'Database port');
    expect(stored).toMatchObject({ checkType: 'TCP', request: { hostname: 'db.example.test', port: 5432 } });
  });

  it('edits a heartbeat check: the form opens with its period and saves the change', async () => {
    await tab.goto(`${s.url}/checks`);
    await tab.getByRole('link', { name: 'Nightly backup' }).first().click();
    await tab.getByRole('heading', { level: 1, name: 'Nightly backup' }).waitFor();
    await tab.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => tab.getByLabel('Expected every').inputValue()).toBe('1');
    expect(await tab.getByLabel('Period unit').inputValue()).toBe('days');
    expect(await tab.locator('form').textContent()).toContain('/ping/');
    await tab.getByLabel('Expected every').fill('12');
    await tab.getByLabel('Period unit').selectOption('hours');
    await tab.getByRole('button', { name: 'Save check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Nightly backup' }).waitFor();
    await tab.getByText('every 12 hours, 30 minutes grace').waitFor();
    const stored = (await s.a.request('GET', `/v1/checks/${heartbeatId}`)).body as StoredCheck;
    expect(stored.heartbeat).toMatchObject({ period: 12, periodUnit: 'hours', grace: 30, graceUnit: 'minutes' });
  });

  it('creates a multi-step check with its script in the editor', async () => {
    await tab.goto(`${s.url}/checks/new?type=MULTI_STEP`);
    await tab.getByRole('heading', { level: 1, name: 'New Multi-step check' }).waitFor();
    await tab.getByLabel('Name', { exact: true }).fill('Signup flow');
    await tab.getByLabel('Script', { exact: true }).fill("test('signup', async ({ request }) => {});");
    await tab.getByRole('button', { name: 'Create check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Signup flow' }).waitFor();
    expect((await checks()).find((c) => c.name === 'Signup flow')).toMatchObject({ checkType: 'MULTI_STEP', script: "test('signup', async ({ request }) => {});" });
  });

  it('creates a check group: an invalid concurrency shows on its field, then the group is created, renamed and given a check', async () => {
    await nav('Groups');
    await tab.getByRole('heading', { level: 1, name: 'Check groups' }).waitFor();
    await tab.getByLabel('Group name').fill('Payments');
    await tab.getByLabel('Concurrency').fill('0');
    await tab.getByRole('button', { name: 'Create group' }).click();
    await tab.locator('[data-error-for="concurrency"]').waitFor();
    expect(await tab.getByLabel('Concurrency').getAttribute('aria-invalid')).toBe('true');
    expect(await tab.getByLabel('Group name').getAttribute('aria-invalid')).toBeNull();
    await shot('group-form-invalid');

    await tab.getByLabel('Concurrency').fill('2');
    await tab.getByRole('button', { name: 'Create group' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await tab.getByLabel('Group name').fill('Payments API');
    await tab.getByRole('button', { name: 'Save group' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Payments API' }).waitFor();
    const groups = (await s.a.request('GET', '/v1/check-groups')).body as { id: number; name: string; concurrency: number }[];
    const group = groups.find((g) => g.name === 'Payments API');
    expect(group).toMatchObject({ concurrency: 2 });

    // Put the TCP check in the group through its form: its detail names the group and links to it.
    await tab.goto(`${s.url}/checks`);
    await tab.getByRole('link', { name: 'Database port' }).first().click();
    await tab.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => tab.getByLabel('Port', { exact: true }).inputValue()).toBe('5432');
    await tab.getByLabel('Group', { exact: true }).selectOption({ label: 'Payments API' });
    await tab.getByRole('button', { name: 'Save check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Database port' }).waitFor();
    expect((await checks()).find((c) => c.name === 'Database port')?.groupId).toBe(group!.id);
    await tab.getByRole('link', { name: 'Payments API' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Payments API' }).waitFor();
    await tab.getByRole('region', { name: /Checks in this group/ }).getByRole('link', { name: 'Database port' }).waitFor();
    await shot('group-detail');
  });

  it('deletes a group only once it is empty, saying why it cannot before', async () => {
    await tab.getByRole('button', { name: 'Delete group' }).click();
    await tab.getByRole('button', { name: 'Confirm delete' }).click();
    await tab.locator('.form-error', { hasText: /Could not delete/ }).waitFor();

    await tab.getByRole('region', { name: /Checks in this group/ }).getByRole('link', { name: 'Database port' }).click();
    await tab.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => tab.getByLabel('Group', { exact: true }).inputValue()).not.toBe('');
    await tab.getByLabel('Group', { exact: true }).selectOption('');
    await tab.getByRole('button', { name: 'Save check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Database port' }).waitFor();
    expect((await checks()).find((c) => c.name === 'Database port')?.groupId).toBeNull();

    await nav('Groups');
    await tab.getByRole('link', { name: 'Payments API' }).click();
    await tab.getByRole('button', { name: 'Delete group' }).click();
    await tab.getByRole('button', { name: 'Confirm delete' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Check groups' }).waitFor();
    await expect.poll(() => tab.getByRole('link', { name: 'Payments API' }).count()).toBe(0);
    expect((await s.a.request('GET', '/v1/check-groups')).body).toEqual([]);
  });

  it('adds email and webhook alert channels, never showing a secret back, and subscribes a check', async () => {
    const secret = 'whsec-very-private-9f3a';
    await nav('Alert channels');
    await tab.getByRole('heading', { level: 1, name: 'Alert channels' }).waitFor();
    await tab.getByLabel('Email address').fill('not an address');
    await tab.getByRole('button', { name: 'Add channel' }).click();
    await tab.locator('[data-error-for="config.address"]').waitFor();
    expect(await tab.getByLabel('Email address').getAttribute('aria-invalid')).toBe('true');
    // From the keyboard: Enter in the field submits the form.
    await tab.getByLabel('Email address').fill('ops@example.test');
    await tab.getByLabel('Email address').press('Enter');
    await tab.getByRole('listitem', { name: /Email ops@example.test/ }).waitFor();

    await tab.getByLabel('Channel type').selectOption('WEBHOOK');
    await tab.getByLabel('Channel name').fill('Ops hook');
    await tab.getByLabel('Webhook URL').fill('https://hooks.example.test/lookout');
    await tab.getByLabel('Webhook secret').fill(secret);
    expect(await tab.getByLabel('Webhook secret').getAttribute('type')).toBe('password');
    await tab.getByRole('button', { name: 'Add channel' }).click();
    const webhook = tab.getByRole('listitem', { name: /Webhook Ops hook/ });
    await webhook.waitFor();
    expect(await tab.content()).not.toContain(secret);

    // Editing: the secret field is empty and says so; saving without it keeps the stored secret.
    await webhook.getByRole('button', { name: /^Edit/ }).click();
    await expect.poll(() => tab.getByLabel('Channel name').inputValue()).toBe('Ops hook');
    expect(await tab.getByLabel('Webhook secret').inputValue()).toBe('');
    expect(await tab.locator('.channel-form').textContent()).toContain('Leave empty to keep');
    expect(await tab.content()).not.toContain(secret);
    await tab.getByLabel('Channel name').fill('Ops webhook');
    await tab.getByRole('button', { name: 'Save channel' }).click();
    const renamed = tab.getByRole('listitem', { name: /Webhook Ops webhook/ });
    await renamed.waitFor();
    const stored = (await s.a.request('GET', '/v1/alert-channels')).body as { id: number; type: string; config: Record<string, unknown> }[];
    const hook = stored.find((c) => c.type === 'WEBHOOK')!;
    expect(hook.config).toMatchObject({ name: 'Ops webhook', url: 'https://hooks.example.test/lookout' });
    expect(await tab.content()).not.toContain(secret);

    await renamed.getByLabel('Subscribe checks').selectOption({ label: 'Database port' });
    await renamed.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await renamed.getByRole('link', { name: 'Database port' }).waitFor();
    const subscriptions = (await s.a.request('GET', `/v1/alert-channels/${hook.id}`)).body as { subscriptions?: { checkId: string }[] };
    const dbCheck = (await checks()).find((c) => c.name === 'Database port')!;
    expect(subscriptions.subscriptions?.map((x) => x.checkId) ?? []).toContain(dbCheck.id);
    await shot('alert-channels');
    // The check's detail names the channel it is subscribed to.
    await renamed.getByRole('link', { name: 'Database port' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Database port' }).waitFor();
    await expect.poll(() => tab.getByRole('region', { name: 'Settings' }).textContent()).toContain('Webhook');
    await nav('Alert channels');
    expect(await tab.content()).not.toContain(secret);

    await tab.getByRole('listitem', { name: /Email ops@example.test/ }).getByRole('button', { name: /^Delete/ }).click();
    await tab.getByRole('button', { name: 'Confirm delete' }).click();
    await expect.poll(() => tab.getByRole('listitem', { name: /Email ops@example.test/ }).count()).toBe(0);
    expect(((await s.a.request('GET', '/v1/alert-channels')).body as unknown[]).length).toBe(1);
  });

  it('keeps a Slack webhook URL write-only: never read into the page, kept on edit when left empty', async () => {
    const slackUrl = 'https://hooks.slack.test/services/T000/B000/XXXXsecretXXXX';
    await tab.getByLabel('Channel type').selectOption('SLACK');
    await tab.getByLabel('Slack webhook URL').fill(slackUrl);
    await tab.getByLabel('Slack channel').fill('#ops');
    await tab.getByRole('button', { name: 'Add channel' }).click();
    const slack = tab.getByRole('listitem', { name: /Slack \(incoming webhook\) #ops/ });
    await slack.waitFor();
    expect(await tab.content()).not.toContain('XXXXsecretXXXX');
    await slack.getByRole('button', { name: /^Edit/ }).click();
    expect(await tab.getByLabel('Slack webhook URL').inputValue()).toBe('');
    // A new Slack channel name needs the URL again (the config goes as a whole): said on the URL field.
    await tab.getByLabel('Slack channel').fill('#oncall');
    await tab.getByRole('button', { name: 'Save channel' }).click();
    await tab.locator('[data-error-for="config.url"]').waitFor();
    expect(await tab.getByLabel('Slack webhook URL').getAttribute('aria-invalid')).toBe('true');
    await tab.getByLabel('Slack channel').fill('#ops');
    await tab.getByLabel('Degraded').check();
    await tab.getByRole('button', { name: 'Save channel' }).click();
    await tab.locator('.channel-form h2', { hasText: 'Add an alert channel' }).waitFor();
    const stored = ((await s.a.request('GET', '/v1/alert-channels')).body as { type: string; sendDegraded: boolean; config: { url: string; channel: string } }[]).find((c) => c.type === 'SLACK');
    // Left empty, the URL kept its stored value; the rest of the edit applied.
    expect(stored).toMatchObject({ sendDegraded: true, config: { url: slackUrl } });
    expect(await tab.content()).not.toContain('XXXXsecretXXXX');
    await tab.emulateMedia({ colorScheme: 'dark' });
    await shot('alert-channels-dark');
    await tab.emulateMedia({ colorScheme: 'light' });
  });

  it('creates an API check with a header, a JSON body and two assertions: a target that is not a number shows on its row, then every row is stored and loaded again', async () => {
    await tab.goto(`${s.url}/checks/new?type=API`);
    await tab.getByRole('heading', { level: 1, name: 'New API check' }).waitFor();
    // A new check starts with one assertion: status code equals 200.
    expect(await tab.getByLabel('Assertion 1 source').inputValue()).toBe('STATUS_CODE');
    expect(await tab.getByLabel('Assertion 1 comparison').inputValue()).toBe('EQUALS');
    expect(await tab.getByLabel('Assertion 1 target').inputValue()).toBe('200');
    await tab.getByLabel('Name', { exact: true }).fill('Orders API');
    await tab.getByLabel('Method').selectOption('POST');
    await tab.getByLabel('URL', { exact: true }).fill('https://api.example.test/orders');
    await tab.getByRole('button', { name: 'Add header' }).click();
    // The new row's first control has the focus, so the keyboard carries on there.
    await tab.keyboard.type('Accept');
    expect(await tab.getByLabel('Header 1 name').inputValue()).toBe('Accept');
    await tab.getByLabel('Header 1 value').fill('application/json');
    await tab.getByLabel('Body type').selectOption('JSON');
    await tab.getByLabel('Body', { exact: true }).fill('{"status":"open"}');
    await tab.getByRole('button', { name: 'Add assertion' }).click();
    await tab.getByLabel('Assertion 2 source').selectOption('RESPONSE_TIME');
    await tab.getByLabel('Assertion 2 comparison').selectOption('LESS_THAN');
    await tab.getByLabel('Assertion 2 target').fill('fast');
    await tab.getByRole('button', { name: 'Create check' }).click();
    const targetError = tab.locator('[data-error-for="request.assertions.1.target"]');
    await targetError.waitFor();
    expect(await targetError.textContent()).toMatch(/must be a number for LESS_THAN/);
    expect(await tab.getByLabel('Assertion 2 target').getAttribute('aria-invalid')).toBe('true');
    expect(await tab.getByLabel('Assertion 1 target').getAttribute('aria-invalid')).toBeNull();
    expect(await tab.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('request.assertions.1.target');
    await shot('api-check-form-invalid');

    await tab.getByLabel('Assertion 2 target').fill('2000');
    await tab.getByRole('button', { name: 'Create check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Orders API' }).waitFor();
    const id = (await checks()).find((c) => c.name === 'Orders API')!.id;
    const stored = (await s.a.request('GET', `/v1/checks/${id}`)).body as StoredCheck;
    expect(stored.request).toMatchObject({
      method: 'POST', url: 'https://api.example.test/orders', bodyType: 'JSON', body: '{"status":"open"}',
      headers: [{ key: 'Accept', value: 'application/json' }],
      assertions: [
        { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' },
        { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '2000' },
      ],
    });

    await tab.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => tab.getByLabel('Header 1 name').inputValue()).toBe('Accept');
    expect(await tab.getByLabel('Header 1 value').inputValue()).toBe('application/json');
    expect(await tab.getByLabel('Body type').inputValue()).toBe('JSON');
    expect(await tab.getByLabel('Body', { exact: true }).inputValue()).toBe('{"status":"open"}');
    expect(await tab.getByLabel('Assertion 1 target').inputValue()).toBe('200');
    expect(await tab.getByLabel('Assertion 2 source').inputValue()).toBe('RESPONSE_TIME');
    expect(await tab.getByLabel('Assertion 2 comparison').inputValue()).toBe('LESS_THAN');
    expect(await tab.getByLabel('Assertion 2 target').inputValue()).toBe('2000');
    await tab.emulateMedia({ colorScheme: 'dark' });
    await shot('api-check-form-edit-dark');
    await tab.emulateMedia({ colorScheme: 'light' });

    // Removing a row and saving removes it from the stored check; the rest is sent back unchanged.
    await tab.getByRole('button', { name: 'Remove assertion 1' }).click();
    expect(await tab.getByLabel('Assertion 1 source').inputValue()).toBe('RESPONSE_TIME');
    await tab.getByRole('button', { name: 'Save check' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Orders API' }).waitFor();
    const saved = (await s.a.request('GET', `/v1/checks/${id}`)).body as StoredCheck;
    expect(saved.request).toMatchObject({ bodyType: 'JSON', body: '{"status":"open"}', headers: [{ key: 'Accept', value: 'application/json' }] });
    expect(saved.request?.assertions).toEqual([expect.objectContaining({ source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '2000' })]);
  });

  it('ran without uncaught page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
