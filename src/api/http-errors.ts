import type { FastifyError, FastifyInstance } from 'fastify';
import { boundIssues, describeIssues, DEFAULT_MAX_ISSUES, isLookoutError, type ErrorCode, type LookoutError } from '../domain/lookout-error.js';

/** HTTP status per stable error code: the only place codes become statuses. */
export const STATUS_OF: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
  STORAGE_FULL: 507,
};

/** Reason phrases as conventions.md spells them (408 is "Request Time-out"). */
export const REASON: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 406: 'Not Acceptable', 408: 'Request Time-out', 409: 'Conflict',
  413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 501: 'Not Implemented',
  502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Time-out', 507: 'Insufficient Storage',
};

/** The error body every route answers with. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /**
   * 400 only: the invalid keys (each once, at most `LOOKOUT_MAX_ERROR_ISSUES`), each key's own
   * message in `issues`, and how many more invalid keys there were in `omitted`.
   */
  validation?: { source: string; keys: string[]; issues: { key: string; message: string; code: string }[]; omitted: number };
  attributes?: Record<string, unknown>;
}

export function errorBody(statusCode: number, message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { statusCode, error: REASON[statusCode] ?? 'Error', message, ...extra };
}

/** Options of installErrorHandling. */
export interface ErrorHandlingOptions {
  /** Invalid keys a 400 lists at most (`LOOKOUT_MAX_ERROR_ISSUES`). */
  maxIssues?: number;
}

/** The 400 body of a VALIDATION error: its keys and message bounded, whatever size the input had. */
function validationBody(err: LookoutError, maxIssues: number): Partial<ErrorBody> & { message: string } {
  const omittedBefore = Number(err.attributes?.omittedIssues ?? 0);
  const bounded = boundIssues(err.issues, maxIssues);
  const omitted = bounded.omitted + omittedBefore;
  // Messages of a few keys are kept as written (some say more than the issue list); long lists are summarised.
  const summarised = omitted > 0 || bounded.issues.length > DEFAULT_MAX_ISSUES || err.message.length > 4096;
  const message = summarised ? describeIssues(bounded.issues, maxIssues, omitted) : err.message;
  return {
    message,
    validation: {
      source: err.source ?? 'payload', keys: bounded.issues.map((i) => i.key), issues: bounded.issues.map(({ key, message, code }) => ({ key, message, code: code ?? 'INVALID' })), omitted,
    },
  };
}

/** Installs the error and not-found handlers that give every failure the conventions.md shape. */
export function installErrorHandling(app: FastifyInstance, { maxIssues = DEFAULT_MAX_ISSUES }: ErrorHandlingOptions = {}): void {
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send(errorBody(404, `Route ${req.method}:${req.url.split('?')[0]} not found`));
  });

  app.setErrorHandler((err: FastifyError | Record<string, any>, req, reply) => {
    if (isLookoutError(err)) {
      const status = STATUS_OF[err.code];
      if (err.retryAfter != null) reply.header('Retry-After', String(err.retryAfter));
      if (err.code === 'VALIDATION') {
        const { message, ...extra } = validationBody(err, maxIssues);
        return reply.code(status).send(errorBody(status, message, extra));
      }
      const extra: Partial<ErrorBody> = {};
      if (err.attributes) extra.attributes = err.attributes;
      // The database away or full is the operator's to see once in its own logs, not an error per request.
      if (status === 503 || status === 507) req.log.warn({ err: err.message, code: err.code }, 'request refused: database unavailable or full');
      else if (status >= 500) req.log.error({ err }, 'request failed');
      return reply.code(status).send(errorBody(status, err.message, extra));
    }
    // Already shaped (the rate limiter throws its 429 body).
    if (!(err instanceof Error) && typeof err.statusCode === 'number' && typeof err.error === 'string') {
      return reply.code(err.statusCode).send(err);
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'unexpected error');
      return reply.code(500).send(errorBody(500, 'An internal server error occurred'));
    }
    const message = err.code === 'FST_ERR_CTP_INVALID_JSON' || err.name === 'SyntaxError'
      ? 'Body is not valid JSON'
      : String(err.message ?? REASON[status]);
    const extra: Partial<ErrorBody> = status === 400 ? { validation: { source: 'payload', keys: [], issues: [], omitted: 0 } } : {};
    return reply.code(status).send(errorBody(status, message, extra));
  });
}
