import type { FastifyReply } from 'fastify';
import {
  DeploymentCompletionQuery, DeploymentParams, ProjectDeployBody, ProjectDeployQuery, ProjectDestroyQuery, ProjectParams,
} from '../contract/project-schemas.js';
import { ref } from '../contract/response-shape.js';
import { nonJson, responses } from '../contract/route-responses.js';
import { LookoutError } from '../domain/lookout-error.js';
import { createProjectService, type DeployBody } from '../service/project-service.js';
import type { Api, ApiContext } from './api-context.js';
import { errorBody } from './http-errors.js';
import { openEventStream } from './open-event-stream.js';

const tags = ['Projects'];
const SUPPORTED = 'Resource types reconciled: check (every checkType the check routes accept), check-group, alert-channel, '
  + 'alert-channel-subscription, private-location, private-location-check-assignment, private-location-group-assignment, '
  + 'maintenance-window, status-page-service, status-page and dashboard; any other type refuses the whole deploy with 400 naming '
  + '`resources.<logicalId>.type`. A check or group runs in the private locations its assignments name (plus any slugs its payload '
  + 'lists); a private location a deploy creates has no key yet (`POST /v1/private-locations/{id}/keys`), and one still used by '
  + 'checks outside the project is neither removed nor renamed (409). Writes of a deploy publish no live events: public pages see '
  + 'them on their next request.';
const REFS = '`{ "ref": "<logicalId>" }` in a payload names another resource of the project; a reference to a logical id the project '
  + 'does not have, or a reference cycle, is a 400 naming the resource. Physical ids (numbers, uuids) must be resources of the caller\'s account.';
const SYNC = 'Deployments run synchronously: the 202 answer is already final (SUCCEEDED); a resource the existing routes would refuse makes the '
  + 'whole deploy a 400 naming `resources.<logicalId>.payload.<key>` and nothing is applied (the deployment is recorded FAILED).';
const POLL_MS = 200;

/** A 409 carrying `deploymentId` at the top, where the checkly CLI looks for the deployment to wait for. */
async function conflictOrThrow<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (err) {
    const deploymentId = err instanceof LookoutError && err.code === 'CONFLICT' ? err.attributes?.deploymentId : undefined;
    if (typeof deploymentId !== 'string') throw err;
    // Serialised here: the Error schema's serialiser would drop the top-level `deploymentId` the CLI reads.
    const body = { ...errorBody(409, err instanceof Error ? err.message : 'Conflict', { attributes: { deploymentId } }), deploymentId };
    return reply.code(409).type('application/json; charset=utf-8').send(JSON.stringify(body));
  }
}

