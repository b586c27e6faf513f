import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { isLookoutError } from '../domain/lookout-error.js';
import type { Api, ApiContext } from './api-context.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';
import { errorBody } from './http-errors.js';
import { triggeredSessionPlan } from '../domain/trigger-session-plan.js';
import { RetryStrategy } from '../contract/common.js';
import { VariableKey } from '../contract/variable-schemas.js';

const tags = ['Test sessions'];

/**
 * The 403 the CLI recognises by `errorCode` (an extra key of the Error shape). Serialized as is:
 * the shared Error schema's serializer would drop the key.
 */
function noMatchingChecks(reply: FastifyReply, message: string) {
  return reply.code(403).type('application/json; charset=utf-8').serializer(JSON.stringify)
    .send({ ...errorBody(403, message), errorCode: 'ERR_NO_MATCHING_CHECKS' });
}

/** Where the CLI asks the checks to run: a data-center region or a private location. */
const RunLocation = Type.Union([
  Type.Object({ type: Type.Literal('PUBLIC'), region: Type.String({ minLength: 1, maxLength: 64 }) }),
  Type.Object({ type: Type.Literal('PRIVATE'), slugName: Type.String({ minLength: 1, maxLength: 255 }), id: Type.Optional(Type.String({ maxLength: 64 })) }),
]);

const KeyValue = Type.Object({ key: VariableKey, value: Type.String({ maxLength: 65_536 }) });

/** `checkly trigger`'s body (CLI v8 `TriggerRunner`). */
const TriggerBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  shouldRecord: Type.Optional(Type.Boolean()),
  runLocation: Type.Optional(Type.Union([RunLocation, Type.String({ minLength: 1, maxLength: 64 })])),
  checkRunSuiteId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
  targetTags: Type.Optional(Type.Array(Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { maxItems: 50 }), { maxItems: 50 })),
  checkId: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100 })),
  environmentVariables: Type.Optional(Type.Array(KeyValue, { maxItems: 200 })),
  repoInfo: Type.Optional(Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })])),
  environment: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 255 })])),
  testRetryStrategy: Type.Optional(Type.Union([Type.Null(), RetryStrategy])),
  refreshCache: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

/**
 * What `checkly trigger` calls: `/next/test-sessions/trigger` runs deployed checks chosen by tags
 * or ids as a test session; progress goes out over MQTT (see create-mqtt-session-stream).
 */
