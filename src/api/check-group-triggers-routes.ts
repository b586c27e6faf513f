import type { FastifyRequest } from 'fastify';
import type { Api, ApiContext } from './api-context.js';
import {
  CheckGroupTriggerParams, CheckGroupTriggerUrlParams,
} from '../contract/trigger-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const tags = ['Triggers'];

/**
 * Check group triggers: the token (`/v1/triggers/check-groups/{groupId}`) and the public URL that
 * runs the group's activated checks (`/check-groups/{groupId}/trigger/{token}`, no API key, 10
 * calls a minute per trigger).
 */
export function checkGroupTriggersRoutes(app: Api, { groupTriggers }: ApiContext): void {
  app.post('/v1/triggers/check-groups/:groupId', {
    schema: {
      operationId: 'createCheckGroupTrigger',
      tags,
      summary: 'Create the trigger token of a check group',
      description: 'Answers the existing token when the group has one already. 404 when the account has no such group.',
      params: CheckGroupTriggerParams,
      response: responses({ 201: ref('CheckGroupTrigger') }),
    },
  }, async (req, reply) => reply.code(201).send(await groupTriggers.create(req.principal.accountId, req.params.groupId)));

  app.post('/v1/check-groups/:groupId/run', {
    config: { permission: 'run' },
    schema: {
      operationId: 'runCheckGroup', tags, summary: 'Run a check group now (API key or session; Read & Run and above)',
      description: 'Like its trigger URL: the group\'s activated checks, at most its concurrency at once; answers once all are over with the FINAL results per check.',
      params: CheckGroupTriggerParams, response: responses({ 200: ref('CheckGroupRun') }),
    },
  }, async (req) => groupTriggers.runNow(req.principal.accountId, req.params.groupId));

  app.get('/v1/triggers/check-groups/:groupId', {
    // The token runs the group without a key: only those who may run see it.
    config: { permission: 'run' },
    schema: {
      operationId: 'getCheckGroupTrigger',
      tags,
      summary: 'Get the trigger token of a check group',
      params: CheckGroupTriggerParams,
      response: responses({ 200: ref('CheckGroupTrigger') }),
    },
  }, async (req) => groupTriggers.get(req.principal.accountId, req.params.groupId));

  app.delete('/v1/triggers/check-groups/:groupId', {
    schema: {
      operationId: 'deleteCheckGroupTrigger',
      tags,
      summary: 'Delete the trigger token of a check group',
      description: 'Its trigger URL stops working at once.',
      params: CheckGroupTriggerParams,
      response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await groupTriggers.delete(req.principal.accountId, req.params.groupId);
    return reply.code(204).send();
  });

  app.route({
    // One route for both methods: they share the trigger's budget of 10 calls a minute.
    method: ['GET', 'POST'],
    url: '/check-groups/:groupId/trigger/:token',
    schema: {
      operationId: 'runCheckGroupTrigger',
      tags,
      summary: 'Run a check group now through its trigger URL (no API key)',
      description: 'Runs the group\'s activated checks in groupOrder, at most the group\'s concurrency at once, each like a check\'s own trigger, '
        + 'and answers once all are over with the FINAL results per check. A check that cannot run is listed with an error instead. '
        + '404 for a wrong token or a deleted group; 10 calls a minute per trigger.',
      params: CheckGroupTriggerUrlParams,
      response: responses({ 200: ref('CheckGroupRun') }),
    },
    config: { public: true, rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r: FastifyRequest) => `group-trigger|${(r.params as { token: string }).token}` } } as never,
    handler: async (req) => {
      const { groupId, token } = req.params as { groupId: number; token: string };
      return groupTriggers.run(groupId, token);
    },
  });
}
