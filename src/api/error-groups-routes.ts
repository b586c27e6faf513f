import Type from 'typebox';
import { createErrorGroupService } from '../service/error-group-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { PageQuery } from './schemas/common.js';
import { ErrorGroupIdParams, ErrorGroupPatchBody } from './schemas/error-group-schemas.js';
import { CheckIdParams } from './schemas/result-schemas.js';

const tags = ['Error groups'];
const PageOnly = Type.Object(PageQuery, { additionalProperties: false });

/** `/v1/error-groups`: errors of check runs grouped by cleaned message; listing and archiving. */
export function errorGroupsRoutes(app: Api, { store }: ApiContext): void {
  const errorGroups = createErrorGroupService({ store });

  app.get('/v1/error-groups', {
    schema: { tags, summary: 'List the error groups of every check, most recently seen first', querystring: PageOnly },
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await errorGroups.list(req.principal.accountId, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/error-groups/checks/:checkId', {
    schema: { tags, summary: 'List the error groups of a check, most recently seen first', params: CheckIdParams, querystring: PageOnly },
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await errorGroups.listForCheck(req.principal.accountId, req.params.checkId, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/error-groups/:id', {
    schema: { tags, summary: 'Get an error group', params: ErrorGroupIdParams },
  }, async (req) => errorGroups.get(req.principal.accountId, req.params.id));

  app.patch('/v1/error-groups/:id', {
    schema: {
      tags,
      summary: 'Archive or un-archive an error group',
      description: 'archivedUntilNextEvent: true hides the group until its error happens again; archiveForEver: true hides it for good. '
        + 'archivedUntilNextEvent: false un-archives it (unless archiveForEver: true is also sent); archiveForEver: false lifts only the permanent archive.',
      params: ErrorGroupIdParams,
      body: ErrorGroupPatchBody,
    },
  }, async (req) => errorGroups.patch(req.principal.accountId, req.params.id, req.body));
}
