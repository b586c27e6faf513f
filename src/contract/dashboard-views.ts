import { DASHBOARD_WIDTHS, PAGINATION_RATES, REFRESH_RATES } from '../domain/dashboard-rules.js';
import { INCIDENT_STATUSES } from '../domain/incident-status-moves.js';
import { INCIDENT_SEVERITIES } from '../domain/service-state.js';
import { ref } from './response-shape.js';

const DateTime = { type: 'string', format: 'date-time' };
const NullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const NullableString = { type: ['string', 'null'] };
const NullablePercent = { type: ['number', 'null'], description: 'Percent of FINAL runs without failures (degraded runs pass); null without runs' };
const NullableMs = (description: string) => ({ type: ['number', 'null'], description: `${description}; null without runs or when not shown` });

/** A dashboard (`/v1/dashboards/{dashboardId}`): which checks a public page shows, and how. */
export const Dashboard = {
  $id: 'Dashboard',
  type: 'object',
  description: 'A public dashboard of checks, served at /dashboards/{customUrl} and on its customDomain',
  required: [
    'dashboardId', 'customUrl', 'customDomain', 'logo', 'favicon', 'link', 'description', 'header', 'width', 'refreshRate', 'paginate',
    'paginationRate', 'checksPerPage', 'useTagsAndOperator', 'hideTags', 'enableIncidents', 'expandChecks', 'showHeader', 'customCSS',
    'isPrivate', 'showP95', 'showP99', 'showCheckRunLinks', 'tags', 'created_at', 'updated_at',
  ],
  properties: {
    dashboardId: { type: 'string', format: 'uuid' },
    customUrl: { type: 'string' },
    customDomain: NullableString,
    logo: NullableString,
    favicon: NullableString,
    link: NullableString,
    description: NullableString,
    header: NullableString,
    width: { type: 'string', enum: [...DASHBOARD_WIDTHS] },
    refreshRate: { type: 'integer', enum: [...REFRESH_RATES] },
    paginate: { type: 'boolean' },
    paginationRate: { type: 'integer', enum: [...PAGINATION_RATES] },
    checksPerPage: { type: 'integer' },
    useTagsAndOperator: { type: 'boolean' },
    hideTags: { type: 'boolean' },
    enableIncidents: { type: 'boolean' },
    expandChecks: { type: 'boolean' },
    showHeader: { type: 'boolean' },
    customCSS: NullableString,
    isPrivate: { type: 'boolean' },
    showP95: { type: 'boolean' },
    showP99: { type: 'boolean' },
    showCheckRunLinks: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** One check as a public dashboard shows it. */
export const PublicDashboardCheck = {
  $id: 'PublicDashboardCheck',
  type: 'object',
  description: 'A check on a public dashboard: its latest status and its availability',
  required: ['name', 'checkType', 'status', 'tags', 'availability24h', 'availability7d', 'p95', 'p99', 'lastRunAt', 'lastRunLocation', 'lastResponseTime'],
  properties: {
    name: { type: 'string' },
    checkType: { type: 'string' },
    status: { type: 'string', enum: ['passing', 'degraded', 'failing', 'unknown'], description: 'From the latest run; unknown: it has not run yet' },
    tags: { type: 'array', items: { type: 'string' }, description: 'Empty when the dashboard hides tags' },
    availability24h: NullablePercent,
    availability7d: NullablePercent,
    p95: NullableMs('95th percentile response time over 24 hours, ms'),
    p99: NullableMs('99th percentile response time over 24 hours, ms'),
    lastRunAt: NullableDateTime,
    lastRunLocation: NullableString,
    lastResponseTime: { type: ['number', 'null'], description: 'Response time of the slowest location in the latest run, ms' },
  },
};

/** An open status page incident as a public dashboard shows it. */
export const PublicDashboardIncident = {
  $id: 'PublicDashboardIncident',
  type: 'object',
  description: 'An open status page incident of the dashboard\'s account (enableIncidents)',
  required: ['name', 'severity', 'lastUpdateStatus', 'latestUpdate', 'latestUpdateAt', 'created_at'],
  properties: {
    name: { type: 'string' },
    severity: { type: 'string', enum: [...INCIDENT_SEVERITIES] },
    lastUpdateStatus: { type: 'string', enum: [...INCIDENT_STATUSES] },
    latestUpdate: { ...NullableString, description: 'The description of its latest update by public date' },
    latestUpdateAt: NullableDateTime,
    created_at: DateTime,
  },
};

/** What a public dashboard page shows (`/dashboards/{customUrl}/data.json`). */
export const PublicDashboard = {
  $id: 'PublicDashboard',
  type: 'object',
  description: 'The data of a public dashboard page, as the page shows it',
  required: ['dashboard', 'checks', 'incidents', 'summary', 'page', 'pages', 'totalChecks', 'generatedAt'],
  properties: {
    dashboard: {
      type: 'object',
      required: [
        'customUrl', 'header', 'description', 'logo', 'favicon', 'link', 'width', 'refreshRate', 'paginate', 'paginationRate', 'checksPerPage',
        'hideTags', 'expandChecks', 'showHeader', 'showP95', 'showP99', 'enableIncidents',
      ],
      properties: {
        customUrl: { type: 'string' },
        header: NullableString,
        description: NullableString,
        logo: NullableString,
        favicon: NullableString,
        link: NullableString,
        width: { type: 'string', enum: [...DASHBOARD_WIDTHS] },
        refreshRate: { type: 'integer' },
        paginate: { type: 'boolean' },
        paginationRate: { type: 'integer' },
        checksPerPage: { type: 'integer' },
        hideTags: { type: 'boolean' },
        expandChecks: { type: 'boolean' },
        showHeader: { type: 'boolean' },
        showP95: { type: 'boolean' },
        showP99: { type: 'boolean' },
        enableIncidents: { type: 'boolean' },
      },
    },
    checks: { type: 'array', items: ref('PublicDashboardCheck'), description: 'The checks of this page, by name' },
    incidents: { type: 'array', items: ref('PublicDashboardIncident'), description: 'Open incidents, newest first; empty unless enableIncidents' },
    summary: {
      type: 'object',
      description: 'How many of all the dashboard\'s checks (every page) are in each status',
      required: ['passing', 'degraded', 'failing', 'unknown'],
      properties: { passing: { type: 'integer' }, degraded: { type: 'integer' }, failing: { type: 'integer' }, unknown: { type: 'integer' } },
    },
    page: { type: 'integer' },
    pages: { type: 'integer' },
    totalChecks: { type: 'integer', description: 'Checks the dashboard selects, on every page' },
    generatedAt: { ...DateTime, description: 'When this data was read from the store (pages are cached for a few seconds)' },
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const DASHBOARD_VIEW_SCHEMAS = [Dashboard, PublicDashboardCheck, PublicDashboardIncident, PublicDashboard];
