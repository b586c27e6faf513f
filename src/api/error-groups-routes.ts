import Type from 'typebox';
import { createErrorGroupService } from '../service/error-group-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { PageQuery } from '../contract/common.js';
import { ErrorGroupIdParams, ErrorGroupPatchBody } from '../contract/error-group-schemas.js';
import { CheckIdParams } from '../contract/result-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Error groups'];
const Archived = Type.Optional(Type.Boolean({ description: 'true: archived groups only (either way); false: open groups only' }));
const CheckGroupsQuery = Type.Object({ ...PageQuery, archived: Archived }, { additionalProperties: false });
const ListQuery = Type.Object(
  {
    ...PageQuery,
    archived: Archived,
    checkIds: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1, maxItems: 100, description: 'Only the groups of these checks (comma-separated or repeated)',
    })),
    ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1, maxItems: 100, description: 'Only these groups (comma-separated or repeated), for batch reads',
    })),
    perCheck: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'At most this many groups of each check, the most recently seen (needs checkIds)' })),
  },
  { additionalProperties: false },
);

/** `/v1/error-groups`: errors of check runs grouped by cleaned message; listing and archiving. */
export function errorGroupsRoutes(app: Api, { store }: ApiContext): void {
  const errorGroups = createErrorGroupService({ store });

  app.get('/v1/error-groups', {
    schema: {
      operationId: 'listErrorGroups',
      tags,
      summary: 'List the error groups of every check, most recently seen first',
      response: responses({ 200: ref('ErrorGroupList') }),
      description: 'Filters for batch reads: ids (answered in the order given), checkIds, archived, and perCheck (the most recently seen groups of each check, with checkIds). '
        + 'Content-Range counts the groups matching all of them.',
      querystring: ListQuery,
    },
    preValidation: normaliseQueryArrays(['checkIds', 'ids'], ['checkIds', 'ids']),
  }, async (req, reply) => {
    const { page = 1, limit = 10, checkIds, ids, archived, perCheck } = req.query;
    const { items, total } = await errorGroups.list(req.principal.accountId, page, limit, { checkIds, ids, archived, perCheck });
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/error-groups/checks/:checkId', {
    schema: {
      operationId: 'listErrorGroupsOfCheck', tags, summary: 'List the error groups of a check, most recently seen first', params: CheckIdParams,
      querystring: CheckGroupsQuery, response: responses({ 200: ref('ErrorGroupList') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10, archived } = req.query;
    const { items, total } = await errorGroups.listForCheck(req.principal.accountId, req.params.checkId, page, limit, { archived });
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/error-groups/:id', {
    schema: { operationId: 'getErrorGroup', tags, summary: 'Get an error group', params: ErrorGroupIdParams, response: responses({ 200: ref('ErrorGroup') }) },
  }, async (req) => errorGroups.get(req.principal.accountId, req.params.id));

  app.patch('/v1/error-groups/:id', {
    schema: {
      operationId: 'updateErrorGroup',
      tags,
      summary: 'Archive or un-archive an error group',
      response: responses({ 200: ref('ErrorGroup') }),
      description: 'archivedUntilNextEvent: true hides the group until its error happens again; archiveForEver: true hides it for good. '
        + 'archivedUntilNextEvent: false un-archives it (unless archiveForEver: true is also sent); archiveForEver: false lifts only the permanent archive.',
      params: ErrorGroupIdParams,
      body: ErrorGroupPatchBody,
    },
  }, async (req) => errorGroups.patch(req.principal.accountId, req.params.id, req.body));
}
