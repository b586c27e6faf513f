import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LookoutError } from '../domain/lookout-error.js';

/** Content-Encodings a request body may come in (the checkly CLI gzips its deploy and test bodies). */
const DECODERS: Record<string, () => Gunzip | ReturnType<typeof createInflate> | ReturnType<typeof createBrotliDecompress>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** A decoded body stream as Fastify wants it back from preParsing: it counts the bytes received on the wire. */
type DecodedStream = Readable & { receivedEncodedLength?: number };

/**
 * Accepts request bodies sent with `Content-Encoding: gzip` (or deflate, br) on every route. The body
 * is inflated as it streams, and Fastify's body limit applies to the inflated bytes, so a small
 * compression bomb is cut off with 413 after `bodyLimit` bytes rather than filling memory; a body
 * that is not valid in its encoding is a 400; an encoding not listed here is a 415.
 */
export function decodeRequestBodies(app: FastifyInstance): void {
  app.addHook('preParsing', async (req: FastifyRequest, _reply, payload) => {
    const header = req.headers['content-encoding'];
    if (!header) return payload;
    const encodings = String(header).toLowerCase().split(',').map((e) => e.trim()).filter((e) => e && e !== 'identity');
    if (encodings.length === 0) return payload;
    if (encodings.length > 1 || !DECODERS[encodings[0]!]) {
      throw new LookoutError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding "${header}" is not supported: send the body as is, or gzip, deflate or br`);
    }
    const decoder = DECODERS[encodings[0]!]!();
    const decoded = decoder as unknown as DecodedStream;
    decoded.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => {
      decoded.receivedEncodedLength! += chunk.length;
    });
    payload.on('error', (err) => decoder.destroy(err));
    // Truncated or corrupt input: a client error, said in the conventions.md shape (http-errors.ts maps the code).
    decoder.on('error', (err: Error & { code?: string }) => {
      if (!(err as { statusCode?: number }).statusCode) Object.assign(err, { statusCode: 400, message: `The request body is not valid ${encodings[0]}: ${err.message}` });
    });
    // Fastify stops reading past its limit but would let the decoder go on inflating the rest of a
    // bomb; the decoder stops itself at the same limit.
    const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1_048_576;
    let inflated = 0;
    decoder.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
      if (inflated > limit) {
        payload.unpipe(decoder);
        decoder.destroy(Object.assign(new Error(`The request body is larger than ${limit} bytes once inflated`), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }));
      }
    });
    payload.pipe(decoder);
    return decoded;
  });
}
