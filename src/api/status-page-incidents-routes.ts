import type { Api, ApiContext } from './api-context.js';
import {
  IncidentCreate, IncidentParams, IncidentPut, IncidentUpdateCreate, IncidentUpdateParams, IncidentUpdatePut,
  ServiceBody, ServiceParams, StatusPageCursorQuery,
} from '../contract/status-page-incident-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const serviceTags = ['Status page services'];
const incidentTags = ['Status page incidents'];
const CURSOR = 'Cursor pagination: `limit` (1–100, default 20) and the `nextId` of the previous page; `nextId` is null on the last page.';
const SERVICES_400 = 'Every service must be one of the account\'s, listed once: else 400 naming `services.N.id`, nothing written.';
const PROGRESS = '`lastUpdateStatus` and `duration` are computed from all the incident\'s updates (a sent value is ignored): '
  + 'duration runs from the first update to the RESOLVED update that closed it, a re-opening and a new RESOLVED extend it, a further RESOLVED does not.';
const NOTIFY = '`notifySubscribers` (default false): when true on an update as first posted (never on an edit), every verified subscriber '
  + 'of every page showing an affected service gets it once (email or signed webhook, retried; see /v1/status-pages/subscriber-deliveries).';
const STATUS = '`status` is INVESTIGATING, IDENTIFIED, MONITORING or RESOLVED, any move allowed (re-opening too); absent or null keeps the status before it.';

