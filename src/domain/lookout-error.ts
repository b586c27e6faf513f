/** Stable error codes; mapped to HTTP statuses and GraphQL codes only at the edges. */
export type ErrorCode =
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYMENT_REQUIRED'
  | 'RATE_LIMITED'
  | 'TIMEOUT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL';

/** Where invalid input came from, in the words of conventions.md. */
export type InputSource = 'payload' | 'query' | 'params' | 'headers';

/** One bad field: its key (dotted path) and why. */
export interface Issue {
  key: string;
  message: string;
}

/** An expected failure with a stable code; anything else is an internal error. */
export class LookoutError extends Error {
  readonly code: ErrorCode;
  readonly issues: Issue[];
  readonly source: InputSource | undefined;
  /** Seconds after which a retry may succeed (rate limits, long polls). */
  readonly retryAfter: number | undefined;
  readonly attributes: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { issues?: Issue[]; source?: InputSource; retryAfter?: number; attributes?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'LookoutError';
    this.code = code;
    this.issues = extra.issues ?? [];
    this.source = extra.source;
    this.retryAfter = extra.retryAfter;
    this.attributes = extra.attributes;
  }
}

/** Throws a VALIDATION error naming every bad key, when there are any. */
export function assertValid(issues: Issue[], source: InputSource = 'payload'): void {
  if (issues.length === 0) return;
  const message = issues.map((i) => `"${i.key}" ${i.message}`).join('. ');
  throw new LookoutError('VALIDATION', message, { issues, source });
}

export function notFound(what: string, id: unknown): LookoutError {
  return new LookoutError('NOT_FOUND', `${what} ${String(id)} not found`);
}

export function isLookoutError(err: unknown): err is LookoutError {
  return err instanceof LookoutError;
}
