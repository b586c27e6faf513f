import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import type { Logger } from 'pino';
import type { RestErrorBody } from './rest-types.js';

/** Codes a GraphQL error of this layer carries in `extensions.code`. */
export type GraphqlErrorCode =
  | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'RATE_LIMITED' | 'BAD_USER_INPUT' | 'CONFLICT'
  | 'PAYMENT_REQUIRED' | 'BACKEND_UNAVAILABLE' | 'REST_BUDGET_EXCEEDED';

const CODE_OF_STATUS: Record<number, GraphqlErrorCode> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
};

/** A failed REST call, already shaped as the GraphQL error it becomes; keeps the status and body for mutations. */
export class RestError extends GraphQLError {
  readonly status: number;
  readonly body: RestErrorBody | undefined;

  constructor(status: number, body: RestErrorBody | undefined, retryAfter?: number) {
    const code: GraphqlErrorCode = status === 0 || status >= 500 ? 'BACKEND_UNAVAILABLE' : CODE_OF_STATUS[status] ?? 'BAD_USER_INPUT';
    // Backend failures say nothing about the backend's internals; 4xx messages are written for callers.
    const message = code === 'BACKEND_UNAVAILABLE' ? 'The REST backend is unavailable' : body?.message ?? `REST call failed with status ${status}`;
    const extensions: Record<string, unknown> = { code };
    if (code === 'RATE_LIMITED' && retryAfter !== undefined) extensions.retryAfter = retryAfter;
    if (code === 'BAD_USER_INPUT' && body?.validation) extensions.validationKeys = body.validation.keys;
    super(message, { extensions });
    this.status = status;
    this.body = body;
  }
}

/** An error with a stable code the caller can act on. */
export function codedError(code: GraphqlErrorCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}

/** Codes Apollo itself gives request errors (parse, validation, variables): shown as they are. */
const APOLLO_REQUEST_CODES = new Set([
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED', 'OPERATION_RESOLUTION_FAILURE', 'BAD_REQUEST',
]);

/**
 * Apollo `formatError`: coded errors of this layer and Apollo's request errors pass; anything else
 * (a bug, a non-null violation) is logged and masked as "Internal server error".
 */
export function createErrorFormatter(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const code = formatted.extensions?.code;
    const ours = original instanceof GraphQLError && typeof original.extensions?.code === 'string' && original.extensions.code !== 'INTERNAL_SERVER_ERROR';
    if (ours || (typeof code === 'string' && APOLLO_REQUEST_CODES.has(code))) return formatted;
    logger.error({ err: original, path: formatted.path }, 'GraphQL resolver failed');
    return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
}