/** Monitoring-as-code projects: `checkly deploy`, `deploy --preview` and `destroy`. */
export function projectsRoutes(app: Api, { store, config }: ApiContext): void {
  const projects = createProjectService({ store, publicUrl: config.publicUrl, agenticModelConfigured: config.agentic !== null, assetsDir: config.assetsDir });
  // Streams following a running deployment end at shutdown rather than hold the server open.
  let closing = false;
  app.addHook('preClose', async () => { closing = true; });

  app.post('/v1/projects/deploy', {
    config: { auditVia: 'deploy' },
    schema: {
      operationId: 'deployProject', tags, summary: 'Deploy a project (checkly deploy)',
      description: 'Reconciles the project\'s resources in one transaction: creates what is new, updates what the project already owns '
        + '(ids kept), deletes what it no longer has (`preserveResources=true`: keeps them, reported DETACHED), never touches other resources. '
        + `dryRun=true (deploy --preview) runs the deploy's own checks in a transaction it rolls back: the same 400s, the diff (200), nothing written. ${SUPPORTED} ${REFS} ${SYNC} `
        + 'scheduleOnDeploy is accepted for compatibility: checks are scheduled by their frequency either way. '
        + '409 while another deployment of the project runs, naming it as `deploymentId` (top level, where the checkly CLI reads it, and in `attributes`).',
      querystring: ProjectDeployQuery, body: ProjectDeployBody,
      response: responses({ 200: ref('ProjectDiff'), 202: ref('ProjectDeployment') }, 409),
    },
  }, async (req, reply) => conflictOrThrow(reply, async () => {
    const out = await projects.deploy(req.principal.accountId, req.body as DeployBody, req.query);
    return (reply as FastifyReply).code('status' in out ? 202 : 200).send(out);
  }));

  app.delete('/v1/projects/:logicalId', {
    config: { auditVia: 'deploy' },
    schema: {
      operationId: 'destroyProject', tags, summary: 'Destroy a project (checkly destroy)',
      description: 'Deletes every resource the project owns (`preserveResources=true`: keeps them in the account) and the project; '
        + 'answers the finished deployment (202). A project that does not exist, or dryRun=true, answers the diff (200). '
        + '409 while another deployment of the project runs, naming it as `deploymentId` (top level, where the checkly CLI reads it, and in `attributes`).',
      params: ProjectParams, querystring: ProjectDestroyQuery,
      response: responses({ 200: ref('ProjectDiff'), 202: ref('ProjectDeployment') }, 409),
    },
  }, async (req, reply) => conflictOrThrow(reply, async () => {
    const out = await projects.destroy(req.principal.accountId, req.params.logicalId, req.query);
    return (reply as FastifyReply).code('status' in out ? 202 : 200).send(out);
  }));

  app.get('/next/projects', {
    schema: {
      operationId: 'listProjects', tags, summary: 'List projects',
      response: responses({ 200: ref('ProjectList') }),
    },
  }, async (req) => projects.list(req.principal.accountId));

  app.get('/next/projects/:logicalId', {
    schema: {
      operationId: 'getProject', tags, summary: 'Get a project', params: ProjectParams,
      response: responses({ 200: ref('Project') }),
    },
  }, async (req) => projects.get(req.principal.accountId, req.params.logicalId));

  app.get('/v1/projects/:logicalId/deployments/:deploymentId', {
    schema: {
      operationId: 'getProjectDeployment', tags, summary: 'Get a deployment of a project', params: DeploymentParams,
      response: responses({ 200: ref('ProjectDeployment') }),
    },
  }, async (req) => projects.deployment(req.principal.accountId, req.params.logicalId, req.params.deploymentId));

  app.post('/v1/projects/:logicalId/deployments/:deploymentId/cancel', {
    schema: {
      operationId: 'cancelProjectDeployment', tags, summary: 'Cancel a deployment of a project',
      description: 'Idempotent. Deployments run synchronously, so there is never one left to stop: the deployment is answered as it is.',
      params: DeploymentParams, response: responses({ 200: ref('ProjectDeployment') }),
    },
  }, async (req) => projects.cancel(req.principal.accountId, req.params.logicalId, req.params.deploymentId));

  /** The deployment once final, or undefined when `waitMs` passed first (or `stop` said so). */
  async function finalDeployment(accountId: string, logicalId: string, id: string, waitMs: number, stopped: () => boolean = () => false) {
    const until = Date.now() + waitMs;
    for (;;) {
      const d = await projects.deployment(accountId, logicalId, id);
      if (projects.isTerminal(d.status)) return d;
      if (Date.now() >= until || stopped()) return undefined;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  app.get('/v1/projects/:logicalId/deployments/:deploymentId/completion', {
    schema: {
      operationId: 'awaitProjectDeployment', tags, summary: 'Wait for a deployment to finish (long poll)',
      description: 'Answers the deployment once it is final (SUCCEEDED, FAILED or CANCELLED); 408 when it still runs after maxWaitSeconds (default 30, at most 60).',
      params: DeploymentParams, querystring: DeploymentCompletionQuery,
      response: responses({ 200: ref('ProjectDeployment') }, 408),
    },
  }, async (req) => {
    const { logicalId, deploymentId } = req.params;
    // Stops waiting when the server closes (a 408 the client asks again after), so it cannot hold shutdown.
    const done = await finalDeployment(req.principal.accountId, logicalId, deploymentId, (req.query.maxWaitSeconds ?? 30) * 1000, () => closing);
    if (!done) throw new LookoutError('TIMEOUT', `Deployment ${deploymentId} is still running`);
    return done;
  });

  app.get('/v1/projects/:logicalId/deployments/:deploymentId/events', {
    schema: {
      operationId: 'streamProjectDeploymentEvents', tags, summary: 'Follow a deployment (Server-Sent Events)',
      description: '`progress` events (`{progress}`, percent) while it runs, then one `complete` event whose data is the final deployment, and the stream ends.',
      params: DeploymentParams,
      response: responses({ 200: nonJson('Server-Sent Events: progress, then complete', ['text/event-stream']) }),
    },
  }, async (req, reply) => {
    const { logicalId, deploymentId } = req.params;
    const accountId = req.principal.accountId;
    // Read first: an unknown deployment is a plain 404, before the stream starts.
    const first = await projects.deployment(accountId, logicalId, deploymentId);
    const stream = openEventStream(reply);
    const stopped = () => !stream.isOpen() || closing;
    let done = projects.isTerminal(first.status) ? first : undefined;
    if (!done) stream.send({ event: 'progress', data: { progress: 0 } });
    while (!done && !stopped()) done = await finalDeployment(accountId, logicalId, deploymentId, 15_000, stopped);
    if (done) stream.send({ event: 'complete', data: done });
    stream.end();
  });
}
