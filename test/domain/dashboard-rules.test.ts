import { describe, expect, it } from 'vitest';
import {
  CUSTOM_DOMAIN_PATTERN, CUSTOM_URL_PATTERN, UNPAGINATED_MAX_CHECKS, cssForStyleElement, dashboardIssues, dashboardPageWindow, dashboardReload,
  nextDashboardPage, normaliseHost,
} from '../../src/domain/dashboard-rules.js';

const fine = { customDomain: null, customCSS: null, isPrivate: false };

describe('the custom URL and custom domain patterns', () => {
  const url = new RegExp(CUSTOM_URL_PATTERN, 'u');
  const domain = new RegExp(CUSTOM_DOMAIN_PATTERN, 'u');

  it.each(['status', 'a', 'acme-prod-2', '0', 'x'.repeat(63)])('takes %s as a custom URL', (slug) => {
    expect(url.test(slug)).toBe(true);
  });

  it.each(['', 'Status', '-status', 'status-', 'sta tus', 'st_atus', 'x'.repeat(64), 'a/b', 'é'])('refuses %j as a custom URL', (slug) => {
    expect(url.test(slug)).toBe(false);
  });

  it.each(['status.example.com', 'Status.Example.COM', 'a.io', 'xn--bcher-kva.example', `${'a'.repeat(63)}.test`])('takes %s as a custom domain', (host) => {
    expect(domain.test(host)).toBe(true);
  });

  it.each([
    'localhost', 'example.com.', 'status.example.com:8080', 'https://status.example.com', '127.0.0.1', 'a..b', '-a.example', 'a-.example',
    'status.example.com/path', `${'a'.repeat(64)}.test`, `${'a.'.repeat(127)}test`, 'exa mple.com',
  ])('refuses %j as a custom domain', (host) => {
    expect(domain.test(host)).toBe(false);
  });
});

describe('dashboardIssues', () => {
  it('accepts a public dashboard with ordinary CSS and a domain of its own', () => {
    expect(dashboardIssues({ customDomain: 'status.example.com', customCSS: 'body { color: red } a::after { content: "<" }', isPrivate: false }, ['api.lookout.test'])).toEqual([]);
  });

  it('refuses a private dashboard, naming isPrivate and saying why', () => {
    expect(dashboardIssues({ ...fine, isPrivate: true })).toEqual([{ key: 'isPrivate', message: expect.stringContaining('not supported') }]);
  });

  it.each(['</style><script>alert(1)</script>', 'a{} </STYLE >', 'x</Style'])('refuses CSS that would close its <style> element: %j', (css) => {
    expect(dashboardIssues({ ...fine, customCSS: css }).map((i) => i.key)).toEqual(['customCSS']);
  });

  it('refuses the service\'s own host as custom domain, in any case and with a trailing dot', () => {
    expect(dashboardIssues({ ...fine, customDomain: 'API.Lookout.test' }, ['api.lookout.test.']).map((i) => i.key)).toEqual(['customDomain']);
  });

  it('names every bad field at once', () => {
    expect(dashboardIssues({ customDomain: 'me.test', customCSS: '</style>', isPrivate: true }, ['me.test']).map((i) => i.key))
      .toEqual(['isPrivate', 'customCSS', 'customDomain']);
  });
});

describe('normaliseHost and cssForStyleElement', () => {
  it('compares hosts in lower case without a trailing dot', () => {
    expect(normaliseHost(' Status.Example.COM. ')).toBe('status.example.com');
  });

  it('leaves no "</" in CSS, so nothing inside can end the element', () => {
    const css = cssForStyleElement('a::before { content: "</style><b>" } </STYLE');
    expect(css).not.toMatch(/<\//);
    expect(css).toBe('a::before { content: "<\\/style><b>" } <\\/STYLE');
    expect(cssForStyleElement('body { margin: 0 }')).toBe('body { margin: 0 }');
  });
});

describe('dashboardPageWindow', () => {
  it.each<[string, [number, boolean, number, number], ReturnType<typeof dashboardPageWindow>]>([
    ['the first page of 45 checks at 20 a page', [45, true, 20, 1], { page: 1, pages: 3, offset: 0, limit: 20 }],
    ['the last, short page', [45, true, 20, 3], { page: 3, pages: 3, offset: 40, limit: 20 }],
    ['a page past the last, as the last', [45, true, 20, 99], { page: 3, pages: 3, offset: 40, limit: 20 }],
    ['one empty page when nothing matches', [0, true, 15, 2], { page: 1, pages: 1, offset: 0, limit: 15 }],
    ['exactly full pages', [40, true, 20, 2], { page: 2, pages: 2, offset: 20, limit: 20 }],
    ['everything on one page without pagination, whatever page is asked', [45, false, 20, 3], { page: 1, pages: 1, offset: 0, limit: UNPAGINATED_MAX_CHECKS }],
  ])('gives %s', (_name, args, expected) => {
    expect(dashboardPageWindow(...args)).toEqual(expected);
  });
});

describe('how a page reloads', () => {
  it('moves on page by page and starts again after the last', () => {
    expect([1, 2, 3].map((p) => nextDashboardPage(p, 3))).toEqual([2, 3, 1]);
    expect(nextDashboardPage(1, 1)).toBe(1);
  });

  it('goes to the next page every paginationRate seconds when there are several pages, else reloads every refreshRate', () => {
    const rates = { refreshRate: 300, paginationRate: 30 };
    expect(dashboardReload(rates, dashboardPageWindow(45, true, 20, 3))).toEqual({ seconds: 30, page: 1 });
    expect(dashboardReload(rates, dashboardPageWindow(45, true, 20, 1))).toEqual({ seconds: 30, page: 2 });
    expect(dashboardReload(rates, dashboardPageWindow(5, true, 20, 1))).toEqual({ seconds: 300, page: 1 });
    expect(dashboardReload(rates, dashboardPageWindow(45, false, 20, 1))).toEqual({ seconds: 300, page: 1 });
  });
});