/** `/v1/status-pages/services` and `/v1/status-pages/incidents` with their updates. */
export function statusPageIncidentsRoutes(app: Api, { statusPageIncidents: spi }: ApiContext): void {
  app.get('/v1/status-pages/services', {
    schema: {
      operationId: 'listStatusPageServices', tags: serviceTags, summary: 'List status page services', description: `Newest first. ${CURSOR}`,
      querystring: StatusPageCursorQuery, response: responses({ 200: ref('StatusPageServicePage') }),
    },
  }, async (req) => spi.services.list(req.principal.accountId, req.query.limit ?? 20, req.query.nextId));

  app.post('/v1/status-pages/services', {
    schema: {
      operationId: 'createStatusPageService', tags: serviceTags, summary: 'Create a status page service',
      description: 'A service is shared by every status page that shows it. Answers 201 (conventions.md), where the real API answers 200.',
      body: ServiceBody, response: responses({ 201: ref('StatusPageService') }),
    },
  }, async (req, reply) => reply.code(201).send(await spi.services.create(req.principal.accountId, req.body)));

  app.get('/v1/status-pages/services/:serviceId', {
    schema: {
      operationId: 'getStatusPageService', tags: serviceTags, summary: 'Get a status page service',
      params: ServiceParams, response: responses({ 200: ref('StatusPageService') }),
    },
  }, async (req) => spi.services.get(req.principal.accountId, req.params.serviceId));

  app.put('/v1/status-pages/services/:serviceId', {
    schema: {
      operationId: 'updateStatusPageService', tags: serviceTags, summary: 'Update a status page service (name, checks, automatic incidents)',
      params: ServiceParams, body: ServiceBody, response: responses({ 200: ref('StatusPageService') }),
    },
  }, async (req) => spi.services.update(req.principal.accountId, req.params.serviceId, req.body));

  app.delete('/v1/status-pages/services/:serviceId', {
    schema: {
      operationId: 'deleteStatusPageService', tags: serviceTags, summary: 'Delete a status page service',
      description: 'Refused with 409 while any incident lists the service (an incident keeps at least one service; `attributes.incidentIds`) '
        + 'or a status page card shows it (`attributes.statusPageIds`): remove it from those first. Maintenance windows simply lose it.',
      params: ServiceParams, response: responses({ 204: NO_CONTENT }, 409),
    },
  }, async (req, reply) => {
    await spi.services.delete(req.principal.accountId, req.params.serviceId);
    return reply.code(204).send();
  });

  app.get('/v1/status-pages/incidents', {
    schema: {
      operationId: 'listStatusPageIncidents', tags: incidentTags, summary: 'List status page incidents',
      description: `Newest first, each with its services and 100 latest updates. ${CURSOR}`,
      querystring: StatusPageCursorQuery, response: responses({ 200: ref('StatusPageIncidentPage') }),
    },
  }, async (req) => spi.incidents.list(req.principal.accountId, req.query.limit ?? 20, req.query.nextId));

  app.post('/v1/status-pages/incidents', {
    schema: {
      operationId: 'createStatusPageIncident', tags: incidentTags, summary: 'Create a status page incident',
      description: `name (≤ 255), severity, services (≥ 1) and incidentUpdates (may be empty) are required. ${SERVICES_400} ${STATUS} ${PROGRESS} ${NOTIFY}`,
      body: IncidentCreate, response: responses({ 201: ref('StatusPageIncident') }),
    },
  }, async (req, reply) => reply.code(201).send(await spi.incidents.create(req.principal.accountId, req.body)));

  app.get('/v1/status-pages/incidents/:incidentId', {
    schema: {
      operationId: 'getStatusPageIncident', tags: incidentTags, summary: 'Get a status page incident',
      params: IncidentParams, response: responses({ 200: ref('StatusPageIncident') }),
    },
  }, async (req) => spi.incidents.get(req.principal.accountId, req.params.incidentId));

  app.put('/v1/status-pages/incidents/:incidentId', {
    schema: {
      operationId: 'updateStatusPageIncident', tags: incidentTags, summary: 'Update a status page incident',
      description: `A field absent or null is left as stored; services sent replace the stored ones. Updates have their own routes. ${SERVICES_400}`,
      params: IncidentParams, body: IncidentPut, response: responses({ 200: ref('StatusPageIncident') }),
    },
  }, async (req) => spi.incidents.update(req.principal.accountId, req.params.incidentId, req.body ?? {}));

  app.delete('/v1/status-pages/incidents/:incidentId', {
    schema: {
      operationId: 'deleteStatusPageIncident', tags: incidentTags, summary: 'Delete a status page incident',
      description: 'Removes the incident and all its updates, for good.',
      params: IncidentParams, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await spi.incidents.delete(req.principal.accountId, req.params.incidentId);
    return reply.code(204).send();
  });

  app.get('/v1/status-pages/incidents/:incidentId/incident-updates', {
    schema: {
      operationId: 'listStatusPageIncidentUpdates', tags: incidentTags, summary: 'List the updates of an incident',
      description: 'The 100 latest updates, newest first by publicIncidentUpdateDate (unpaginated).',
      params: IncidentParams, response: responses({ 200: ref('StatusPageIncidentUpdateList') }),
    },
  }, async (req) => spi.updates.list(req.principal.accountId, req.params.incidentId));

  app.post('/v1/status-pages/incidents/:incidentId/incident-updates', {
    schema: {
      operationId: 'createStatusPageIncidentUpdate', tags: incidentTags, summary: 'Post an incident update',
      description: `description is required; publicIncidentUpdateDate defaults to now. ${STATUS} ${PROGRESS} ${NOTIFY} Answers 201 (conventions.md), where the real API answers 200.`,
      params: IncidentParams, body: IncidentUpdateCreate, response: responses({ 201: ref('StatusPageIncidentUpdate') }),
    },
  }, async (req, reply) => reply.code(201).send(await spi.updates.create(req.principal.accountId, req.params.incidentId, req.body)));

  app.get('/v1/status-pages/incidents/:incidentId/incident-updates/:incidentUpdateId', {
    schema: {
      operationId: 'getStatusPageIncidentUpdate', tags: incidentTags, summary: 'Get an incident update',
      params: IncidentUpdateParams, response: responses({ 200: ref('StatusPageIncidentUpdate') }),
    },
  }, async (req) => spi.updates.get(req.principal.accountId, req.params.incidentId, req.params.incidentUpdateId));

  app.put('/v1/status-pages/incidents/:incidentId/incident-updates/:incidentUpdateId', {
    schema: {
      operationId: 'updateStatusPageIncidentUpdate', tags: incidentTags, summary: 'Edit an incident update',
      description: `A field absent or null is left as stored; edit publicIncidentUpdateDate to backfill. ${STATUS} ${PROGRESS} ${NOTIFY}`,
      params: IncidentUpdateParams, body: IncidentUpdatePut, response: responses({ 200: ref('StatusPageIncidentUpdate') }),
    },
  }, async (req) => spi.updates.update(req.principal.accountId, req.params.incidentId, req.params.incidentUpdateId, req.body ?? {}));

  app.delete('/v1/status-pages/incidents/:incidentId/incident-updates/:incidentUpdateId', {
    schema: {
      operationId: 'deleteStatusPageIncidentUpdate', tags: incidentTags, summary: 'Delete an incident update',
      description: `The incident's lastUpdateStatus and duration are computed again from the updates left.`,
      params: IncidentUpdateParams, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await spi.updates.delete(req.principal.accountId, req.params.incidentId, req.params.incidentUpdateId);
    return reply.code(204).send();
  });
}
