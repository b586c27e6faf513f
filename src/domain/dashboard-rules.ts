import type { Issue } from './lookout-error.js';

/** `width`: the whole screen, or a 960-pixel column in the middle. */
export const DASHBOARD_WIDTHS = ['FULL', '960PX'] as const;
/** `refreshRate`: seconds between reloads of the page. */
export const REFRESH_RATES = [60, 300, 600] as const;
/** `paginationRate`: seconds a page of checks stays before the next one shows. */
export const PAGINATION_RATES = [30, 60, 300] as const;

/** Bounds of a dashboard's fields (the real API's where it names one; ours otherwise). */
export const DASHBOARD_LIMITS = {
  description: 500,
  header: 255,
  customCSS: 10_000,
  tags: 50,
  tag: 256,
  uri: 2048,
  checksPerPage: { min: 1, max: 20 },
  customUrl: 63,
  customDomain: 253,
} as const;

/** A DNS-label-like slug: lower-case letters, digits and inner hyphens, 1–63 characters. */
export const CUSTOM_URL_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$';

/**
 * A host name of two labels or more (letters, digits, inner hyphens; the last label starts with a
 * letter, so an IP address is not one), without port, path or trailing dot. Case is free: host
 * names are case-insensitive.
 */
export const CUSTOM_DOMAIN_PATTERN = '^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$';

/** An absolute http or https URI (logo, favicon, link). */
export const WEB_URI_PATTERN = '^https?://[^\\s/?#]+';

/** What the write rules look at, once the body is merged over the stored dashboard and filled with defaults. */
export interface DashboardWriteFacts {
  customDomain: string | null;
  customCSS: string | null;
  isPrivate: boolean;
}

/** The end tag that would close the page's <style> element early, in any case. */
const STYLE_END = /<\/style/i;

/**
 * Issues of a dashboard about to be written, beyond what the schema checks: a private dashboard
 * cannot be served (no viewer keys are built), custom CSS must not close its <style> element, and a
 * custom domain must not be a host this service answers on already (`ownHosts`).
 */
export function dashboardIssues(d: DashboardWriteFacts, ownHosts: readonly string[] = []): Issue[] {
  const issues: Issue[] = [];
  if (d.isPrivate) {
    issues.push({ key: 'isPrivate', message: 'must be false: private dashboards (viewer keys or passwords) are not supported, every dashboard is public' });
  }
  if (d.customCSS && STYLE_END.test(d.customCSS)) {
    issues.push({ key: 'customCSS', message: 'must not contain "</style": the CSS is placed inside the page\'s <style> element' });
  }
  if (d.customDomain && ownHosts.map(normaliseHost).includes(normaliseHost(d.customDomain))) {
    issues.push({ key: 'customDomain', message: 'must not be the host this service itself answers on' });
  }
  return issues;
}

/** A host name as requests and stored custom domains are compared: lower case, without a trailing dot. */
export function normaliseHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * CSS made safe to place between <style> and </style>: the only thing that can end that element
 * early is `</style`, so every `</` becomes `<\/`, which CSS reads as the same two characters.
 * Writes refuse `</style` already; this keeps a page sound whatever the store holds.
 */
export function cssForStyleElement(css: string): string {
  return css.replace(/<\//g, '<\\/');
}

/** Which checks a page of a dashboard shows. */
export interface DashboardPageWindow {
  /** 1-based; a page past the last is the last one. */
  page: number;
  pages: number;
  offset: number;
  limit: number;
}

/**
 * Checks a dashboard without pagination shows at most: every check's availability is computed
 * for each render, so the work of one page stays bounded however many checks match.
 */
export const UNPAGINATED_MAX_CHECKS = 500;

/**
 * The window of checks `requested` (a 1-based page) shows: `perPage` checks a page when `paginate`,
 * else the first UNPAGINATED_MAX_CHECKS on one page. A page past the last shows the last one.
 */
export function dashboardPageWindow(total: number, paginate: boolean, perPage: number, requested: number): DashboardPageWindow {
  if (!paginate) return { page: 1, pages: 1, offset: 0, limit: UNPAGINATED_MAX_CHECKS };
  const pages = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(Math.max(1, Math.floor(requested)), pages);
  return { page, pages, offset: (page - 1) * perPage, limit: perPage };
}

/** The page a rotating dashboard shows next: the one after, and the first after the last. */
export function nextDashboardPage(page: number, pages: number): number {
  return page >= pages ? 1 : page + 1;
}

/**
 * How the page reloads itself: with more than one page it moves to the next page every
 * `paginationRate` seconds (which also reloads the data); otherwise it reloads every `refreshRate`.
 */
export function dashboardReload(d: { refreshRate: number; paginationRate: number }, window: DashboardPageWindow): { seconds: number; page: number } {
  if (window.pages > 1) return { seconds: d.paginationRate, page: nextDashboardPage(window.page, window.pages) };
  return { seconds: d.refreshRate, page: window.page };
}
