import Type from 'typebox';
import { LOCATIONS } from '../domain/catalog.js';
import type { Api, ApiContext } from './api-context.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Test sessions'];
const Id = Type.Object({ id: Type.String({ format: 'uuid' }) });
const ArchiveBody = Type.Object(
  { archiveForEver: Type.Optional(Type.Boolean()), archivedUntilNextEvent: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

/** `/v1/test-sessions`: trigger checks now, follow the session, wait for it, cancel it. */
export function testSessionsRoutes(app: Api, { testSessions }: ApiContext): void {
  app.post('/v1/test-sessions/trigger', {
    config: { permission: 'run' },
    schema: {
      operationId: 'triggerTestSession', tags, summary: 'Run checks now as a test session', response: responses({ 201: ref('TestSession') }, 409),
      description: 'Selects activated checks by `checkIds` or `tags` (each entry "a,b" means a check carrying both a and b; entries are alternatives); with neither, every activated check runs.',
      body: Type.Object({
        checkIds: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100 })),
        tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { maxItems: 50 })),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        runLocation: Type.Optional(Type.Enum([...LOCATIONS])),
        environment: Type.Optional(Type.String({ maxLength: 255 })),
      }, { additionalProperties: false }),
    },
  }, async (req, reply) => {
    const b = req.body ?? {};
    const session = await testSessions.trigger(req.principal.accountId, {
      checkIds: b.checkIds, name: b.name, runLocation: b.runLocation, environment: b.environment,
      tags: b.tags?.map((t) => t.split(',').map((x) => x.trim()).filter(Boolean)),
    });
    return reply.code(201).send(session);
  });

  app.get('/v1/test-sessions', {
    schema: {
      operationId: 'listTestSessions', tags, summary: 'List test sessions (cursor)', response: responses({ 200: ref('TestSessionPage') }),
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
        nextId: Type.Optional(Type.String({ format: 'uuid' })),
        checkId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the sessions that ran this check' })),
      }, { additionalProperties: false }),
    },
  }, async (req) => testSessions.list(req.principal.accountId, req.query.limit ?? 10, req.query.nextId, req.query.checkId));

  app.get('/v1/test-sessions/:id', {
    schema: { operationId: 'getTestSession', tags, summary: 'Get a test session', params: Id, response: responses({ 200: ref('TestSession') }) },
  }, async (req) =>
    testSessions.get(req.principal.accountId, req.params.id));

  app.get('/v1/test-sessions/:id/completion', {
    schema: {
      operationId: 'awaitTestSessionCompletion', tags, summary: 'Wait for a test session to finish', response: responses({ 200: ref('TestSession') }, 408),
      description: 'Answers 200 with the session once it is PASSED, FAILED or CANCELLED; otherwise 408 with Retry-After after `maxWaitSeconds`: call again.',
      params: Id,
      querystring: Type.Object({ maxWaitSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, default: 30 })) }, { additionalProperties: false }),
    },
  }, async (req) => testSessions.awaitCompletion(req.principal.accountId, req.params.id, req.query.maxWaitSeconds ?? 30));

  app.post('/v1/test-sessions/:id/cancel', {
    config: { permission: 'run' },
    schema: { operationId: 'cancelTestSession', tags, summary: 'Cancel a running test session', params: Id, response: responses({ 200: ref('TestSession') }) },
  }, async (req) =>
    testSessions.cancel(req.principal.accountId, req.params.id));

  app.get('/v1/test-sessions/:id/error-groups', {
    schema: {
      operationId: 'listTestSessionErrorGroups', tags, summary: 'Error groups observed in a test session', params: Id,
      response: responses({ 200: ref('TestSessionErrorGroupList') }),
    },
  }, async (req) =>
    testSessions.errorGroupsOf(req.principal.accountId, req.params.id));

  app.get('/v1/test-session-error-groups/:id', {
    schema: { operationId: 'getTestSessionErrorGroup', tags, summary: 'Get a test session error group', params: Id, response: responses({ 200: ref('TestSessionErrorGroup') }) },
  }, async (req) =>
    testSessions.getErrorGroup(req.principal.accountId, req.params.id));

  app.patch('/v1/test-session-error-groups/:id', {
    schema: {
      operationId: 'updateTestSessionErrorGroup', tags, summary: 'Archive or unarchive a test session error group', params: Id, body: ArchiveBody,
      response: responses({ 200: ref('TestSessionErrorGroup') }),
    },
  }, async (req) => testSessions.archiveErrorGroup(req.principal.accountId, req.params.id, req.body ?? {}));

}
