import Type from 'typebox';
import { createSnippetService } from '../service/snippet-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { PageQuery } from '../contract/common.js';
import { SnippetCreate, SnippetId, SnippetUpdate } from '../contract/snippet-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const IdParams = Type.Object({ id: SnippetId });
const tags = ['Snippets'];

/** `/v1/snippets`: code shared by checks and groups as setup and teardown scripts. */
export function snippetsRoutes(app: Api, { store }: ApiContext): void {
  const snippets = createSnippetService({ store });

  app.get('/v1/snippets', {
    schema: {
      operationId: 'listSnippets',
      tags,
      summary: 'List snippets',
      response: responses({ 200: ref('SnippetList') }),
      description: 'Filter: ids (comma-separated or repeated snippet ids, at most 100) lists only those snippets, in the order given; ids of other accounts match nothing.',
      querystring: Type.Object({ ...PageQuery, ids: Type.Optional(Type.Array(SnippetId, { maxItems: 100 })) }, { additionalProperties: false }),
    },
    preValidation: normaliseQueryArrays(['ids'], ['ids']),
  }, async (req, reply) => {
    const { page = 1, limit = 10, ids } = req.query;
    const { items, total } = await snippets.list(req.principal.accountId, page, limit, ids);
    return sendPage(reply, items, total, page, limit);
  });

  app.post('/v1/snippets', {
    schema: { operationId: 'createSnippet', tags, summary: 'Create a snippet', body: SnippetCreate, response: responses({ 201: ref('Snippet') }) },
  }, async (req, reply) =>
    reply.code(201).send(await snippets.create(req.principal.accountId, req.body)));

  app.get('/v1/snippets/:id', {
    schema: { operationId: 'getSnippet', tags, summary: 'Get a snippet', params: IdParams, response: responses({ 200: ref('Snippet') }) },
  }, async (req) =>
    snippets.get(req.principal.accountId, req.params.id));

  app.put('/v1/snippets/:id', {
    schema: {
      operationId: 'updateSnippet', tags, summary: 'Update a snippet (fields given replace the stored ones)', params: IdParams, body: SnippetUpdate,
      response: responses({ 200: ref('Snippet') }),
    },
  }, async (req) =>
    snippets.update(req.principal.accountId, req.params.id, req.body));

  app.delete('/v1/snippets/:id', {
    schema: {
      operationId: 'deleteSnippet', tags, summary: 'Delete a snippet', description: 'Answers 409 while a check or group uses it as setup or teardown script.',
      params: IdParams, response: responses({ 204: NO_CONTENT }, 409),
    },
  }, async (req, reply) => {
    await snippets.delete(req.principal.accountId, req.params.id);
    return reply.code(204).send();
  });
}