export function testSessionRunRoutes(app: Api, { testSessions, store, mqttSessionStream, testSessionRuns }: ApiContext): void {
  app.post('/next/test-sessions/trigger', {
    config: { permission: 'run' },
    schema: {
      operationId: 'triggerTestSessionForCli', tags, summary: 'Run deployed checks now as a test session (checkly trigger)',
      description: 'Selects activated checks by `checkId` and `targetTags` (each inner list: a check carrying all those tags; '
        + 'the lists are alternatives). None matching answers 403 with `errorCode: ERR_NO_MATCHING_CHECKS`. Live results are '
        + 'published over MQTT (`/mqtt`) under `account/<accountId>/ad-hoc-check-results/<checkRunSuiteId>/<sequenceId>/...`. '
        + '`environmentVariables` (`--env`) win over the account\'s, group\'s and check\'s variables of the same key for these runs '
        + 'only, and are scrubbed from results like secrets; `testRetryStrategy` replaces each check\'s retry strategy (null: no retries).',
      body: TriggerBody,
      response: responses({ 201: ref('TriggeredTestSession') }, 409),
    },
  }, async (req, reply) => {
    const accountId = req.principal.accountId;
    const plan = triggeredSessionPlan(req.body);
    const owned = plan.checkIds ? await store.testSessions.checksOwned(accountId, plan.checkIds) : undefined;
    const checkIds = owned ? plan.checkIds!.filter((id) => owned.has(id)) : undefined;
    const candidates = checkIds?.length === 0 ? [] : await store.testSessions.selectChecks(accountId, { checkIds, tags: plan.tags });
    const selected = candidates.filter((c) => c.check_type !== 'HEARTBEAT');
    if (selected.length === 0) {
      return noMatchingChecks(reply, 'No matching checks found: no activated check carries the tags or ids asked for');
    }
    let session: Record<string, any>;
    try {
      session = await testSessions.trigger(accountId, {
        checkIds: selected.map((c) => c.id), name: plan.name, runLocation: plan.runLocation, environment: plan.environment, overrides: plan.overrides,
      });
    } catch (err) {
      // The service refuses an empty selection with NOT_FOUND; the CLI knows it as this 403.
      if (isLookoutError(err) && err.code === 'NOT_FOUND') {
        return noMatchingChecks(reply, err.message);
      }
      throw err;
    }
    const sequenceIds = Object.fromEntries(selected.map((c) => [c.id, crypto.randomUUID()]));
    mqttSessionStream?.follow(String(session.id), { accountId, checkRunSuiteId: req.body.checkRunSuiteId, sequenceIds });
    return reply.code(201).send({
      testSessionId: session.id,
      checks: selected.map((c) => ({ id: c.id, name: c.name, checkType: c.check_type, groupId: c.group_id })),
      sequenceIds,
    });
  });

  const notConfigured = (reply: FastifyReply) =>
    reply.code(501).send(errorBody(501, 'Running submitted checks is not configured on this server'));

  // `checkly test`: the project's checks as submitted (not as deployed), in one test session.
  app.post('/v1/test-sessions/run', {
    config: { permission: 'run' },
    bodyLimit: 10 * 1024 * 1024,
    schema: {
      operationId: 'runSubmittedChecks', tags, summary: 'Run submitted checks as a test session (checkly test)',
      description: `Runs each of \`checkRunJobs\` (a check payload as \`checkly test\` sends it, validated like a check create) in \`runLocation\`. `
        + 'Supported: API, URL, TCP, DNS, ICMP, GRPC, SSL, TRACEROUTE, BROWSER, MULTI_STEP and PLAYWRIGHT checks; a browser or multi-step job runs its `script` '
        + 'with its `dependencies` (the project files it imports, `{path, content}` or indexes into `sharedFiles`) beside it at '
        + '`scriptPath`; a Playwright check suite runs from the code bundle it names (`codeBundlePath`, uploaded just before). '
        + 'HEARTBEAT refuses the run with 400 naming the job\'s `checkType`; AGENTIC jobs run when the server has a model for them '
        + '(LOOKOUT_AGENTIC_MODEL_URL), else 400 naming it. Live results go to '
        + 'MQTT (`account/<accountId>/ad-hoc-check-results/<checkRunSuiteId>/...`); results are read at `/v1/test-sessions/{id}/results/{resultId}`.',
      body: Type.Object({
        name: Type.Optional(Type.String({ maxLength: 255 })),
        checkRunJobs: Type.Array(Type.Object({}, { additionalProperties: true }), { minItems: 1, maxItems: 200 }),
        project: Type.Optional(Type.Object({}, { additionalProperties: true })),
        sharedFiles: Type.Optional(Type.Array(Type.Unknown())),
        runLocation: Type.Optional(Type.Union([RunLocation, Type.String({ minLength: 1, maxLength: 64 })])),
        repoInfo: Type.Optional(Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })])),
        environment: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 255 })])),
        shouldRecord: Type.Optional(Type.Boolean()),
        streamLogs: Type.Optional(Type.Boolean()),
        refreshCache: Type.Optional(Type.Boolean()),
      }, { additionalProperties: false }),
      response: responses({ 202: ref('TestSessionRunStarted') }, 501),
    },
  }, async (req, reply) => {
    if (!testSessionRuns) return notConfigured(reply);
    const started = await testSessionRuns.run(req.principal.accountId, {
      name: req.body.name, checkRunJobs: req.body.checkRunJobs as Record<string, any>[], runLocation: req.body.runLocation, environment: req.body.environment,
      sharedFiles: req.body.sharedFiles,
    });
    return reply.code(202).send(started);
  });

  app.get('/v1/test-sessions/scheduling/:schedulingId/completion', {
    schema: {
      operationId: 'awaitTestSessionScheduling', tags, summary: 'How the dispatch of a checkly test run went',
      description: 'Lookout dispatches a run at once: the answer is immediate (SUCCEEDED). `maxWaitSeconds` is accepted for the CLI.',
      params: Type.Object({ schedulingId: Type.String({ format: 'uuid' }) }),
      querystring: Type.Object({ maxWaitSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })) }, { additionalProperties: false }),
      response: responses({ 200: ref('TestSessionScheduling') }, 501),
    },
  }, async (req, reply) => {
    if (!testSessionRuns) return notConfigured(reply);
    return testSessionRuns.scheduling(req.principal.accountId, req.params.schedulingId);
  });

  app.get('/v1/test-sessions/:id/results/:resultId', {
    schema: {
      operationId: 'getTestSessionResult', tags, summary: 'One result of a test session',
      params: Type.Object({ id: Type.String({ format: 'uuid' }), resultId: Type.String({ format: 'uuid' }) }),
      response: responses({ 200: ref('CheckResult') }, 501),
    },
  }, async (req, reply) => {
    if (!testSessionRuns) return notConfigured(reply);
    return testSessionRuns.result(req.principal.accountId, req.params.id, req.params.resultId);
  });
}
