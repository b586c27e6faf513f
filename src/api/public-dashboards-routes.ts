import type { FastifyReply } from 'fastify';
import type { Api, ApiContext } from './api-context.js';
import { publicSecurityHeaders } from './public-security-headers.js';
import { renderDashboardPage } from './pages/dashboard-page.js';
import { DashboardPageParams, DashboardPageQuery } from '../contract/dashboard-schemas.js';
import { ref } from '../contract/response-shape.js';
import { nonJson, responses } from '../contract/route-responses.js';
import type { DashboardAddress } from '../service/dashboard-page-service.js';

const tags = ['Dashboards'];
const HTML = responses({ 200: nonJson('The dashboard page', ['text/html']) });
const PAGE = 'Server-rendered, no API key, no script: the checks the dashboard\'s tags select (activated ones, by name), each with its '
  + 'status, 24 h and 7 d availability and, when shown, 24 h p95/p99. It reloads itself every refreshRate seconds, or moves to the next '
  + 'page every paginationRate seconds when it paginates (`page`, 1-based). Pages are cached for up to 10 s; a dashboard write shows at once.';

/** `/dashboards/{customUrl}` and its data, and `/` when the request's Host is a dashboard's custom domain. */
export function publicDashboardsRoutes(app: Api, { dashboardPages: pages }: ApiContext): void {
  const sendHtml = async (reply: FastifyReply, address: DashboardAddress, requested: number) => {
    const dashboard = await pages.find(address);
    const html = await pages.cached(dashboard, `html|${requested}`, async () => renderDashboardPage(await pages.view(dashboard, requested)));
    // The page holds no script: none runs even if a value slipped past escaping.
    return publicSecurityHeaders(reply, 'html').type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
  };

  app.get('/dashboards/:customUrl', {
    schema: {
      operationId: 'getDashboardPage', tags, summary: 'A public dashboard page (no API key)', description: PAGE,
      params: DashboardPageParams, querystring: DashboardPageQuery, response: HTML,
    },
    config: { public: true },
  }, async (req, reply) => sendHtml(reply, { customUrl: req.params.customUrl }, req.query.page ?? 1));

  app.get('/dashboards/:customUrl/data.json', {
    schema: {
      operationId: 'getDashboardData', tags, summary: 'The data of a public dashboard page (no API key)',
      description: 'What the page at /dashboards/{customUrl} shows, for the same `page`, cached the same way.',
      params: DashboardPageParams, querystring: DashboardPageQuery, response: responses({ 200: ref('PublicDashboard') }),
    },
    config: { public: true },
  }, async (req, reply) => {
    const dashboard = await pages.find({ customUrl: req.params.customUrl });
    const requested = req.query.page ?? 1;
    const data = await pages.cached(dashboard, `json|${requested}`, async () => (await pages.view(dashboard, requested)).data);
    reply.header('Cache-Control', 'no-cache');
    return data;
  });

  app.get('/', {
    schema: {
      operationId: 'getCustomDomainDashboardPage', tags, summary: 'A dashboard page on its custom domain (no API key)',
      description: `Answers for a request whose Host header is a dashboard's customDomain (any case, port ignored). On any other host a browser (Accept: text/html) gets the web console, anything else a 404. ${PAGE}`,
      querystring: DashboardPageQuery, response: responses({ 200: nonJson('The dashboard page', ['text/html']) }, 404),
    },
    config: { public: true },
  }, async (req, reply) => sendHtml(reply, { host: req.hostname }, req.query.page ?? 1));
}
