import Type from 'typebox';
import { createVariableService } from '../service/variable-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { PageQuery } from '../contract/common.js';
import { VariableCreate, VariableKey, VariableUpdate } from '../contract/variable-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const KeyParams = Type.Object({ key: VariableKey });
const tags = ['Environment variables'];

/** `/v1/variables`: account-level environment variables, addressed by key. */
export function variablesRoutes(app: Api, { store }: ApiContext): void {
  const variables = createVariableService({ store });

  app.get('/v1/variables', {
    schema: {
      operationId: 'listVariables', tags, summary: 'List environment variables (secret values read back as null)',
      querystring: Type.Object(PageQuery, { additionalProperties: false }), response: responses({ 200: ref('VariableList') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await variables.list(req.principal.accountId, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.post('/v1/variables', {
    schema: {
      operationId: 'createVariable', tags, summary: 'Create an environment variable', description: 'Answers 409 when the key exists already.',
      body: VariableCreate, response: responses({ 201: ref('Variable') }, 409),
    },
  }, async (req, reply) =>
    reply.code(201).send(await variables.create(req.principal.accountId, req.body)));

  app.get('/v1/variables/:key', {
    schema: { operationId: 'getVariable', tags, summary: 'Get an environment variable', params: KeyParams, response: responses({ 200: ref('Variable') }) },
  }, async (req) =>
    variables.get(req.principal.accountId, req.params.key));

  app.put('/v1/variables/:key', {
    schema: {
      operationId: 'updateVariable', tags, summary: 'Update an environment variable', response: responses({ 200: ref('Variable') }),
      description: 'The key cannot change; value left out keeps the stored value; a secret variable cannot become non-secret.',
      params: KeyParams, body: VariableUpdate,
    },
  }, async (req) => variables.update(req.principal.accountId, req.params.key, req.body));

  app.delete('/v1/variables/:key', {
    schema: { operationId: 'deleteVariable', tags, summary: 'Delete an environment variable', params: KeyParams, response: responses({ 204: NO_CONTENT }) },
  }, async (req, reply) => {
    await variables.delete(req.principal.accountId, req.params.key);
    return reply.code(204).send();
  });
}
