import Type from 'typebox';
import { TYPED_ROUTE_SEGMENTS, type CheckType } from '../domain/catalog.js';
import type { CheckFilter } from '../store/checks-repository.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { normaliseQueryArrays, sparseFields } from './query-arrays.js';
import { AutoAssignQuery } from '../contract/common.js';
import { CHECK_CREATE_SCHEMAS, CHECK_UPDATE_SCHEMAS, CheckFieldsParam, CheckListQuery, GenericCheckBody } from '../contract/check-schemas.js';
import { CHECK_FIELD_NAMES } from '../contract/check-views.js';
import { SLUG_PATTERN } from '../contract/private-location-schemas.js';
import { LookoutError } from '../domain/lookout-error.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const FIELDS_DESCRIPTION = ' fields (comma-separated or repeated) keeps only the named top-level fields of each check, and id; '
  + 'a name that is no field of a check is a 400. Fields not asked for are not read: leaving out alertChannels spares the join '
  + 'of each subscription\'s channel, leaving out request, script and the like spares the bulk of a check.';
const tags = ['Checks'];
/** `multistep` → `MultiStep`: the resource part of a typed route's operationId. */
const OPERATION_NAMES: Record<string, string> = {
  api: 'Api', browser: 'Browser', multistep: 'MultiStep', heartbeat: 'Heartbeat', tcp: 'Tcp', url: 'Url', dns: 'Dns', icmp: 'Icmp',
  ssl: 'Ssl', traceroute: 'Traceroute',
  grpc: 'Grpc',
};

/** `/v1/checks`: typed and generic create/update, list with filters, get and delete. */
export function checksRoutes(app: Api, { checks }: ApiContext): void {
  for (const [segment, type] of Object.entries(TYPED_ROUTE_SEGMENTS) as [string, CheckType][]) {
    app.post(`/v1/checks/${segment}`, {
      schema: {
        operationId: `create${OPERATION_NAMES[segment]}Check`, tags, summary: `Create a ${type} check`, querystring: AutoAssignQuery, body: CHECK_CREATE_SCHEMAS[type],
        response: responses({ 201: ref('Check') }),
      },
    }, async (req, reply) => {
      const created = await checks.create(req.principal.accountId, type, req.body, req.query as { autoAssignAlerts?: boolean });
      return reply.code(201).send(created);
    });
    app.put(`/v1/checks/${segment}/:id`, {
      schema: {
        operationId: `update${OPERATION_NAMES[segment]}Check`, tags, summary: `Update a ${type} check`, params: IdParams, querystring: AutoAssignQuery,
        body: CHECK_UPDATE_SCHEMAS[type], response: responses({ 200: ref('Check') }),
      },
    }, async (req) => checks.update(req.principal.accountId, req.params.id, type, req.body, req.query as { autoAssignAlerts?: boolean }));
  }

  app.post('/v1/checks', {
    schema: {
      operationId: 'createCheck', tags, summary: 'Create a check of any type (type from checkType)', querystring: AutoAssignQuery, body: GenericCheckBody,
      response: responses({ 201: ref('Check') }),
    },
  }, async (req, reply) => {
    const type = req.body.checkType;
    if (!type) {
      throw new LookoutError('VALIDATION', '"checkType" is required', { issues: [{ key: 'checkType', message: 'is required' }], source: 'payload' });
    }
    const { checkType: _t, ...rest } = req.body as Record<string, unknown>;
    const created = await checks.create(req.principal.accountId, type, rest, req.query as { autoAssignAlerts?: boolean });
    return reply.code(201).send(created);
  });

  app.put('/v1/checks/:id', {
    schema: {
      operationId: 'updateCheck', tags, summary: 'Update a check of any type', params: IdParams, querystring: AutoAssignQuery, body: GenericCheckBody,
      response: responses({ 200: ref('Check') }),
    },
  }, async (req) => checks.update(req.principal.accountId, req.params.id, undefined, req.body, req.query as { autoAssignAlerts?: boolean }));

  app.get('/v1/checks', {
    schema: {
      operationId: 'listChecks',
      tags,
      summary: 'List checks',
      description: 'Filters: tag (repeatable; a check must carry every tag given), checkType, groupId, activated, ids (comma-separated; answered in the order given), '
        + 'search (name contains), status (passing|failing|degraded), privateLocation (a slug the check itself names in privateLocations; '
        + 'a group\'s private locations are not looked at).' + FIELDS_DESCRIPTION,
      querystring: Type.Object({
        ...CheckListQuery.properties,
        fields: Type.Optional(CheckFieldsParam),
        search: Type.Optional(Type.String({ maxLength: 256 })),
        status: Type.Optional(Type.Enum(['passing', 'failing', 'degraded'])),
        privateLocation: Type.Optional(Type.String({ pattern: SLUG_PATTERN })),
      }, { additionalProperties: false }),
      response: responses({ 200: ref('CheckFieldsList') }),
    },
    preValidation: normaliseQueryArrays(['tag', 'ids', 'fields'], ['ids', 'fields']),
  }, async (req, reply) => {
    const q = req.query;
    const filter: CheckFilter = {
      ids: q.ids, tags: q.tag, checkType: q.checkType, groupId: q.groupId, activated: q.activated,
      search: q.search, status: q.status as CheckFilter['status'], urlPattern: q.apiCheckUrlFilterPattern,
      privateLocation: q.privateLocation,
    };
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const fields = sparseFields(q.fields, CHECK_FIELD_NAMES);
    const { items, total } = await checks.list(req.principal.accountId, filter, page, limit, fields);
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/checks/:id', {
    schema: {
      operationId: 'getCheck', tags, summary: 'Get a check', description: FIELDS_DESCRIPTION.trim(), params: IdParams,
      querystring: Type.Object({ fields: Type.Optional(CheckFieldsParam) }, { additionalProperties: false }),
      response: responses({ 200: ref('CheckFields') }),
    },
    preValidation: normaliseQueryArrays(['fields'], ['fields']),
  }, async (req) => checks.get(req.principal.accountId, req.params.id, sparseFields(req.query.fields, CHECK_FIELD_NAMES)));

  app.delete('/v1/checks/:id', {
    schema: { operationId: 'deleteCheck', tags, summary: 'Delete a check', params: IdParams, response: responses({ 204: NO_CONTENT }) },
  }, async (req, reply) => {
    await checks.delete(req.principal.accountId, req.params.id);
    return reply.code(204).send();
  });
}
