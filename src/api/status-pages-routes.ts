import type { Api, ApiContext } from './api-context.js';
import { StatusPageBody, StatusPageParams } from '../contract/status-page-schemas.js';
import { StatusPageCursorQuery } from '../contract/status-page-incident-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const tags = ['Status pages'];
const CURSOR = 'Cursor pagination: `limit` (1–100, default 20) and the `nextId` of the previous page; `nextId` is null on the last page.';
const BODY = 'name, url and cards are required. '
  + '`url` is the page\'s slug (1–63 lower-case letters, digits and inner hyphens) and `customDomain` a host name (stored lower-cased): '
  + 'both unique across all accounts, a taken one answers 409 naming it. '
  + 'Card services must be services of this account, each once per card (else 400 naming `cards.N.services.M.id`). '
  + '`themeColors` {light, dark}: palettes of the 12 keys, each #RGB or #RRGGBB; lower-case hex is accepted too (the real API admits upper case only) and stored as sent. '
  + '`logo`, `logoDark`, `favicon` and `redirectTo` are http or https URLs. `description` ≤ 500. '
  + '`isPrivate: true` needs a `password` (8–256 characters) sent now or stored before, else 400 naming `password`; '
  + 'the password is write-only (stored as a salted scrypt hash, never read back).';
const PUT = 'The same body as create. Cards replace the stored ones: a card sent with its `id` is kept (id, created_at), '
  + 'one without is added, one left out goes. Other fields absent are left as stored; null clears description, customDomain, themeColors, logo, logoDark, favicon and redirectTo; '
  + 'themeColors sent in part merge key by key. A password different from the stored one ends every visitor session of the page.';

/** `/v1/status-pages`: status pages with their cards and theme. */
export function statusPagesRoutes(app: Api, { statusPages }: ApiContext): void {
  app.get('/v1/status-pages', {
    schema: {
      operationId: 'listStatusPages', tags, summary: 'List status pages', description: `Newest first, each with its cards. ${CURSOR}`,
      querystring: StatusPageCursorQuery, response: responses({ 200: ref('StatusPagePage') }),
    },
  }, async (req) => statusPages.list(req.principal.accountId, req.query.limit ?? 20, req.query.nextId));

  app.post('/v1/status-pages', {
    schema: {
      operationId: 'createStatusPage', tags, summary: 'Create a status page', description: BODY,
      body: StatusPageBody, response: responses({ 201: ref('StatusPage') }, 409),
    },
  }, async (req, reply) => reply.code(201).send(await statusPages.create(req.principal.accountId, req.body)));

  app.get('/v1/status-pages/:statusPageId', {
    schema: {
      operationId: 'getStatusPage', tags, summary: 'Get a status page', description: 'With its cards and their services; never its password.',
      params: StatusPageParams, response: responses({ 200: ref('StatusPage') }),
    },
  }, async (req) => statusPages.get(req.principal.accountId, req.params.statusPageId));

  app.put('/v1/status-pages/:statusPageId', {
    schema: {
      operationId: 'updateStatusPage', tags, summary: 'Update a status page', description: `${PUT} ${BODY}`,
      params: StatusPageParams, body: StatusPageBody, response: responses({ 200: ref('StatusPage') }, 409),
    },
  }, async (req) => statusPages.update(req.principal.accountId, req.params.statusPageId, req.body));

  app.delete('/v1/status-pages/:statusPageId', {
    schema: {
      operationId: 'deleteStatusPage', tags, summary: 'Delete a status page',
      description: 'Removes the page with its cards and subscribers; its services stay (other pages may show them).',
      params: StatusPageParams, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await statusPages.delete(req.principal.accountId, req.params.statusPageId);
    return reply.code(204).send();
  });
}
