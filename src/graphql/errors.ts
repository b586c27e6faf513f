import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import type { Logger } from 'pino';
import type { RestErrorBody } from './rest-types.js';
import { DEFAULT_MAX_ERROR_ISSUES, MAX_MESSAGE_CHARS, truncate, validationIssues, type ValidationIssue } from './validation-issues.js';

/** Codes a GraphQL error of this layer carries in `extensions.code`. */
export type GraphqlErrorCode =
  | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'RATE_LIMITED' | 'BAD_USER_INPUT' | 'CONFLICT'
  | 'PAYMENT_REQUIRED' | 'BACKEND_UNAVAILABLE' | 'REST_BUDGET_EXCEEDED'
  // The backend answers but its database is away (503) or full (507): the REST code passes through.
  | 'DATABASE_UNAVAILABLE' | 'STORAGE_FULL'
  // Refused before the document is parsed (HTTP 413): see request-size-error.ts.
  | 'DOCUMENT_TOO_LARGE' | 'VARIABLES_TOO_LARGE' | 'REQUEST_TOO_LARGE'
  // Refused before parsing, at parse time or before validation (HTTP 400): see request-size-error.ts
  // and document-limit-error.ts.
  | 'VARIABLES_TOO_DEEP' | 'TOO_MANY_TOKENS' | 'TOO_MANY_FRAGMENTS' | 'TOO_MANY_REPEATED_FIELDS' | 'FRAGMENT_CYCLE';

const CODE_OF_STATUS: Record<number, GraphqlErrorCode> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
};

/**
 * A failed REST call, already shaped as the GraphQL error it becomes; keeps the status and body for
 * mutations. A 400's invalid keys are read once here, bounded: `issues` (at most `maxIssues`, each key
 * once with its own message) and `omitted` (how many more there were); `extensions.validationKeys`
 * lists the keys of `issues` and `extensions.omittedValidationKeys` the count of the others.
 */
export class RestError extends GraphQLError {
  readonly status: number;
  readonly body: RestErrorBody | undefined;
  readonly issues: ValidationIssue[];
  readonly omitted: number;

  constructor(status: number, body: RestErrorBody | undefined, retryAfter?: number, { maxIssues = DEFAULT_MAX_ERROR_ISSUES }: { maxIssues?: number } = {}) {
    const code: GraphqlErrorCode = storeCodeOf(status, body)
      ?? (status === 0 || status >= 500 ? 'BACKEND_UNAVAILABLE' : CODE_OF_STATUS[status] ?? 'BAD_USER_INPUT');
    // Backend failures say nothing about the backend's internals; 4xx messages (and the store's coded ones) are written for callers.
    const restMessage = typeof body?.message === 'string' ? truncate(body.message, MAX_MESSAGE_CHARS) : undefined;
    const message = code === 'BACKEND_UNAVAILABLE' ? 'The REST backend is unavailable' : restMessage ?? `REST call failed with status ${status}`;
    const extensions: Record<string, unknown> = { code };
    const reason = refusalReasonOf(status, body);
    if (reason) extensions.reason = reason;
    if ((code === 'RATE_LIMITED' || code === 'DATABASE_UNAVAILABLE') && retryAfter !== undefined) extensions.retryAfter = retryAfter;
    const { issues, omitted } = code === 'BAD_USER_INPUT' ? validationIssues(body, maxIssues) : { issues: [], omitted: 0 };
    if (code === 'BAD_USER_INPUT' && body?.validation) {
      extensions.validationKeys = issues.map((i) => i.key);
      if (omitted > 0) extensions.omittedValidationKeys = omitted;
    }
    super(message, { extensions });
    this.status = status;
    this.body = body;
    this.issues = issues;
    this.omitted = omitted;
  }
}

/** REST refusals whose own code (`attributes.code`) a caller acts on: 403, 404 and 409. */
const REASONED_STATUSES = new Set([403, 404, 409]);

/**
 * REST's own code of a refusal (`LAST_OWNER`, `ALREADY_MEMBER`, `ROLE_FORBIDS`, …), kept as
 * `extensions.reason`: `extensions.code` only says CONFLICT or FORBIDDEN, and a client must tell
 * "make someone else owner first" from "already a member" without parsing messages. Only short
 * upper-case codes pass, so nothing but REST's declared codes reaches the caller.
 */
function refusalReasonOf(status: number, body: RestErrorBody | undefined): string | undefined {
  const code = body?.attributes?.code;
  return REASONED_STATUSES.has(status) && typeof code === 'string' && /^[A-Z][A-Z_]{0,63}$/.test(code) ? code : undefined;
}

/** The store's own code of a 503 (database away) or 507 (disk full), as the REST body's attributes carry it. */
function storeCodeOf(status: number, body: RestErrorBody | undefined): GraphqlErrorCode | undefined {
  const code = body?.attributes?.code;
  if (status === 503 && code === 'DATABASE_UNAVAILABLE') return 'DATABASE_UNAVAILABLE';
  if (status === 507 && code === 'STORAGE_FULL') return 'STORAGE_FULL';
  return undefined;
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
