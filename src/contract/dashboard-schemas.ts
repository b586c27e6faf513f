import Type from 'typebox';
import {
  CUSTOM_DOMAIN_PATTERN, CUSTOM_URL_PATTERN, DASHBOARD_LIMITS, DASHBOARD_WIDTHS, PAGINATION_RATES, REFRESH_RATES, WEB_URI_PATTERN,
} from '../domain/dashboard-rules.js';
import { Nullable, PageQuery } from './common.js';

/** Optional, and null means the same as absent (the default on create, left as stored on update). */
const opt = <T extends Type.TSchema>(schema: T) => Type.Optional(Nullable(schema));
/** An optional text field: "" removes it (reads back as null). */
const clearable = <T extends Type.TSchema>(schema: T) => opt(Type.Union([schema, Type.Literal('')]));
const oneOf = (values: readonly number[], description: string) => Type.Union(values.map((n) => Type.Literal(n)), { description });

const WebUri = (description: string) => Type.String({ format: 'uri', pattern: WEB_URI_PATTERN, maxLength: DASHBOARD_LIMITS.uri, description });

export const DashboardParams = Type.Object({ dashboardId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

/** `GET /v1/dashboards`: offset pagination. */
export const DashboardListQuery = Type.Object(PageQuery, { additionalProperties: false });

/**
 * Body of `POST /v1/dashboards` and `PUT /v1/dashboards/{dashboardId}` (the real API takes the same
 * body for both). Every field is optional; on create, absent or null takes the default, on update
 * it is left as stored ("" removes an optional text, `tags` sent replace).
 */
export const DashboardBody = Type.Object({
  customUrl: opt(Type.String({
    pattern: CUSTOM_URL_PATTERN, maxLength: DASHBOARD_LIMITS.customUrl,
    description: 'The page is at /dashboards/{customUrl}. Lower-case letters, digits and inner hyphens, 1–63; unique across all accounts '
      + '(a taken one answers 409). Absent on create: a random one',
  })),
  customDomain: clearable(Type.String({
    pattern: CUSTOM_DOMAIN_PATTERN, maxLength: DASHBOARD_LIMITS.customDomain,
    description: 'A host name (e.g. status.example.com) whose requests for `/` show this dashboard; point it here with a CNAME. '
      + 'Unique across all accounts regardless of case (a taken one answers 409)',
  })),
  logo: clearable(WebUri('An http(s) URL of the image shown in the header')),
  favicon: clearable(WebUri('An http(s) URL of the page\'s icon')),
  link: clearable(WebUri('An http(s) URL the logo links to')),
  description: clearable(Type.String({ maxLength: DASHBOARD_LIMITS.description, description: 'Text under the header' })),
  header: clearable(Type.String({ maxLength: DASHBOARD_LIMITS.header, description: 'The title at the top of the page' })),
  width: opt(Type.Enum([...DASHBOARD_WIDTHS], { description: 'FULL (default): the whole screen; 960PX: a centred column' })),
  refreshRate: opt(oneOf(REFRESH_RATES, 'Seconds between reloads of the page: 60 (default), 300 or 600')),
  paginate: opt(Type.Boolean({ description: 'Show checksPerPage checks a page, moving to the next page every paginationRate seconds (default true)' })),
  paginationRate: opt(oneOf(PAGINATION_RATES, 'Seconds each page shows: 30, 60 (default) or 300')),
  checksPerPage: opt(Type.Integer({
    minimum: DASHBOARD_LIMITS.checksPerPage.min, maximum: DASHBOARD_LIMITS.checksPerPage.max, description: 'Checks a page shows when paginating: 1–20 (default 15)',
  })),
  useTagsAndOperator: opt(Type.Boolean({ description: 'Show checks having every tag of `tags` (default false: any of them)' })),
  hideTags: opt(Type.Boolean({ description: 'Leave the checks\' tags off the page (default false)' })),
  enableIncidents: opt(Type.Boolean({
    description: 'Show the account\'s open status page incidents (not RESOLVED) above the checks (default false). '
      + 'The legacy dashboard incidents of `/v1/incidents` are not built',
  })),
  expandChecks: opt(Type.Boolean({ description: 'Show each check\'s details (last run, location, tags) opened (default false: folded)' })),
  showHeader: opt(Type.Boolean({ description: 'Show the logo, header and description (default true)' })),
  customCSS: clearable(Type.String({
    maxLength: DASHBOARD_LIMITS.customCSS,
    description: 'CSS placed in the page\'s <style> element after its own rules (≤ 10,000 characters; "</style" is refused)',
  })),
  isPrivate: opt(Type.Boolean({ description: 'Only false: private dashboards (viewer keys) are not built, so true answers 400 naming isPrivate' })),
  showP95: opt(Type.Boolean({ description: 'Show each check\'s 95th percentile response time over 24 hours (default true)' })),
  showP99: opt(Type.Boolean({ description: 'Show each check\'s 99th percentile response time over 24 hours (default true)' })),
  showCheckRunLinks: opt(Type.Boolean({
    description: 'Stored and echoed only (default false): Lookout has no public check run pages to link to, so the page is the same either way',
  })),
  tags: opt(Type.Array(Type.String({ minLength: 1, maxLength: DASHBOARD_LIMITS.tag, pattern: '\\S' }), {
    maxItems: DASHBOARD_LIMITS.tags,
    description: 'The checks shown: activated checks with any of these tags (all of them with useTagsAndOperator); none: every activated check',
  })),
}, { additionalProperties: false });

export type DashboardBodyInput = Type.Static<typeof DashboardBody>;

/** Query of the public pages: which page of checks (1-based; past the last: the last). */
export const DashboardPageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Page of checks (1-based) when the dashboard paginates; past the last: the last' })),
}, { additionalProperties: false });

/** `customUrl` of a public page: any text (an unknown one answers 404). */
export const DashboardPageParams = Type.Object({ customUrl: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });
