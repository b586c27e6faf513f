import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { LookoutError } from '../domain/lookout-error.js';
import { tooLargeMessage } from '../service/create-code-bundle-store.js';
import type { Api, ApiContext } from './api-context.js';
import { ref } from '../contract/response-shape.js';
import { nonJson, responses } from '../contract/route-responses.js';
import { errorBody } from './http-errors.js';

const tags = ['Checkly storage'];

/**
 * `/next/checkly-storage/*` as the checkly CLI calls it: `upload-code-bundle` (the project archive
 * of `checkly test`), `upload` (snapshots) and `download`. Bodies stream to disk, cut off with 413
 * past the limit; keys are per account.
 */
export function checklyStorageRoutes(app: Api, { codeBundles }: ApiContext): void {
  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // The body stays a stream: the store writes it to disk and counts its bytes.
    scope.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));

    const upload = (kind: 'code-bundle' | 'file') => async (req: { principal: { accountId: string }; headers: Record<string, unknown>; body: unknown }, reply: FastifyReply) => {
      if (!codeBundles) return reply.code(501).send(errorBody(501, 'File storage is not configured on this server'));
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > codeBundles.maxBytes) throw new LookoutError('PAYLOAD_TOO_LARGE', tooLargeMessage(codeBundles.maxBytes));
      if (!req.body || typeof (req.body as Readable).pipe !== 'function') {
        throw new LookoutError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as the body, with Content-Type: application/octet-stream');
      }
      const { key } = await codeBundles.put(req.principal.accountId, kind, req.body as Readable);
      return reply.code(200).send({ key });
    };
    const uploadSchema = (operationId: string, summary: string) => ({
      operationId, tags, summary,
      description: 'The body is the file (`Content-Type: application/octet-stream`); above the size limit the answer is 413 naming it ("maximum allowed: <bytes>").',
      consumes: ['application/octet-stream'],
      response: responses({ 200: ref('StoredFile') }, 413, 415, 501),
    });

    scope.post('/next/checkly-storage/upload-code-bundle', { config: { permission: 'run' }, schema: uploadSchema('uploadCodeBundle', 'Store a code bundle (checkly test)') }, upload('code-bundle'));
    scope.post('/next/checkly-storage/upload', { config: { permission: 'run' }, schema: uploadSchema('uploadStoredFile', 'Store a file (snapshots)') }, upload('file'));

    scope.post('/next/checkly-storage/download', {
      config: { permission: 'read' },
      schema: {
        operationId: 'downloadStoredFile', tags, summary: 'Read a stored file of the account',
        body: Type.Object({ key: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false }),
        response: responses({ 200: nonJson('The file', ['application/octet-stream'], { type: 'string', format: 'binary' }) }, 404, 501),
      },
    }, async (req, reply) => {
      if (!codeBundles) return reply.code(501).send(errorBody(501, 'File storage is not configured on this server'));
      const { stream, size } = await codeBundles.open(req.principal.accountId, req.body.key);
      return reply.type('application/octet-stream').header('content-length', size).send(stream);
    });
  });
}
