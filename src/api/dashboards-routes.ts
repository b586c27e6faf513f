import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { DashboardBody, DashboardListQuery, DashboardParams } from '../contract/dashboard-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const tags = ['Dashboards'];
const UNIQUE = '`customUrl` and `customDomain` are unique across all accounts: a taken one answers 409 naming it (`attributes.key`), nothing written.';
const PRIVATE = '`isPrivate: true` answers 400 naming isPrivate: private dashboards (viewer keys) are not built, every dashboard is public.';
const PAGE = 'The page is served without API key at /dashboards/{customUrl} (and /dashboards/{customUrl}/data.json), and at `/` of its customDomain.';

/** `/v1/dashboards`: public dashboards of checks. */
export function dashboardsRoutes(app: Api, { dashboards }: ApiContext): void {
  app.get('/v1/dashboards', {
    schema: {
      operationId: 'listDashboards', tags, summary: 'List dashboards', description: 'Oldest first; offset pagination, the total in Content-Range.',
      querystring: DashboardListQuery, response: responses({ 200: ref('DashboardList') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await dashboards.list(req.principal.accountId, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.post('/v1/dashboards', {
    schema: {
      operationId: 'createDashboard', tags, summary: 'Create a dashboard',
      description: `Every field is optional: absent or null takes its default (a random customUrl). ${UNIQUE} ${PRIVATE} ${PAGE}`,
      body: DashboardBody, response: responses({ 201: ref('Dashboard') }, 409),
    },
  }, async (req, reply) => reply.code(201).send(await dashboards.create(req.principal.accountId, req.body)));

  app.get('/v1/dashboards/:dashboardId', {
    schema: {
      operationId: 'getDashboard', tags, summary: 'Get a dashboard', params: DashboardParams, response: responses({ 200: ref('Dashboard') }),
    },
  }, async (req) => dashboards.get(req.principal.accountId, req.params.dashboardId));

  app.put('/v1/dashboards/:dashboardId', {
    schema: {
      operationId: 'updateDashboard', tags, summary: 'Update a dashboard',
      description: `Takes the body of create. A field absent or null is left as stored, "" removes an optional text, tags sent replace. ${UNIQUE} ${PRIVATE}`,
      params: DashboardParams, body: DashboardBody, response: responses({ 200: ref('Dashboard') }, 409),
    },
  }, async (req) => dashboards.update(req.principal.accountId, req.params.dashboardId, req.body ?? {}));

  app.delete('/v1/dashboards/:dashboardId', {
    schema: {
      operationId: 'deleteDashboard', tags, summary: 'Delete a dashboard', description: 'Its public page answers 404 from then on.',
      params: DashboardParams, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await dashboards.delete(req.principal.accountId, req.params.dashboardId);
    return reply.code(204).send();
  });
}
