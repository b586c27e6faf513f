import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SERVICES = '/v1/status-pages/services';

/** A loopback target whose answer the test chooses: 200 while `healthy`, else 503. */
async function startSwitchTarget() {
  const state = { healthy: true };
  const server = http.createServer((_req, res) => res.writeHead(state.healthy ? 200 : 503).end(state.healthy ? 'ok' : 'down'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('status page services built from checks (REST and GraphQL)', () => {
  let s: TestServer;
  let target: Awaited<ReturnType<typeof startSwitchTarget>>;
  let mine: { id: string; name: string };
  let other: { id: string; name: string };
  let theirs: string;

  const apiCheck = async (client: TestServer['a'], name: string) => {
    const res = await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name, frequency: 1440, locations: ['eu-west-1'],
      request: { method: 'GET', url: target.url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, name };
  };

  beforeAll(async () => {
    target = await startSwitchTarget();
    s = await startTestServer();
    mine = await apiCheck(s.a, 'Shop API check');
    other = await apiCheck(s.a, 'Shop web check');
    theirs = (await apiCheck(s.b, 'Their check')).id;
  });
  afterAll(async () => {
    await s?.close();
    await target?.close();
  });

  it('links checks on create, reads them back, keeps them on a PUT without checks and clears them with []', async () => {
    const created = await s.a.request('POST', SERVICES, { name: 'Shop API', checks: [{ id: mine.id }, { id: other.id }] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Shop API', autoIncident: false, checks: [{ id: mine.id, name: mine.name }, { id: other.id, name: other.name }] });
    const id = created.body.id;
    expect((await s.a.request('GET', `${SERVICES}/${id}`)).body.checks).toEqual([{ id: mine.id, name: mine.name }, { id: other.id, name: other.name }]);
    const renamed = await s.a.request('PUT', `${SERVICES}/${id}`, { name: 'Shop', autoIncident: true });
    expect(renamed.body).toMatchObject({ name: 'Shop', autoIncident: true, checks: [{ id: mine.id }, { id: other.id }] });
    const cleared = await s.a.request('PUT', `${SERVICES}/${id}`, { name: 'Shop', checks: [] });
    expect(cleared.body).toMatchObject({ autoIncident: true, checks: [] });
    const listed = (await s.a.request('GET', `${SERVICES}?limit=100`)).body.entries.find((e: { id: string }) => e.id === id);
    expect(listed.checks).toEqual([]);
  });

  it('refuses another account\'s check, an unknown one and a repeated one with a 400 naming the key, writing nothing', async () => {
    const refused = await s.a.request('POST', SERVICES, { name: 'Nope', checks: [{ id: mine.id }, { id: theirs }, { id: randomUUID() }, { id: mine.id }] });
    expect(refused.status).toBe(400);
    expect(refused.body.validation.keys).toEqual(['checks.1.id', 'checks.2.id', 'checks.3.id']);
    const all = (await s.a.request('GET', `${SERVICES}?limit=100`)).body.entries.map((e: { name: string }) => e.name);
    expect(all).not.toContain('Nope');
    const id = (await s.a.request('POST', SERVICES, { name: 'Kept', checks: [{ id: mine.id }] })).body.id;
    const put = await s.a.request('PUT', `${SERVICES}/${id}`, { name: 'Changed', checks: [{ id: theirs }] });
    expect(put.status).toBe(400);
    expect(put.body.validation.keys).toEqual(['checks.0.id']);
    expect((await s.a.request('GET', `${SERVICES}/${id}`)).body).toMatchObject({ name: 'Kept', checks: [{ id: mine.id }] });
    // Account B cannot see A's links either: the service is not theirs.
    expect((await s.b.request('GET', `${SERVICES}/${id}`)).status).toBe(404);
  });

  it('shows the checks on the GraphQL service and sets them through the mutation, errors on the input key', async () => {
    const created = await gql(s.a, `mutation($input: StatusPageServiceInput!) {
      createStatusPageService(input: $input) { statusPageService { serviceId autoIncident linkedChecks { id name } } userErrors { field code message } }
    }`, { input: { name: 'GraphQL shop', checks: [mine.id], autoIncident: true } });
    expect(created.errors).toBeUndefined();
    const service = created.data.createStatusPageService.statusPageService;
    expect(service).toMatchObject({ autoIncident: true, linkedChecks: [{ name: mine.name }] });
    const refused = await gql(s.a, `mutation($id: ID!, $input: StatusPageServiceInput!) {
      updateStatusPageService(id: $id, input: $input) { statusPageService { serviceId } userErrors { field code } }
    }`, { id: service.serviceId, input: { name: 'GraphQL shop', checks: [theirs] } });
    expect(refused.data.updateStatusPageService).toMatchObject({ statusPageService: null, userErrors: [{ field: 'checks.0' }] });
    // Reached through a page's card, the service still knows its checks.
    const slug = `checks-${randomUUID().slice(0, 8)}`;
    const page = await s.a.request('POST', '/v1/status-pages', { name: 'GQL page', url: slug, cards: [{ name: 'Shop', services: [{ id: service.serviceId }] }] });
    const read = await gql(s.a, `query($id: ID!) { statusPage(id: $id) { cards { services { name linkedChecks { name } } } } }`, { id: page.body.id });
    expect(read.errors).toBeUndefined();
    expect(read.data.statusPage.cards[0].services[0].linkedChecks).toEqual([{ name: mine.name }]);
  });

  it('takes the public state from the checks (some failing: partial, all failing: major) and the uptime bars from their results', async () => {
    const service = (await s.a.request('POST', SERVICES, { name: 'Storefront', checks: [{ id: mine.id }, { id: other.id }] })).body.id;
    const slug = `state-${randomUUID().slice(0, 8)}`;
    expect((await s.a.request('POST', '/v1/status-pages', { name: 'Shop status', url: slug, cards: [{ name: 'Shop', services: [{ id: service }] }] })).status).toBe(201);
    const component = async () => {
      const summary = JSON.parse((await s.raw('GET', `/status/${slug}/api/v2/summary.json`)).text);
      return summary.components.find((c: { id: string }) => c.id === service) as { status: string };
    };
    const run = async (checkId: string) => expect((await s.a.request('POST', `/v1/checks/${checkId}/run`)).status).toBe(200);
    target.state.healthy = true;
    await run(mine.id);
    await run(other.id);
    expect((await component()).status).toBe('operational');
    target.state.healthy = false;
    await run(mine.id);
    expect((await component()).status).toBe('partial_outage');
    await run(other.id);
    expect((await component()).status).toBe('major_outage');
    const html = (await s.raw('GET', `/status/${slug}`)).text;
    // Half of today's runs failed, so the service is neither at 100 % nor without data.
    expect(html).not.toContain('100.00 %');
    target.state.healthy = true;
    await run(mine.id);
    await run(other.id);
    expect((await component()).status).toBe('operational');
    // Nobody wrote an incident: the checks alone moved the page.
    const incidents = (await s.a.request('GET', '/v1/status-pages/incidents?limit=100')).body.entries;
    expect(incidents.filter((i: { services: { id: string }[] }) => i.services.some((x) => x.id === service))).toEqual([]);
  });

  it('drops a deleted check from the public page at once, publishing the change, and leaves pages of unlinked checks alone', async () => {
    const doomed = await apiCheck(s.a, 'Doomed check');
    const unlinked = await apiCheck(s.a, 'Unlinked check');
    const service = (await s.a.request('POST', SERVICES, { name: 'Checkout', checks: [{ id: doomed.id }] })).body.id;
    const slug = `deleted-${randomUUID().slice(0, 8)}`;
    expect((await s.a.request('POST', '/v1/status-pages', { name: 'Checkout status', url: slug, cards: [{ name: 'Shop', services: [{ id: service }] }] })).status).toBe(201);
    target.state.healthy = false;
    expect((await s.a.request('POST', `/v1/checks/${doomed.id}/run`)).status).toBe(200);
    const component = async () => JSON.parse((await s.raw('GET', `/status/${slug}/api/v2/summary.json`)).text).components.find((c: { id: string }) => c.id === service).status;
    expect(await component()).toBe('major_outage');

    const published: Array<{ subject: string; subjectId: string }> = [];
    const off = s.lookout.bus.subscribe('publicContentChanged', (e) => { published.push(e); });
    try {
      expect((await s.a.request('DELETE', `/v1/checks/${unlinked.id}`)).status).toBe(204);
      expect((await s.a.request('DELETE', `/v1/checks/${doomed.id}`)).status).toBe(204);
      // Within the same minute the page was memoised in: only the version moving on refreshes it.
      expect(await component()).toBe('operational');
      expect((await s.a.request('GET', `${SERVICES}/${service}`)).body.checks).toEqual([]);
      await expect.poll(() => published.filter((e) => e.subject === 'check').map((e) => e.subjectId)).toEqual([doomed.id]);
    } finally {
      off();
      target.state.healthy = true;
    }
  });

  it('shows a service under maintenance while a window covering its checks by tag is in progress, even one the page does not show', async () => {
    const created = await s.a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name: 'Payments DB', tags: ['payments-db'], frequency: 1440, locations: ['eu-west-1'],
      request: { method: 'GET', url: target.url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
    const checkId = created.body.id as string;
    const service = (await s.a.request('POST', SERVICES, { name: 'Payments', checks: [{ id: checkId }] })).body.id;
    const slug = `maint-${randomUUID().slice(0, 8)}`;
    expect((await s.a.request('POST', '/v1/status-pages', { name: 'Payments status', url: slug, cards: [{ name: 'Pay', services: [{ id: service }] }] })).status).toBe(201);
    const component = async () => JSON.parse((await s.raw('GET', `/status/${slug}/api/v2/summary.json`)).text).components.find((c: { id: string }) => c.id === service).status;
    target.state.healthy = false;
    try {
      expect((await s.a.request('POST', `/v1/checks/${checkId}/run`)).status).toBe(200);
      expect(await component()).toBe('major_outage');
      const soon = new Date(Date.now() + 3_600_000).toISOString();
      const later = new Date(Date.now() + 7_200_000).toISOString();
      const window = (await s.a.request('POST', '/v1/maintenance-windows', { name: 'DB failover', silenceAlertsTags: ['payments-db'], startsAt: soon, endsAt: later })).body;
      const path = `/v1/maintenance-windows/${window.id}/maintenances`;
      const [maintenance] = (await s.a.request('GET', path)).body;
      expect((await s.a.request('POST', `${path}/${maintenance.id}/updates`, { status: 'IN_PROGRESS', description: 'Failing over.' })).status).toBe(201);
      expect((await s.a.request('POST', `/v1/checks/${checkId}/run`)).status).toBe(200);
      expect(await component()).toBe('under_maintenance');
      expect((await s.a.request('POST', `${path}/${maintenance.id}/updates`, { status: 'COMPLETED', description: 'Done.' })).status).toBe(201);
      expect(await component()).toBe('major_outage');
    } finally {
      target.state.healthy = true;
    }
  });
});
