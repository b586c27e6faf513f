import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLError } from 'graphql';
import type { CallerVerifier } from './create-caller-verifier.js';
import { codedError, RestError, type GraphqlErrorCode } from './errors.js';
import { bodyTooLargeError, maxBodyBytes, requestSizeError, type RequestSizeLimits } from './request-size-error.js';

/**
 * Answers a request with one GraphQL-shaped error (`{errors: [{message, extensions}]}`) and the HTTP
 * status of its `extensions.http`, in the media type the client accepts, as Apollo would.
 */
function sendError(req: FastifyRequest, reply: FastifyReply, error: GraphQLError): FastifyReply {
  const { http, ...extensions } = error.extensions as { http?: { status?: number }; retryAfter?: unknown };
  const accept = String(req.headers.accept ?? '');
  const type = accept.includes('application/graphql-response+json') ? 'application/graphql-response+json' : 'application/json';
  if (typeof extensions.retryAfter === 'number') reply.header('Retry-After', String(extensions.retryAfter));
  return reply.code(http?.status ?? 400).type(`${type}; charset=utf-8`).send(JSON.stringify({ errors: [{ message: error.message, extensions }] }));
}

/** What a failed verification answers: the REST API's refusal as it is; any other failure as an unavailable backend. */
function refusal(err: unknown): GraphQLError {
  if (err instanceof RestError && (err.status === 401 || err.status === 403)) {
    return codedError(err.extensions.code as GraphqlErrorCode, err.message, { http: { status: err.status } });
  }
  // The backend's database away or full: its own code and status, so the caller knows to retry.
  if (err instanceof RestError && (err.extensions.code === 'DATABASE_UNAVAILABLE' || err.extensions.code === 'STORAGE_FULL')) {
    return codedError(err.extensions.code, err.message, { ...err.extensions, http: { status: err.status } });
  }
  return codedError('BACKEND_UNAVAILABLE', 'The REST backend is unavailable', { http: { status: 503 } });
}

/**
 * Fastify hooks of the /graphql route that decide what they can before an operation's document is
 * parsed, cheapest first:
 * - `onRequest` (headers known, body unread): a request carrying an Authorization header is verified
 *   with the REST API; one the API refuses is answered UNAUTHENTICATED (401) or FORBIDDEN (403) at
 *   once. Without the header the request goes on, and Apollo refuses it as before (after its CSRF
 *   check; browsers' GETs of the landing page carry none).
 * - `bodyLimit` and `errorHandler`: a body larger than both size limits and some slack is not read
 *   past that size and answered REQUEST_TOO_LARGE (413).
 * - `preHandler` (body read, document unparsed): a document or variables over their limit is
 *   answered DOCUMENT_TOO_LARGE or VARIABLES_TOO_LARGE (413), variables nested too deep
 *   VARIABLES_TOO_DEEP (400); then the document is parsed with its token limit and checked
 *   against the limits that bound validation (createDocumentGuard: 400 with the limit's code).
 */
export function createGraphqlRouteGuard({ verify, limits, checkDocument }: {
  verify: CallerVerifier;
  limits: RequestSizeLimits;
  /** The document's own limits (createDocumentGuard), once its size is known to be within them. */
  checkDocument?: (query: unknown) => GraphQLError | null;
}) {
  return {
    bodyLimit: maxBodyBytes(limits),
    async onRequest(req: FastifyRequest, reply: FastifyReply) {
      if (req.method === 'OPTIONS' || (!req.headers.authorization && !req.headers.cookie)) return;
      try {
        await verify(req.headers);
      } catch (err) {
        return sendError(req, reply, refusal(err));
      }
    },
    async preHandler(req: FastifyRequest, reply: FastifyReply) {
      const params = req.method === 'GET' ? req.query : req.body;
      // A batch (which Apollo refuses unless enabled) is measured operation by operation.
      for (const operation of Array.isArray(params) ? params : [params]) {
        if (!operation || typeof operation !== 'object') continue;
        const { query, variables } = operation as { query?: unknown; variables?: unknown };
        const error = requestSizeError({ query, variables }, limits) ?? checkDocument?.(query) ?? null;
        if (error) return sendError(req, reply, error);
      }
    },
    errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(req, reply, bodyTooLargeError(limits));
      // Anything else is the app's to answer (its error handler is this one's parent).
      throw err;
    },
  };
}
