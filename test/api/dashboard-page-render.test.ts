import { describe, expect, it } from 'vitest';
import { escapeHtml, renderDashboardPage } from '../../src/api/pages/dashboard-page.js';
import type { DashboardPageView, PublicDashboardCheckView } from '../../src/service/dashboard-page-service.js';

/** The page without its <head> (whose stylesheet names every class). */
const bodyOf = (html: string) => html.slice(html.indexOf('<body'));

const HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>&amp;\'';

function check(overrides: Partial<PublicDashboardCheckView> = {}): PublicDashboardCheckView {
  return {
    name: 'Checkout API', checkType: 'API', status: 'passing', tags: ['prod'], availability24h: 99.5, availability7d: 98.25, p95: 120.4, p99: 250.6,
    lastRunAt: '2026-11-20T10:00:05.000Z', lastRunLocation: 'eu-west-1', lastResponseTime: 110, ...overrides,
  };
}

function view(overrides: { dashboard?: Partial<DashboardPageView['data']['dashboard']>; data?: Partial<DashboardPageView['data']>; customCSS?: string | null; reload?: DashboardPageView['reload'] } = {}): DashboardPageView {
  return {
    data: {
      dashboard: {
        customUrl: 'acme', header: 'ACME status', description: 'Our services', logo: 'https://cdn.acme.test/logo.png', favicon: 'https://cdn.acme.test/favicon.ico',
        link: 'https://acme.test', width: 'FULL', refreshRate: 60, paginate: true, paginationRate: 60, checksPerPage: 15, hideTags: false,
        expandChecks: false, showHeader: true, showP95: true, showP99: true, enableIncidents: false, ...overrides.dashboard,
      },
      checks: [check()],
      incidents: [],
      summary: { passing: 1, degraded: 0, failing: 0, unknown: 0 },
      page: 1,
      pages: 1,
      totalChecks: 1,
      generatedAt: '2026-11-20T10:00:10.000Z',
      ...overrides.data,
    },
    customCSS: overrides.customCSS ?? null,
    reload: overrides.reload ?? { seconds: 60, page: 1 },
  };
}

