import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { notFound } from '../domain/lookout-error.js';
import type { CheckTriggerRow } from '../store/check-triggers-repository.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { routeRateLimit } from './route-rate-limit.js';
import { PageQuery } from '../contract/common.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, nonJson, responses } from '../contract/route-responses.js';

/** A stored heartbeat ping, with the count of all the page's rows. */
interface HeartbeatPingRow {
  id: string;
  kind: string;
  received_at: Date;
  method: string | null;
  source: string | null;
  user_agent: string | null;
  total: number;
}

const CheckId = Type.Object({ checkId: Type.String({ format: 'uuid' }) });
const TOKEN = Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });
const PING_OPERATIONS = { ping: 'pingHeartbeat', start: 'pingHeartbeatStart', fail: 'pingHeartbeatFail' } as const;

/**
 * Runs on demand and heartbeat pings: trigger tokens (`/v1/triggers/checks/{checkId}`), the public
 * trigger URL (`/checks/{checkId}/trigger/{token}`, 10 calls a minute per trigger) and the public
 * heartbeat ping URLs (`/ping/{token}`, `/start`, `/fail`).
 */
export function runsRoutes(app: Api, { store, runner, config }: ApiContext): void {
  const triggerUrl = (checkId: string, token: string) => `${config.publicUrl.replace(/\/$/, '')}/checks/${checkId}/trigger/${token}`;
  const triggerView = (row: CheckTriggerRow) => ({
    id: row.id, checkId: row.check_id, token: row.token, url: triggerUrl(row.check_id, row.token),
    called_at: row.called_at?.toISOString() ?? null, created_at: row.created_at.toISOString(), updated_at: row.updated_at?.toISOString() ?? null,
  });
  const tags = ['Triggers'];

  app.post('/v1/triggers/checks/:checkId', {
    schema: { operationId: 'createCheckTrigger', tags, summary: 'Create the trigger token of a check', params: CheckId, response: responses({ 201: ref('CheckTrigger') }) },
  }, async (req, reply) => {
    const { accountId } = req.principal;
    if (!(await store.checks.get(accountId, req.params.checkId))) throw notFound('Check', req.params.checkId);
    return reply.code(201).send(triggerView(await store.checkTriggers.upsert(accountId, req.params.checkId)));
  });
  app.get('/v1/triggers/checks/:checkId', {
    // The token runs the check without a key: only those who may run see it.
    config: { permission: 'run' },
    schema: { operationId: 'getCheckTrigger', tags, summary: 'Get the trigger token of a check', params: CheckId, response: responses({ 200: ref('CheckTrigger') }) },
  }, async (req) => {
    const row = await store.checkTriggers.get(req.principal.accountId, req.params.checkId);
    if (!row) throw notFound('Trigger of check', req.params.checkId);
    return triggerView(row);
  });
  app.delete('/v1/triggers/checks/:checkId', {
    schema: { operationId: 'deleteCheckTrigger', tags, summary: 'Delete the trigger token of a check', params: CheckId, response: responses({ 204: NO_CONTENT }) },
  }, async (req, reply) => {
    if (!(await store.checkTriggers.delete(req.principal.accountId, req.params.checkId))) throw notFound('Trigger of check', req.params.checkId);
    return reply.code(204).send();
  });

  // Same run as the trigger URL, authenticated by API key: what the GraphQL `runCheck` mutation uses.
  app.post('/v1/checks/:checkId/run', {
    schema: {
      operationId: 'runCheck',
      tags,
      summary: 'Run a check now (API key)',
      response: responses({ 200: ref('CheckRun') }, 409),
      description: 'Runs the check once (with its retries) in its first location, or in all of them for parallel checks, and answers with the FINAL results. 60 calls a minute per account. '
        + 'A check with nowhere to run (no locations or private locations of its own or its group\'s) answers 409, `attributes.idle` saying why.',
      params: CheckId,
    },
    config: { ...routeRateLimit(config, 60), permission: 'run' } as never,
  }, async (req) => {
    const outcome = await runner.runNow(req.principal.accountId, req.params.checkId);
    return { checkId: req.params.checkId, sequenceId: outcome.sequenceId, results: outcome.finals };
  });

  app.route({
      // One route for both methods: they share the trigger's budget of 10 calls a minute.
      method: ['GET', 'POST'],
      url: '/checks/:checkId/trigger/:token',
      schema: {
        operationId: 'runCheckTrigger', tags, summary: 'Run a check now through its trigger URL (no API key)',
        params: Type.Object({ checkId: Type.String({ format: 'uuid' }), token: TOKEN }), response: responses({ 200: ref('CheckRun') }, 409),
      },
      config: { public: true, rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r: FastifyRequest) => `trigger|${(r.params as { token: string }).token}` } } as never,
      handler: async (req) => {
        const accountId = await store.checkTriggers.call(req.params.checkId, req.params.token);
        if (!accountId) throw notFound('Trigger', req.params.token);
        const outcome = await runner.runNow(accountId, req.params.checkId);
        return { checkId: req.params.checkId, sequenceId: outcome.sequenceId, results: outcome.finals };
      },
  });

  const pingTags = ['Heartbeats'];
  for (const [suffix, kind] of [['', 'ping'], ['/start', 'start'], ['/fail', 'fail']] as const) {
      app.route({
        method: ['GET', 'POST'],
        url: `/ping/:token${suffix}`,
        schema: {
          operationId: `${PING_OPERATIONS[kind]}`, tags: pingTags, summary: `Heartbeat ${kind} (no API key)`, params: Type.Object({ token: TOKEN }),
          response: responses({ 200: nonJson('OK', ['text/plain']) }),
        },
        config: { public: true, rateLimit: { max: 600, timeWindow: 60_000, keyGenerator: (r: FastifyRequest) => `ping|${(r.params as { token: string }).token}` } } as never,
        handler: async (req, reply) => {
          const rows = await store.runner.checkByPingToken(req.params.token);
          if (!rows) throw notFound('Heartbeat', req.params.token);
          const at = new Date();
          await store.db.query(
            'INSERT INTO heartbeat_pings (id, account_id, check_id, kind, received_at, method, source, user_agent) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
            [randomUUID(), rows.account_id, rows.id, kind, at, req.method, req.ip, String(req.headers['user-agent'] ?? '').slice(0, 512) || null],
          );
          if (kind !== 'start') await runner.recordPing(rows, kind, at);
          return reply.type('text/plain').send('OK\n');
        },
      });
  }

  app.get('/v1/checks/heartbeats/:checkId/events', {
    schema: {
      operationId: 'listHeartbeatPings', tags: pingTags, summary: 'Pings received by a heartbeat check, newest first', params: CheckId,
      querystring: Type.Object(PageQuery, { additionalProperties: false }), response: responses({ 200: ref('HeartbeatPingList') }),
    },
  }, async (req, reply) => {
    const { accountId } = req.principal;
    const check = await store.checks.get(accountId, req.params.checkId);
    if (!check || check.check_type !== 'HEARTBEAT') throw notFound('Heartbeat check', req.params.checkId);
    const { page = 1, limit = 10 } = req.query;
    const rows = await store.db.query<HeartbeatPingRow>(
      `SELECT id, kind, received_at, method, source, user_agent, count(*) OVER ()::int AS total FROM heartbeat_pings
       WHERE account_id = $1 AND check_id = $2 ORDER BY received_at DESC, id LIMIT $3 OFFSET $4`,
      [accountId, req.params.checkId, limit, (page - 1) * limit],
    );
    const total = rows[0]?.total ?? Number((await store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM heartbeat_pings WHERE check_id = $1', [req.params.checkId]))[0]?.n ?? 0);
    return sendPage(reply, rows.map((r) => ({ id: r.id, type: r.kind.toUpperCase(), timestamp: r.received_at.toISOString(), method: r.method, source: r.source, userAgent: r.user_agent })), total, page, limit);
  });
}
