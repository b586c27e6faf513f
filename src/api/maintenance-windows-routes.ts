import type { FastifyRequest } from 'fastify';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import {
  MaintenanceListQuery, MaintenanceParams, MaintenancePatch, MaintenanceUpdateCreate, MaintenanceUpdateListQuery, MaintenanceUpdateParams,
  MaintenanceUpdatePut, MaintenanceWindowCreate, MaintenanceWindowPut, WindowListQuery, WindowParams,
} from '../contract/maintenance-window-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';
import { validationError } from '../domain/lookout-error.js';
import { parseDateFilters } from '../domain/maintenance-date-filters.js';
import type { MaintenanceDateFilters } from '../service/maintenance-window-service.js';

const tags = ['Maintenance windows'];
const PAGE = 'Offset pagination: `page` (default 1) and `limit`; the body is the bare array and `Content-Range` carries the total.';
const FILTERS = 'Filters `startsAt[op]` and `endsAt[op]` with op gt, gte, lt or lte (an ISO 8601 date-time, or a date read as midnight UTC); '
  + 'all given must hold. An unknown operator or a bad date is a 400 naming e.g. `startsAt.gt`.';
const SCHEDULE = 'A window repeats every `repeatInterval` (1–365, default 1) DAY, WEEK or MONTH from startsAt until `repeatEndsAt` (an inclusive date in `timezone`), '
  + 'keeping its local time in the named IANA `timezone` across daylight-saving changes: a start in a spring-forward gap moves forward by the gap, '
  + 'an ambiguous fall-back time runs at the first instance, the 31st runs on the last day of shorter months. Each occurrence is a maintenance lasting endsAt − startsAt. '
  + 'Refused with 400 naming the field: a UTC offset as timezone, endsAt not after startsAt, repeatEndsAt before the start, more than 1,000 maintenances planned ahead.';
const PLAN = 'Maintenances are stored from now on (none that already ended), through repeatEndsAt, or 400 days ahead without one (extended daily).';
const LINKS = '`statusPageVisibility.statusPageIds` must be the account\'s status pages and `serviceIds` the account\'s services, each shown on one of those pages; '
  + '`affectAllServices` excludes serviceIds.';
const MOVES = 'Status moves: SCHEDULED → IN_PROGRESS → (VERIFYING) → COMPLETED | CANCELLED; VERIFYING → IN_PROGRESS; the same status again is a note; '
  + 'COMPLETED or CANCELLED → IN_PROGRESS reopens (an end already past moves to now plus the maintenance\'s length); CANCELLED → SCHEDULED while the start is ahead; '
  + 'SCHEDULED → COMPLETED once the start is due. Anything else (SCHEDULED after a start, VERIFYING before one, COMPLETED ↔ CANCELLED) is a 400 naming `status`.';

/** Date filters read before validation (so an unknown operator is named, not dropped), by request. */
const dateFilters = new WeakMap<FastifyRequest, MaintenanceDateFilters>();
async function readDateFilters(req: FastifyRequest): Promise<void> {
  const { filters, issues } = parseDateFilters(req.query, ['startsAt', 'endsAt'] as const);
  if (issues.length > 0) throw validationError(issues, 'query');
  dateFilters.set(req, filters);
}