describe('renderDashboardPage', () => {
  it('draws the header, each check with its status and availability, and reloads itself', () => {
    const html = renderDashboardPage(view());
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>ACME status</title>');
    expect(html).toContain('<link rel="icon" href="https://cdn.acme.test/favicon.ico">');
    expect(html).toContain('<a class="dashboard__logo" href="https://acme.test" rel="noopener noreferrer"><img src="https://cdn.acme.test/logo.png"');
    expect(html).toContain('<p class="dashboard__description">Our services</p>');
    expect(html).toContain('<meta http-equiv="refresh" content="60;url=?page=1">');
    expect(html).toContain('<li class="check check--passing" data-status="passing"><details>');
    expect(html).toMatch(/24h<\/span>99\.50%/);
    expect(html).toMatch(/7d<\/span>98\.25%/);
    expect(html).toMatch(/p95<\/span>120 ms/);
    expect(html).toMatch(/p99<\/span>251 ms/);
    expect(html).toContain('<time datetime="2026-11-20T10:00:05.000Z">2026-11-20 10:00:05 UTC</time> from eu-west-1');
    expect(html).toContain('All 1 checks passing');
    expect(html).toContain('<ul class="check__tags"><li>prod</li></ul>');
    expect(html).not.toContain('<script');
  });

  it('escapes every value that came from a user, in text and in attributes', () => {
    const html = renderDashboardPage(view({
      dashboard: { header: HOSTILE, description: HOSTILE, customUrl: HOSTILE },
      data: {
        checks: [check({ name: HOSTILE, tags: [HOSTILE], lastRunLocation: HOSTILE, checkType: HOSTILE })],
        incidents: [{ name: HOSTILE, severity: 'MAJOR', lastUpdateStatus: 'INVESTIGATING', latestUpdate: HOSTILE, latestUpdateAt: null, created_at: '2026-11-20T09:00:00.000Z' }],
      },
    }));
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toMatch(/"><script/);
    const escaped = escapeHtml(HOSTILE);
    expect(escaped).toBe('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&amp;amp;&#39;');
    // Header (title and h1), description, check name, type, location, tag, incident name and update.
    expect(html.split(escaped).length - 1).toBeGreaterThanOrEqual(9);
  });

  it('leaves out URLs that are not http(s) and places no link without a logo', () => {
    const html = renderDashboardPage(view({ dashboard: { logo: 'javascript:alert(1)', favicon: 'data:text/html,x', link: 'javascript:alert(2)' } }));
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('rel="icon"');
    expect(bodyOf(html)).not.toContain('dashboard__logo');
  });

  it('places custom CSS in its own <style> element that nothing inside can close', () => {
    const html = renderDashboardPage(view({ customCSS: 'body{background:#000} a::after{content:"</style><script>alert(1)</script>"}' }));
    const custom = html.slice(html.indexOf('<style class="dashboard__custom-css">'));
    expect(custom.indexOf('</style>')).toBeGreaterThan(0);
    expect(custom.slice(0, custom.indexOf('</style>'))).toContain('body{background:#000} a::after{content:"<\\/style><script>alert(1)<\\/script>"}');
    expect(html.match(/<\/style>/g)).toHaveLength(2);
  });

  it('follows the display settings: width, header, tags, details, percentiles', () => {
    const plain = bodyOf(renderDashboardPage(view({ dashboard: { width: '960PX', showHeader: false, showP95: false, showP99: false, expandChecks: true }, data: { checks: [check({ tags: [] })] } })));
    expect(plain).toContain('<body class="dashboard dashboard--narrow">');
    expect(plain).not.toContain('dashboard__header');
    expect(plain).not.toContain('p95');
    expect(plain).not.toContain('p99');
    expect(plain).not.toContain('check__tags');
    expect(plain).toContain('<details open>');
    const full = renderDashboardPage(view());
    expect(full).toContain('<body class="dashboard">');
  });

  it('shows each status, the worst one in the summary, and what has no runs as a dash', () => {
    const html = renderDashboardPage(view({
      data: {
        checks: [
          check({ name: 'A', status: 'failing' }), check({ name: 'B', status: 'degraded' }),
          check({ name: 'C', status: 'unknown', availability24h: null, availability7d: null, p95: null, p99: null, lastRunAt: null, lastRunLocation: null, lastResponseTime: null }),
        ],
        summary: { passing: 4, degraded: 1, failing: 1, unknown: 1 },
        totalChecks: 7,
      },
    }));
    expect(html).toContain('dashboard__summary--failing" role="status">1 failing, 1 degraded, 1 not run yet</section>');
    for (const status of ['failing', 'degraded', 'unknown']) expect(html).toContain(`check--${status}`);
    expect(html).toMatch(/24h<\/span>—/);
    expect(html).toContain('<dd>Not run yet</dd>');
    expect(renderDashboardPage(view({ data: { checks: [], summary: { passing: 0, degraded: 0, failing: 0, unknown: 0 }, totalChecks: 0 } })))
      .toContain('No activated checks match this dashboard.');
  });

  it('links the pages and moves to the next one when the dashboard paginates', () => {
    const html = renderDashboardPage(view({ data: { page: 2, pages: 3, totalChecks: 40 }, reload: { seconds: 30, page: 3 } }));
    expect(html).toContain('<meta http-equiv="refresh" content="30;url=?page=3">');
    expect(html).toContain('<span>Page 2 of 3</span><a href="?page=1">1</a><a href="?page=2" aria-current="page">2</a><a href="?page=3">3</a>');
  });

  it('lists open incidents above the checks when there are some', () => {
    const html = renderDashboardPage(view({
      dashboard: { enableIncidents: true },
      data: { incidents: [{ name: 'Payments down', severity: 'CRITICAL', lastUpdateStatus: 'IDENTIFIED', latestUpdate: 'A fix is rolling out', latestUpdateAt: '2026-11-20T09:30:00.000Z', created_at: '2026-11-20T09:00:00.000Z' }] },
    }));
    expect(html.indexOf('Open incidents')).toBeLessThan(html.indexOf('<ul class="dashboard__checks">'));
    expect(html).toContain('<li class="incident incident--critical"><strong class="incident__name">Payments down</strong>');
    expect(html).toContain('A fix is rolling out (<time datetime="2026-11-20T09:30:00.000Z">');
    expect(renderDashboardPage(view())).not.toContain('Open incidents');
  });
});
