import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, renderDashboardPage } from '../../src/api/pages/dashboard-page.js';
import { STATUS_STALENESS_MS, createDashboardPageService } from '../../src/service/dashboard-page-service.js';
import { BACKENDS } from '../support/backends.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';
import { getWithHost } from '../support/get-with-host.js';

const HOUR = 3_600_000;
const HOSTILE = '<script>alert("pwned")</script><img src=x onerror=alert(1)> & "co"';

describe.each(BACKENDS)('public dashboard pages ($name)', (backend) => {
  let s: TestServer;
  let recorder: ReturnType<typeof testRecorder>;
  const checks: Record<string, Record<string, any>> = {};

  const createCheck = async (client: TestClient, name: string, tags: string[], extra: Record<string, unknown> = {}) => {
    const res = await client.request('POST', '/v1/checks/api', { name, tags, locations: ['eu-west-1'], request: { url: 'https://shop.example.test' }, ...extra });
    expect(res.status).toBe(201);
    checks[name] = res.body;
    return res.body;
  };
  /** Stores a FINAL result of `name` that started `hoursAgo` hours ago. */
  const run = (client: TestClient, name: string, hoursAgo: number, outcome: { hasFailures?: boolean; isDegraded?: boolean; responseTime?: number } = {}) =>
    recorder.record({ check: runnable(client, checks[name]!), probe: probe({ at: new Date(Date.now() - hoursAgo * HOUR), ...outcome }) });
  const createDashboard = async (body: Record<string, unknown>, client: TestClient = s.a) => {
    const res = await client.request('POST', '/v1/dashboards', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, any>;
  };
  const page = (customUrl: string, query = '') => s.raw('GET', `/dashboards/${customUrl}${query}`);
  const data = async (customUrl: string, query = '') => {
    const res = await s.raw('GET', `/dashboards/${customUrl}/data.json${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const names = (body: { checks: { name: string }[] }) => body.checks.map((c) => c.name);

  beforeAll(async () => {
    s = await startTestServer({ backend });
    recorder = testRecorder(s.lookout.store);
    await createCheck(s.a, 'Checkout API', ['prod', 'api']);
    await createCheck(s.a, 'search', ['prod']);
    await createCheck(s.a, 'Login', ['api']);
    await createCheck(s.a, 'Never ran', ['prod']);
    await createCheck(s.a, 'Paused', ['prod', 'api'], { activated: false });
    await createCheck(s.a, HOSTILE, ['hostile']);
    await createCheck(s.b, 'B only', ['prod', 'api']);
    // Checkout API: 2 failures 3 days ago, then 3 passes and 1 failure within 24 hours, the latest passing.
    await run(s.a, 'Checkout API', 72, { hasFailures: true, responseTime: 900 });
    await run(s.a, 'Checkout API', 71, { hasFailures: true, responseTime: 900 });
    await run(s.a, 'Checkout API', 4, { responseTime: 100 });
    await run(s.a, 'Checkout API', 3, { hasFailures: true, responseTime: 400 });
    await run(s.a, 'Checkout API', 2, { responseTime: 200 });
    await run(s.a, 'Checkout API', 1, { responseTime: 300 });
    await run(s.a, 'search', 1, { isDegraded: true, responseTime: 1500 });
    await run(s.a, 'Login', 1, { hasFailures: true, responseTime: 50 });
    await run(s.a, HOSTILE, 1);
    await run(s.b, 'B only', 1, { hasFailures: true });
  });
  afterAll(async () => s?.close());

  it('serves the page without an API key: the checks its tags select, each with its status and availability', async () => {
    await createDashboard({ customUrl: 'acme', header: 'ACME status', description: 'All of production', tags: ['prod', 'api'], paginate: false, refreshRate: 300 });
    const res = await page('acme');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.text).toContain('<title>ACME status</title>');
    expect(res.text).toContain('<p class="dashboard__description">All of production</p>');
    expect(res.text).toContain('<meta http-equiv="refresh" content="300;url=?page=1">');
    // By name (case-insensitive); not the deactivated check, not the other account's.
    const order = ['Checkout API', 'Login', 'Never ran', 'search'].map((n) => res.text.indexOf(`<span class="check__name">${n}</span>`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(res.text).not.toContain('Paused');
    expect(res.text).not.toContain('B only');
    for (const status of ['passing', 'failing', 'unknown', 'degraded']) expect(res.text).toContain(`<li class="check check--${status}"`);
    expect(res.text).toContain('1 failing, 1 degraded, 1 not run yet');
    expect(res.text).toMatch(/24h<\/span>75\.00%/);
    expect(res.text).toMatch(/7d<\/span>50\.00%/);
    expect(res.text).toMatch(/p95<\/span>385 ms/);
  });

  it('answers the same data as JSON at data.json', async () => {
    const body = await data('acme');
    expect(body).toMatchObject({
      dashboard: { customUrl: 'acme', header: 'ACME status', description: 'All of production', refreshRate: 300, paginate: false, showP95: true },
      summary: { passing: 1, degraded: 1, failing: 1, unknown: 1 },
      page: 1, pages: 1, totalChecks: 4, incidents: [],
    });
    expect(names(body)).toEqual(['Checkout API', 'Login', 'Never ran', 'search']);
    expect(body.checks[0]).toEqual({
      name: 'Checkout API', checkType: 'API', status: 'passing', tags: ['prod', 'api'], availability24h: 75, availability7d: 50, p95: 385, p99: 397,
      lastRunAt: expect.any(String), lastRunLocation: 'eu-west-1', lastResponseTime: 300,
    });
    expect(body.checks[2]).toMatchObject({ name: 'Never ran', status: 'unknown', availability24h: null, availability7d: null, p95: null, lastRunAt: null });
    expect(body.checks[3]).toMatchObject({ name: 'search', status: 'degraded', availability24h: 100 });
  });

  it('selects checks having every tag with useTagsAndOperator, and every activated check without tags', async () => {
    await createDashboard({ customUrl: 'all-tags', tags: ['prod', 'api'], useTagsAndOperator: true });
    expect(names(await data('all-tags'))).toEqual(['Checkout API']);
    await createDashboard({ customUrl: 'everything', paginate: false });
    expect(names(await data('everything'))).toEqual([HOSTILE, 'Checkout API', 'Login', 'Never ran', 'search']);
    await createDashboard({ customUrl: 'nothing', tags: ['no-such-tag'] });
    const none = await page('nothing');
    expect(none.text).toContain('No activated checks match this dashboard.');
  });

  it('follows the display settings: hidden tags and percentiles, the header left out', async () => {
    await createDashboard({ customUrl: 'plain', tags: ['api'], hideTags: true, showP95: false, showP99: false, showHeader: false, header: 'Not shown' });
    const body = await data('plain');
    expect(body.checks.map((c: { tags: string[]; p95: number | null; p99: number | null }) => [c.tags, c.p95, c.p99])).toEqual([[[], null, null], [[], null, null]]);
    const html = (await page('plain')).text;
    expect(html).not.toContain('check__tags"');
    expect(html).not.toContain('<h1');
  });

  it('serves the same page at / when the Host header is the dashboard\'s custom domain, in any case and with a port', async () => {
    await createDashboard({ customUrl: 'by-domain', customDomain: 'status.acme.test', header: 'On our domain', tags: ['api'] });
    const res = await getWithHost(s.url, '/', 'Status.ACME.test:8443');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<title>On our domain</title>');
    expect(res.text).toContain('Checkout API');
    expect(res.text).not.toContain('B only');
    const second = await getWithHost(s.url, '/?page=1', 'status.acme.test.');
    expect(second.status).toBe(200);
    for (const host of ['unknown.acme.test', new URL(s.url).host]) {
      const other = await getWithHost(s.url, '/', host);
      expect(other.status, host).toBe(404);
      expect(JSON.parse(other.text)).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it('escapes hostile names and settings everywhere on the page', async () => {
    await createDashboard({ customUrl: 'hostile', header: HOSTILE, description: HOSTILE, tags: ['hostile'], expandChecks: true });
    const res = await page('hostile');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain(`<span class="check__name">${escapeHtml(HOSTILE)}</span>`);
    expect(res.text).toContain(`<li>hostile</li>`);
    expect(res.text).toContain(`<title>${escapeHtml(HOSTILE)}</title>`);
    expect(names(await data('hostile'))).toEqual([HOSTILE]);
  });

  it('paginates: checksPerPage a page, the next page after paginationRate seconds, a page past the last as the last', async () => {
    await createDashboard({ customUrl: 'paged', tags: ['prod', 'api'], checksPerPage: 3, paginationRate: 30 });
    const first = await page('paged');
    expect(first.text).toContain('<meta http-equiv="refresh" content="30;url=?page=2">');
    expect(first.text).toContain('<span>Page 1 of 2</span>');
    expect(names(await data('paged'))).toEqual(['Checkout API', 'Login', 'Never ran']);
    const second = await data('paged', '?page=2');
    expect(second).toMatchObject({ page: 2, pages: 2, totalChecks: 4, summary: { passing: 1, degraded: 1, failing: 1, unknown: 1 } });
    expect(names(second)).toEqual(['search']);
    expect((await page('paged', '?page=2')).text).toContain('<meta http-equiv="refresh" content="30;url=?page=1">');
    expect(await data('paged', '?page=99')).toMatchObject({ page: 2, checks: [{ name: 'search' }] });
    for (const query of ['?page=0', '?page=two']) {
      const res = await page('paged', query);
      expect(res.status, query).toBe(400);
      expect(res.body.validation).toMatchObject({ source: 'query', keys: ['page'] });
    }
  });

  it('shows the account\'s open status page incidents when enableIncidents is on, never another account\'s', async () => {
    const incident = async (client: TestClient, name: string, status: string) => {
      const service = await client.request('POST', '/v1/status-pages/services', { name: `${name} service` });
      const res = await client.request('POST', '/v1/status-pages/incidents', {
        name, severity: 'MAJOR', services: [{ id: service.body.id }], incidentUpdates: [{ description: `${name}: ${status.toLowerCase()}`, status }],
      });
      expect(res.status).toBe(201);
    };
    await incident(s.a, 'Payments degraded', 'IDENTIFIED');
    await incident(s.a, 'Old outage', 'RESOLVED');
    await incident(s.b, 'B incident', 'INVESTIGATING');
    await createDashboard({ customUrl: 'with-incidents', tags: ['api'], enableIncidents: true });
    const body = await data('with-incidents');
    expect(body.incidents).toEqual([{
      name: 'Payments degraded', severity: 'MAJOR', lastUpdateStatus: 'IDENTIFIED', latestUpdate: 'Payments degraded: identified',
      latestUpdateAt: expect.any(String), created_at: expect.any(String),
    }]);
    const html = (await page('with-incidents')).text;
    expect(html).toContain('Payments degraded');
    expect(html).not.toContain('Old outage');
    expect(html).not.toContain('B incident');
    expect((await data('acme')).incidents).toEqual([]);
  });

  it('shows a dashboard write on the very next request, and answers 404 once it is deleted or for an unknown URL', async () => {
    const created = await createDashboard({ customUrl: 'live', header: 'Before', tags: ['api'] });
    expect((await page('live')).text).toContain('<title>Before</title>');
    expect((await s.a.request('PUT', `/v1/dashboards/${created.dashboardId}`, { header: 'After' })).status).toBe(200);
    expect((await page('live')).text).toContain('<title>After</title>');
    expect((await data('live')).dashboard.header).toBe('After');
    expect((await s.a.request('DELETE', `/v1/dashboards/${created.dashboardId}`)).status).toBe(204);
    for (const path of ['/dashboards/live', '/dashboards/live/data.json', '/dashboards/no-such-dashboard']) {
      const res = await s.raw('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  describe('the page cache', () => {
    let now: number;
    let pages: ReturnType<typeof createDashboardPageService>;
    beforeAll(async () => {
      now = Date.now();
      pages = createDashboardPageService({ store: s.lookout.store, now: () => now });
      await createDashboard({ customUrl: 'cached', tags: ['api'], header: 'Cached' });
    });
    const render = async (key = 'html|1') => {
      const dashboard = await pages.find({ customUrl: 'cached' });
      return pages.cached(dashboard, key, async () => renderDashboardPage(await pages.view(dashboard, 1)));
    };

    it('serves a page again while the version stays and the status bound has not passed, one build for concurrent requests', async () => {
      const dashboard = await pages.find({ customUrl: 'cached' });
      let builds = 0;
      const build = async () => `build ${++builds}`;
      expect(await Promise.all([1, 2, 3].map(() => pages.cached(dashboard, 'probe', build)))).toEqual(['build 1', 'build 1', 'build 1']);
      now += STATUS_STALENESS_MS - 1;
      expect(await pages.cached(dashboard, 'probe', build)).toBe('build 1');
      now += 1;
      expect(await pages.cached(dashboard, 'probe', build)).toBe('build 2');
      expect(await pages.cached(dashboard, 'other key', build)).toBe('build 3');
    });

    it('shows a check status that changed without a public write once the bound has passed', async () => {
      const before = await render();
      expect(before).toContain('<li class="check check--passing" data-status="passing"><details><summary><span class="check__name">Checkout API</span>');
      await run(s.a, 'Checkout API', 0.01, { hasFailures: true });
      expect(await render()).toBe(before);
      now += STATUS_STALENESS_MS;
      expect(await render()).toContain('<li class="check check--failing" data-status="failing"><details><summary><span class="check__name">Checkout API</span>');
      await run(s.a, 'Checkout API', 0.005, { responseTime: 100 });
    });

    it('builds again at once when the account\'s public content version moves', async () => {
      const before = await render();
      const id = (await pages.find({ customUrl: 'cached' })).id;
      expect((await s.a.request('PUT', `/v1/dashboards/${id}`, { header: 'Cached, renamed' })).status).toBe(200);
      const after = await render();
      expect(after).not.toBe(before);
      expect(after).toContain('<title>Cached, renamed</title>');
    });

    it('does not keep a failed build', async () => {
      const dashboard = await pages.find({ customUrl: 'cached' });
      await expect(pages.cached(dashboard, 'flaky', async () => { throw new Error('store down'); })).rejects.toThrow('store down');
      expect(await pages.cached(dashboard, 'flaky', async () => 'recovered')).toBe('recovered');
    });
  });
});