/** `/v1/maintenance-windows`, their maintenances (occurrences) and the maintenances' updates. */
export function maintenanceWindowsRoutes(app: Api, { maintenanceWindows: mw }: ApiContext): void {
  app.get('/v1/maintenance-windows', {
    schema: {
      operationId: 'listMaintenanceWindows', tags, summary: 'List maintenance windows',
      description: `By id. ${PAGE} (limit 1–100, default 10). ${FILTERS} The filters apply to the window's own startsAt and endsAt (its first maintenance).`,
      querystring: WindowListQuery, response: responses({ 200: ref('MaintenanceWindowList') }),
    },
    preValidation: readDateFilters,
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await mw.windows.list(req.principal.accountId, page, limit, dateFilters.get(req) ?? {});
    return sendPage(reply, items, total, page, limit);
  });

  app.post('/v1/maintenance-windows', {
    schema: {
      operationId: 'createMaintenanceWindow', tags, summary: 'Create a maintenance window',
      description: `name (≤ 200), startsAt and endsAt are required; timezone absent or null is UTC. ${SCHEDULE} ${PLAN} ${LINKS}`,
      body: MaintenanceWindowCreate, response: responses({ 201: ref('MaintenanceWindow') }),
    },
  }, async (req, reply) => reply.code(201).send(await mw.windows.create(req.principal.accountId, req.body)));

  app.get('/v1/maintenance-windows/:id', {
    schema: {
      operationId: 'getMaintenanceWindow', tags, summary: 'Get a maintenance window',
      params: WindowParams, response: responses({ 200: ref('MaintenanceWindow') }),
    },
  }, async (req) => mw.windows.get(req.principal.accountId, req.params.id));

  app.put('/v1/maintenance-windows/:id', {
    schema: {
      operationId: 'updateMaintenanceWindow', tags, summary: 'Update a maintenance window',
      description: 'Only the fields sent change (statusPageVisibility key by key); null keeps, except repeatUnit, repeatInterval, repeatEndsAt, description '
        + 'and statusPageVisibility.severity, which null clears (repeatUnit null makes a one-off window). Changing only timezone keeps startsAt and endsAt as the same instants. '
        + `The update re-plans only SCHEDULED future maintenances whose dates were never set by hand. ${SCHEDULE} ${LINKS}`,
      params: WindowParams, body: MaintenanceWindowPut, response: responses({ 200: ref('MaintenanceWindow') }),
    },
  }, async (req) => mw.windows.update(req.principal.accountId, req.params.id, req.body ?? {}));

  app.delete('/v1/maintenance-windows/:id', {
    schema: {
      operationId: 'deleteMaintenanceWindow', tags, summary: 'Delete a maintenance window',
      description: 'Removes the window with its maintenances and their updates.',
      params: WindowParams, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await mw.windows.delete(req.principal.accountId, req.params.id);
    return reply.code(204).send();
  });

  app.get('/v1/maintenance-windows/:id/maintenances', {
    schema: {
      operationId: 'listMaintenances', tags, summary: 'List the maintenances of a window',
      description: `Its occurrences, by start. ${PAGE} (limit 1–50, default 10). ${FILTERS} ${PLAN}`,
      params: WindowParams, querystring: MaintenanceListQuery, response: responses({ 200: ref('MaintenanceList') }),
    },
    preValidation: readDateFilters,
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await mw.maintenances.list(req.principal.accountId, req.params.id, page, limit, dateFilters.get(req) ?? {});
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/maintenance-windows/:id/maintenances/:maintenanceId', {
    schema: {
      operationId: 'getMaintenance', tags, summary: 'Get a maintenance',
      params: MaintenanceParams, response: responses({ 200: ref('Maintenance') }),
    },
  }, async (req) => mw.maintenances.get(req.principal.accountId, req.params.id, req.params.maintenanceId));

  app.patch('/v1/maintenance-windows/:id/maintenances/:maintenanceId', {
    schema: {
      operationId: 'adjustMaintenance', tags, summary: 'Adjust the dates of one maintenance',
      description: 'startsAt and/or endsAt (endsAt must stay after startsAt); the status stays. The maintenance is then dateAdjusted: window updates no longer move it.',
      params: MaintenanceParams, body: MaintenancePatch, response: responses({ 200: ref('Maintenance') }),
    },
  }, async (req) => mw.maintenances.patch(req.principal.accountId, req.params.id, req.params.maintenanceId, req.body ?? {}));

  app.delete('/v1/maintenance-windows/:id/maintenances/:maintenanceId', {
    schema: {
      operationId: 'deleteMaintenance', tags, summary: 'Delete a maintenance',
      description: 'Removes this one occurrence with its updates; window updates never bring it back.',
      params: MaintenanceParams, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await mw.maintenances.delete(req.principal.accountId, req.params.id, req.params.maintenanceId);
    return reply.code(204).send();
  });

  app.get('/v1/maintenance-windows/:id/maintenances/:maintenanceId/updates', {
    schema: {
      operationId: 'listMaintenanceUpdates', tags, summary: 'List the updates of a maintenance',
      description: `Newest first, the automatic ones (auto start, auto end) included. ${PAGE} (limit 1–100, default 10).`,
      params: MaintenanceParams, querystring: MaintenanceUpdateListQuery, response: responses({ 200: ref('MaintenanceWindowUpdateList') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await mw.updates.list(req.principal.accountId, req.params.id, req.params.maintenanceId, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.post('/v1/maintenance-windows/:id/maintenances/:maintenanceId/updates', {
    schema: {
      operationId: 'createMaintenanceUpdate', tags, summary: 'Post a maintenance update',
      description: 'status and description (≤ 2000) are required; notifySubscribers defaults to false (recorded for delivery to status page subscribers). '
        + 'Optional startsAt and endsAt adjust the maintenance\'s dates; a start before the planned one moves startsAt to now, completing or cancelling early moves endsAt to now. '
        + `The update records previousStatus, previousStartsAt/EndsAt and dateAdjustments. ${MOVES}`,
      params: MaintenanceParams, body: MaintenanceUpdateCreate, response: responses({ 201: ref('MaintenanceWindowUpdate') }),
    },
  }, async (req, reply) => reply.code(201).send(await mw.updates.create(req.principal.accountId, req.params.id, req.params.maintenanceId, req.body)));

  app.get('/v1/maintenance-windows/:id/maintenances/:maintenanceId/updates/:updateId', {
    schema: {
      operationId: 'getMaintenanceUpdate', tags, summary: 'Get a maintenance update',
      params: MaintenanceUpdateParams, response: responses({ 200: ref('MaintenanceWindowUpdate') }),
    },
  }, async (req) => mw.updates.get(req.principal.accountId, req.params.id, req.params.maintenanceId, req.params.updateId));

  app.put('/v1/maintenance-windows/:id/maintenances/:maintenanceId/updates/:updateId', {
    schema: {
      operationId: 'updateMaintenanceUpdate', tags, summary: 'Edit a maintenance update',
      description: 'description is required; status absent or null keeps the stored one. Only the latest update may change its status (the maintenance takes it; '
        + 'the move from the status before the update must be allowed); an edit never moves dates and never notifies. '
        + 'Updates cannot be deleted: each records the status before it, so removing one would rewrite the history of those after it.',
      params: MaintenanceUpdateParams, body: MaintenanceUpdatePut, response: responses({ 200: ref('MaintenanceWindowUpdate') }),
    },
  }, async (req) => mw.updates.update(req.principal.accountId, req.params.id, req.params.maintenanceId, req.params.updateId, req.body));
}
