import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { RUN_ASSET_KINDS, parseRunAssetKey, toAssetManifest, toCheckRunData, toRunLog, type RunAssetOwner } from '../domain/check-run-assets.js';
import { notFound } from '../domain/lookout-error.js';
import { jobAssetsOf } from '../domain/result-asset-files.js';
import { createResultService } from '../service/result-service.js';
import type { Api, ApiContext } from './api-context.js';
import { routeRateLimit } from './route-rate-limit.js';
import { ref } from '../contract/response-shape.js';
import { nonJson, responses } from '../contract/route-responses.js';

const UUID = Type.String({ format: 'uuid' });
const FILE = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9._-]+$' });
const ManifestQuery = Type.Object({
  type: Type.Optional(Type.Enum(['log', 'trace', 'video', 'screenshot', 'pcap', 'report', 'file'])),
  name: Type.Optional(Type.String({ maxLength: 255 })),
}, { additionalProperties: false });

/**
 * The assets of results as the `checkly` CLI reads them: the log and check-run data a result sent
 * to `checkly test` points at (`/next/assets/...`), and the manifests and files of `checkly assets`.
 */
export function resultAssetsRoutes(app: Api, { store, config, testSessionRuns }: ApiContext): void {
  const results = createResultService({ store });
  const tags = ['Check results'];

  /** The result an owner holds, as the API shows it (404 when the account has no such result). */
  const resultOf = async (accountId: string, owner: RunAssetOwner, resultId: string): Promise<Record<string, any>> => {
    if ('checkId' in owner) return results.get(accountId, owner.checkId, resultId);
    if (!testSessionRuns) throw notFound('Test session result', resultId);
    return testSessionRuns.result(accountId, owner.testSessionId, resultId);
  };

  const sendFile = async (reply: FastifyReply, result: Record<string, any>, file: string) => {
    const asset = jobAssetsOf(result).find((a) => a.file === file);
    // Listed in the result or nothing: this is also what keeps paths from escaping the folder.
    if (!asset) throw notFound('Asset', file);
    const path = join(config.assetsDir, String(asset.file));
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw notFound('Asset', file);
    return reply.type(typeof asset.contentType === 'string' ? asset.contentType : 'application/octet-stream').header('content-length', info.size).send(createReadStream(path));
  };

  app.get('/next/assets/:kind/:region/:key', {
    schema: {
      operationId: 'getRunAsset', tags, summary: 'The log or check-run data of a result (what checkly test prints for a failure)',
      description: '`key` is the `logPath`/`checkRunDataPath` a result sent to the CLI carries in `assets`. `log`: `{setup, request, teardown}` '
        + 'for API checks, the run\'s lines for browser checks; `check-run-data`: `{request, response, assertions, requestError}`.',
      params: Type.Object({ kind: Type.Enum([...RUN_ASSET_KINDS]), region: Type.String({ minLength: 1, maxLength: 64 }), key: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: responses({ 200: ref('RunAsset') }),
    },
    config: routeRateLimit(config, 600),
  }, async (req, reply) => {
    const parsed = parseRunAssetKey(req.params.key);
    if (!parsed) throw notFound('Asset', req.params.key);
    const result = await resultOf(req.principal.accountId, parsed.owner, parsed.resultId);
    // Free-form JSON (an object or an array): serialized as is, not through the schema's serializer.
    return reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(req.params.kind === 'log' ? toRunLog(result) : toCheckRunData(result));
  });

  app.get('/v1/test-sessions/:id/results/:resultId/assets', {
    schema: {
      operationId: 'listTestSessionResultAssets', tags: ['Test sessions'], summary: 'The assets of a test session result (checkly assets list)',
      params: Type.Object({ id: UUID, resultId: UUID }), querystring: ManifestQuery, response: responses({ 200: ref('AssetManifest') }),
    },
  }, async (req) => {
    const owner = { testSessionId: req.params.id };
    const result = await resultOf(req.principal.accountId, owner, req.params.resultId);
    return toAssetManifest(owner, result, (file) => `/v1/test-sessions/${req.params.id}/results/${req.params.resultId}/assets/${file}`, req.query);
  });

  app.get('/v1/test-sessions/:id/results/:resultId/assets/:file', {
    schema: {
      operationId: 'getTestSessionResultAsset', tags: ['Test sessions'], summary: 'Download a file (screenshot) of a test session result',
      params: Type.Object({ id: UUID, resultId: UUID, file: FILE }),
      response: responses({ 200: nonJson('The file', ['image/png', 'image/jpeg', 'application/octet-stream'], { type: 'string', format: 'binary' }) }),
    },
    config: routeRateLimit(config, 60),
  }, async (req, reply) => sendFile(reply, await resultOf(req.principal.accountId, { testSessionId: req.params.id }, req.params.resultId), req.params.file));

  app.get('/v1/check-results/:checkId/:checkResultId/assets', {
    schema: {
      operationId: 'listCheckResultAssets', tags, summary: 'The assets of a check result (checkly assets list)',
      params: Type.Object({ checkId: UUID, checkResultId: UUID }), querystring: ManifestQuery, response: responses({ 200: ref('AssetManifest') }),
    },
  }, async (req) => {
    const owner = { checkId: req.params.checkId };
    const result = await resultOf(req.principal.accountId, owner, req.params.checkResultId);
    return toAssetManifest(owner, result, (file) => `/v1/check-results/${req.params.checkId}/${req.params.checkResultId}/assets/${file}`, req.query);
  });
}
