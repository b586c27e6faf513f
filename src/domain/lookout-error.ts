import type { IssueCode } from './issue-code.js';

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
  /** The database does not answer (restart, failover, network): retry later. */
  | 'DATABASE_UNAVAILABLE'
  /** The database's disk is full: nothing more can be written until space is freed. */
  | 'STORAGE_FULL'
  | 'INTERNAL';

/** Where invalid input came from, in the words of conventions.md. */
export type InputSource = 'payload' | 'query' | 'params' | 'headers';

/** One bad field: its key (dotted path), why, and what kind of problem it is (INVALID when not said). */
export interface Issue {
  key: string;
  message: string;
  code?: IssueCode;
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

/** Issues an error message lists at most when the caller does not say (`LOOKOUT_MAX_ERROR_ISSUES`). */
export const DEFAULT_MAX_ISSUES = 20;

/**
 * The issues with one entry per key (the first), at most `max` of them, and how many other keys
 * had issues: an answer stays small however many items of a list are wrong.
 */
export function boundIssues(issues: readonly Issue[], max: number = DEFAULT_MAX_ISSUES): { issues: Issue[]; omitted: number } {
  const seen = new Set<string>();
  const kept: Issue[] = [];
  let omitted = 0;
  for (const issue of issues) {
    if (seen.has(issue.key)) continue;
    seen.add(issue.key);
    if (kept.length < max) kept.push(issue);
    else omitted++;
  }
  return { issues: kept, omitted };
}

/** One sentence per issue (`"request.port" must be <= 65535`), bounded as boundIssues does. */
export function describeIssues(issues: readonly Issue[], max: number = DEFAULT_MAX_ISSUES, omittedBefore = 0): string {
  const bounded = boundIssues(issues, max);
  const omitted = bounded.omitted + omittedBefore;
  const sentences = bounded.issues.map((i) => (i.key === '(root)' ? `body ${i.message}` : `"${i.key}" ${i.message}`));
  if (omitted > 0) sentences.push(`${omitted} more invalid ${omitted === 1 ? 'key is' : 'keys are'} not listed`);
  return sentences.join('. ');
}

/**
 * A VALIDATION error naming the bad keys: every issue is kept (the edge lists as many as it is set
 * to), the message names a bounded number of them. `omittedBefore` counts issues already dropped.
 */
export function validationError(issues: readonly Issue[], source: InputSource = 'payload', omittedBefore = 0): LookoutError {
  return new LookoutError('VALIDATION', describeIssues(issues, DEFAULT_MAX_ISSUES, omittedBefore), {
    issues: [...issues], source, attributes: omittedBefore > 0 ? { omittedIssues: omittedBefore } : undefined,
  });
}

/** Throws a VALIDATION error naming the bad keys, when there are any. */
export function assertValid(issues: Issue[], source: InputSource = 'payload'): void {
  if (issues.length === 0) return;
  throw validationError(issues, source);
}

export function notFound(what: string, id: unknown): LookoutError {
  return new LookoutError('NOT_FOUND', `${what} ${String(id)} not found`);
}

export function isLookoutError(err: unknown): err is LookoutError {
  return err instanceof LookoutError;
}
