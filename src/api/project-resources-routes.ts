import { ProjectParams } from '../contract/project-schemas.js';
import { MAX_LOOKUP_IDS, ProjectListQuery, ProjectResourceLookupQuery, ProjectResourcesQuery } from '../contract/project-resource-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';
import { createProjectResourceService } from '../service/project-resource-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { normaliseQueryArrays } from './query-arrays.js';

const tags = ['Projects'];

/** Projects as a graph: the paged list, one project, its resources, and which project owns a resource. */
export function projectResourcesRoutes(app: Api, { store }: ApiContext): void {
  const projects = createProjectResourceService({ store });

  app.get('/v1/projects', {
    schema: {
      operationId: 'listProjectsPaged', tags, summary: 'List projects (paginated)',
      description: 'Oldest first; offset pagination, the total in Content-Range. `GET /next/projects` answers them all at once, as the checkly CLI expects.',
      querystring: ProjectListQuery, response: responses({ 200: ref('ProjectPage') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await projects.list(req.principal.accountId, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/projects/:logicalId', {
    schema: {
      operationId: 'getProjectByLogicalId', tags, summary: 'Get a project', description: 'By the logical id its code gives it; another account\'s project answers 404.',
      params: ProjectParams, response: responses({ 200: ref('Project') }),
    },
  }, async (req) => projects.get(req.principal.accountId, req.params.logicalId));

  app.get('/v1/projects/:logicalId/resources', {
    schema: {
      operationId: 'listProjectResources', tags, summary: 'List the resources of a project',
      description: 'Every resource the project manages (`type=` keeps one type), by type then logical id, unpaginated: '
        + '`{type, logicalId, physicalId}`, physicalId being the id in the resource\'s own API (null for links such as subscriptions).',
      params: ProjectParams, querystring: ProjectResourcesQuery, response: responses({ 200: ref('ProjectResourceList') }),
    },
  }, async (req) => projects.resources(req.principal.accountId, req.params.logicalId, req.query.type));

  app.get('/v1/project-resources', {
    schema: {
      operationId: 'lookupProjectResources', tags, summary: 'Which projects own these resources',
      description: `For each physicalId (repeated or comma-separated, 1 to ${MAX_LOOKUP_IDS}) of the given type that a project of the account `
        + 'manages: its logical id and its project, in the order given, each once. Ids no project manages (or of another account) are left out.',
      querystring: ProjectResourceLookupQuery, response: responses({ 200: ref('ProjectResourceOwnerList') }),
    },
    preValidation: normaliseQueryArrays(['physicalId'], ['physicalId']),
  }, async (req) => projects.owners(req.principal.accountId, req.query.type, req.query.physicalId));
}
