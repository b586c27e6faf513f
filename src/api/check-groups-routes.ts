import Type from 'typebox';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { CheckGroupCreate, CheckGroupUpdate } from '../contract/check-group-schemas.js';
import { AutoAssignQuery, PageQuery } from '../contract/common.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const GroupId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const IdParams = Type.Object({ id: GroupId });
const tags = ['Check groups'];
type AutoAssign = { autoAssignAlerts?: boolean };

/** `/v1|v2/check-groups`: CRUD and the group's checks with group settings applied. */
export function checkGroupsRoutes(app: Api, { groups, checks }: ApiContext): void {
  for (const v of ['v1', 'v2']) {
    // v2 is the current version; the v1 copies keep their own operationIds.
    const id = (name: string) => (v === 'v2' ? name : `${name}V1`);
    app.get(`/${v}/check-groups`, {
      schema: {
        operationId: id('listCheckGroups'), tags, summary: 'List check groups', description: 'Filter: ids (comma-separated or repeated), answered in the order given.', response: responses({ 200: ref('CheckGroupList') }),
        querystring: Type.Object({ ...PageQuery, ids: Type.Optional(Type.Array(GroupId, { maxItems: 100 })) }, { additionalProperties: false }),
      },
      preValidation: normaliseQueryArrays(['ids'], ['ids']),
    }, async (req, reply) => {
      const { page = 1, limit = 10, ids } = req.query;
      const { items, total } = await groups.list(req.principal.accountId, page, limit, ids);
      return sendPage(reply, items, total, page, limit);
    });
    app.get(`/${v}/check-groups/:id`, {
      schema: { operationId: id('getCheckGroup'), tags, summary: 'Get a check group', params: IdParams, response: responses({ 200: ref('CheckGroup') }) },
    }, async (req) =>
      groups.get(req.principal.accountId, req.params.id));
    app.delete(`/${v}/check-groups/:id`, {
      schema: {
        operationId: id('deleteCheckGroup'), tags, summary: 'Delete an empty check group', description: 'Answers 409 while the group still has checks.',
        params: IdParams, response: responses({ 204: NO_CONTENT }, 409),
      },
    }, async (req, reply) => {
      await groups.delete(req.principal.accountId, req.params.id);
      return reply.code(204).send();
    });
    app.post(`/${v}/check-groups`, {
      schema: {
        operationId: id('createCheckGroup'), tags, summary: 'Create a check group', querystring: AutoAssignQuery, body: CheckGroupCreate,
        response: responses({ 201: ref('CheckGroup') }),
      },
    }, async (req, reply) => reply.code(201).send(await groups.create(req.principal.accountId, req.body, req.query as AutoAssign)));
    app.put(`/${v}/check-groups/:id`, {
      schema: {
        operationId: id('updateCheckGroup'), tags, summary: 'Update a check group', params: IdParams, querystring: AutoAssignQuery, body: CheckGroupUpdate,
        response: responses({ 200: ref('CheckGroup') }),
      },
    }, async (req) => groups.update(req.principal.accountId, req.params.id, req.body));
    app.get(`/${v}/check-groups/:id/checks`, {
      schema: {
        operationId: id('listCheckGroupChecks'), tags, summary: 'Checks of a group, with group settings applied', response: responses({ 200: ref('CheckList') }),
        description: 'See README "Group settings" for which group fields override which check fields.',
        params: IdParams, querystring: Type.Object(PageQuery, { additionalProperties: false }),
      },
    }, async (req, reply) => {
      const { page = 1, limit = 10 } = req.query;
      const { items, total } = await checks.listInGroup(req.principal.accountId, req.params.id, page, limit);
      return sendPage(reply, items, total, page, limit);
    });
    app.get(`/${v}/check-groups/:groupId/checks/:checkId`, {
      schema: {
        operationId: id('getCheckGroupCheck'), tags, summary: 'One check of a group, with group settings applied',
        params: Type.Object({ groupId: GroupId, checkId: Type.String({ format: 'uuid' }) }), response: responses({ 200: ref('Check') }),
      },
    }, async (req) => checks.getInGroup(req.principal.accountId, req.params.groupId, req.params.checkId));
  }
}
