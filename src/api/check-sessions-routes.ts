import Type from 'typebox';
import { createCheckSessionService } from '../service/check-session-service.js';
import type { Api, ApiContext } from './api-context.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Check sessions'];

/** `/v2/check-sessions`: what `checkly checks run` calls to run deployed checks now and wait for them. */
export function checkSessionsRoutes(app: Api, { store, testSessions, config }: ApiContext): void {
  const checkSessions = createCheckSessionService({ store, testSessions, publicUrl: config.publicUrl });

  app.post('/v2/check-sessions/trigger', {
    config: { permission: 'run' },
    schema: {
      operationId: 'triggerCheckSessions', tags, summary: 'Run deployed checks now, one check session each (checkly checks run)',
      description: 'Selects activated checks by `target.checkId` and `target.matchTags` (each inner list: a check carrying all those tags; '
        + 'the lists are alternatives); without a target every activated check runs. Heartbeat checks never run on demand. Each check runs '
        + 'where it is configured to, as a test session of its own (recorded, no alerts). None matching answers 404; a check with nowhere to run 409.',
      body: Type.Object({
        target: Type.Optional(Type.Object({
          matchTags: Type.Optional(Type.Array(Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { maxItems: 50 }), { maxItems: 50 })),
          checkId: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100 })),
        }, { additionalProperties: false })),
        refreshCache: Type.Optional(Type.Boolean()),
      }, { additionalProperties: false }),
      response: responses({ 201: ref('CheckSessionsTriggered') }, 409),
    },
  }, async (req, reply) => reply.code(201).send(await checkSessions.trigger(req.principal.accountId, req.body ?? {})));

  app.get('/v2/check-sessions/:id/completion', {
    schema: {
      operationId: 'awaitCheckSessionCompletion', tags, summary: 'Wait for a check session to finish',
      description: 'Answers 200 with the session and its FINAL results once it is PASSED, FAILED or CANCELLED; otherwise 408 with Retry-After after `maxWaitSeconds`: call again.',
      params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
      querystring: Type.Object({ maxWaitSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, default: 30 })) }, { additionalProperties: false }),
      response: responses({ 200: ref('CompletedCheckSession') }, 408),
    },
  }, async (req) => checkSessions.completion(req.principal.accountId, req.params.id, req.query.maxWaitSeconds ?? 30));
}
