import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AgentAssetParams, AgentJobParams, AgentLeaseRequest, AgentLeaveRequest, AgentRenewRequest, AgentResultRequest,
} from '../contract/agent-schemas.js';
import { PrivateLocationIdParams } from '../contract/private-location-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, nonJson, responses } from '../contract/route-responses.js';
import { LookoutError } from '../domain/lookout-error.js';
import { AGENT_ASSET_MAX_BYTES } from '../service/agent-service.js';
import type { Api, ApiContext } from './api-context.js';

const tags = ['Private location agents'];

/** Agent routes authenticate with a location key, not an API key, and long polls must not count against rate limits. */
const agentRoute = { public: true, rateLimit: false } as never;
const security = [{ bearer: [] }];
const AUTH = 'Authenticated with a private location key (`Authorization: Bearer pl_…`), or with the data-center agent key and `X-Lookout-Location`.';

/**
 * The agent protocol (`lookout agent` speaks it): lease due runs of the agent's location (long
 * poll), renew the leases, upload assets, post each attempt, leave. And, for API users,
 * `GET /v1/private-locations/{id}/metrics`: the location's agents and queue.
 */
export function agentsRoutes(app: Api, { agents }: ApiContext): void {
  if (!agents) return;
  const identity = (headers: Record<string, unknown>) =>
    agents.authenticate(headers.authorization as string | undefined, headers['x-lookout-location'] as string | undefined);

  app.get('/v1/private-locations/:id/metrics', {
    schema: {
      operationId: 'getPrivateLocationMetrics', tags: ['Private locations'], summary: 'Agents of a private location and its run queue',
      params: PrivateLocationIdParams, response: responses({ 200: ref('PrivateLocationMetrics') }),
    },
  }, async (req) => agents.privateLocationMetrics(req.principal.accountId, req.params.id));

  // Long polls end when the server closes (answering the runs claimed so far, none): otherwise a
  // connected agent holds shutdown for up to waitMs (20 s), past the 10 s a stop is given.
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());

  app.post('/v1/agent/leases', {
    config: agentRoute,
    schema: {
      operationId: 'leaseAgentJobs', tags, security, summary: 'Lease due runs of the agent\'s location (long poll)',
      description: `${AUTH} Also reports the agent in (it counts as live for 15 s). Answers at once when runs are due, else after up to \`waitMs\` with none.`,
      body: AgentLeaseRequest, response: responses({ 200: ref('AgentLeaseAnswer') }, 401, 403, 409),
    },
  }, async (req) => {
    const who = await identity(req.headers);
    const gone = new AbortController();
    req.raw.once('close', () => gone.abort());
    return agents.lease(who, req.body, req.body.max, req.body.waitMs ?? 0, AbortSignal.any([gone.signal, closing.signal]));
  });

  app.post('/v1/agent/leases/renew', {
    config: agentRoute,
    schema: {
      operationId: 'renewAgentLeases', tags, security, summary: 'Renew the leases of the runs the agent runs',
      description: `${AUTH} A lease not renewed within 15 s is given to another agent; \`lost\` names the runs to stop.`,
      body: AgentRenewRequest, response: responses({ 200: ref('AgentRenewAnswer') }, 401, 403, 409),
    },
  }, async (req) => agents.renew(await identity(req.headers), req.body, req.body.jobIds));

  app.post('/v1/agent/jobs/:jobId/results', {
    config: agentRoute,
    // A result is small; its assets come separately.
    bodyLimit: 16 * 1024 * 1024,
    schema: {
      operationId: 'postAgentResult', tags, security, summary: 'Record one attempt of a leased run',
      description: `${AUTH} 409 when the agent no longer holds the lease or the run has its FINAL result already (a result posted twice is recorded once).`,
      params: AgentJobParams, body: AgentResultRequest, response: responses({ 201: ref('AgentResultAnswer') }, 401, 403, 404, 409),
    },
  }, async (req, reply) => reply.code(201).send(await agents.recordResult(await identity(req.headers), req.params.jobId, req.body as never, new Date())));

  app.post('/v1/agent/jobs/:jobId/done', {
    config: agentRoute,
    schema: {
      operationId: 'finishAgentJob', tags, security, summary: 'Close a leased run that ended without all its results',
      params: AgentJobParams, body: AgentLeaveRequest, response: responses({ 204: NO_CONTENT }, 401, 403, 404, 409),
    },
  }, async (req, reply) => {
    await agents.finish(await identity(req.headers), req.body.agentId, req.params.jobId);
    return reply.code(204).send();
  });

  app.get('/v1/agent/jobs/:jobId/code-bundle', {
    config: agentRoute,
    schema: {
      operationId: 'downloadAgentCodeBundle', tags, security, summary: 'Download the code bundle of a leased Playwright check suite run',
      description: `${AUTH} \`X-Lookout-Agent\` names the agent holding the run. The answer is the project archive (tar.gz) the run's check names; \`X-Lookout-Code-Bundle\` carries its key.`,
      params: AgentJobParams,
      response: responses({ 200: nonJson('The archive', ['application/octet-stream'], { type: 'string', format: 'binary' }) }, 400, 401, 403, 404, 409),
    },
  }, async (req, reply) => {
    const who = await identity(req.headers);
    const agentId = req.headers['x-lookout-agent'];
    if (typeof agentId !== 'string' || !/^[0-9a-f-]{36}$/i.test(agentId)) {
      throw new LookoutError('VALIDATION', 'Name the agent in X-Lookout-Agent', { issues: [{ key: 'x-lookout-agent', message: 'must be the agent id' }], source: 'headers' });
    }
    const { key, stream, size } = await agents.codeBundle(who, agentId, req.params.jobId);
    return reply.type('application/octet-stream').header('content-length', size).header('x-lookout-code-bundle', key).send(stream);
  });

  app.post('/v1/agent/leave', {
    config: agentRoute,
    schema: {
      operationId: 'agentLeave', tags, security, summary: 'The agent stops (after finishing its runs)',
      body: AgentLeaveRequest, response: responses({ 204: NO_CONTENT }, 401, 403),
    },
  }, async (req, reply) => {
    await agents.leave(await identity(req.headers), req.body.agentId);
    return reply.code(204).send();
  });

  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // The body stays a stream: it goes to disk, counted.
    scope.addContentTypeParser('application/octet-stream', { bodyLimit: AGENT_ASSET_MAX_BYTES }, (_req, payload, done) => done(null, payload));
    scope.put('/v1/agent/jobs/:jobId/assets/:file', {
      config: agentRoute,
      bodyLimit: AGENT_ASSET_MAX_BYTES,
      schema: {
        operationId: 'uploadAgentAsset', tags, security, summary: 'Upload an asset file of a leased run (screenshot, trace)',
        description: `${AUTH} The body is the file (\`application/octet-stream\`, at most 150 MB, 413 above); \`X-Lookout-Agent\` names the agent. Upload before the result naming it.`,
        consumes: ['application/octet-stream'],
        params: AgentAssetParams, response: responses({ 204: NO_CONTENT }, 400, 401, 403, 404, 409, 413, 415),
      },
    }, async (req, reply) => {
      const who = await identity(req.headers);
      const agentId = req.headers['x-lookout-agent'];
      if (typeof agentId !== 'string' || !/^[0-9a-f-]{36}$/i.test(agentId)) {
        throw new LookoutError('VALIDATION', 'Name the agent in X-Lookout-Agent', { issues: [{ key: 'x-lookout-agent', message: 'must be the agent id' }], source: 'headers' });
      }
      if (!req.body || typeof (req.body as Readable).pipe !== 'function') {
        throw new LookoutError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as the body, with Content-Type: application/octet-stream');
      }
      const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
      await agents.storeAsset(who, agentId, req.params.jobId, req.params.file, req.body as Readable, Number.isFinite(declared) ? declared : undefined);
      return reply.code(204).send();
    });
  });
}
