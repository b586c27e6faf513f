import type { FastifyReply, FastifyRequest } from 'fastify';

/** Request errors a legacy `application/json` client expects with status 200 (GraphQL over HTTP, §7.1.1). */
const LEGACY_200_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT']);

/**
 * Fastify `onSend` hook of /graphql: an `application/json` answer (the client did not ask for
 * `application/graphql-response+json`) to a document that does not parse or validate, or to variables
 * that do not coerce, keeps status 200 as the GraphQL over HTTP spec says for that media type; Apollo
 * answers 400 for every media type. Other 400s (malformed requests, CSRF, the operation limits) stay.
 */
export async function legacyJsonStatus(_req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode !== 400 || typeof payload !== 'string') return payload;
  const contentType = String(reply.getHeader('content-type') ?? '');
  if (!contentType.startsWith('application/json')) return payload;
  try {
    const body = JSON.parse(payload) as { data?: unknown; errors?: { extensions?: { code?: unknown } }[] };
    const codes = body.errors?.map((e) => e.extensions?.code);
    if (!('data' in body) && codes?.length && codes.every((c) => typeof c === 'string' && LEGACY_200_CODES.has(c))) reply.code(200);
  } catch {
    // Not a GraphQL answer: left as it is.
  }
  return payload;
}
