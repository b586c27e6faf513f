import { GraphQLError } from 'graphql';
import { jsonDepthExceeds, jsonTextDepthExceeds } from './json-depth-exceeds.js';

/** How large an operation may be, checked before its document is parsed. */
export interface RequestSizeLimits {
  /** Bytes (UTF-8) of the document (`GRAPHQL_MAX_DOCUMENT_BYTES`). */
  maxDocumentBytes: number;
  /** Bytes of the variables as JSON (`GRAPHQL_MAX_VARIABLES_BYTES`). */
  maxVariablesBytes: number;
  /**
   * Deepest nesting of arrays and objects in the variables, the variables object at depth 1
   * (`LOOKOUT_MAX_JSON_DEPTH` + 1: an input variable is the body of the REST call it makes).
   */
  maxVariablesDepth: number;
}

/** The limits when the configuration does not say (100 KiB of document, 1 MiB of variables, 33 levels). */
export const DEFAULT_REQUEST_SIZE_LIMITS: RequestSizeLimits = { maxDocumentBytes: 100 * 1024, maxVariablesBytes: 1024 * 1024, maxVariablesDepth: 33 };

/** Deepest variables an operation may send: a REST body's depth (`LOOKOUT_MAX_JSON_DEPTH`), plus the variables object around it. */
export function variablesDepthLimit(maxJsonDepth: number | undefined): number {
  return maxJsonDepth === undefined ? DEFAULT_REQUEST_SIZE_LIMITS.maxVariablesDepth : maxJsonDepth + 1;
}

/** Bytes of a request body beyond the document and variables limits: the envelope, the operation name, APQ extensions. */
export const BODY_SLACK_BYTES = 64 * 1024;

/** The largest request body one operation may need: both limits and the slack. */
export function maxBodyBytes(limits: RequestSizeLimits): number {
  return limits.maxDocumentBytes + limits.maxVariablesBytes + BODY_SLACK_BYTES;
}

function tooLarge(code: string, what: string, value: number, limit: number): GraphQLError {
  return new GraphQLError(`${what} ${value} bytes; at most ${limit} are allowed`, { extensions: { code, limit, value, http: { status: 413 } } });
}

/** Whether `variables` (parsed, or a GET's JSON text) nest deeper than `maxDepth`, found without recursion. */
function variablesTooDeep(variables: unknown, maxDepth: number): boolean {
  return typeof variables === 'string' ? jsonTextDepthExceeds(variables, maxDepth) : jsonDepthExceeds(variables, maxDepth);
}

/** Bytes of `variables` as JSON: a GET's variables are already JSON text, a POST's were parsed from it. */
function variablesBytes(variables: unknown): number {
  if (variables === undefined || variables === null) return 0;
  if (typeof variables === 'string') return Buffer.byteLength(variables, 'utf8');
  return Buffer.byteLength(JSON.stringify(variables) ?? '', 'utf8');
}

/**
 * Refuses an operation whose document or variables are larger than the limits, with the coded error
 * DOCUMENT_TOO_LARGE or VARIABLES_TOO_LARGE (HTTP 413, `limit` and `value` in bytes), or whose
 * variables nest too deep, VARIABLES_TOO_DEEP (HTTP 400); null when within all. Called on the request as received, before the document is parsed: the work an operation may
 * cause begins with parsing, and parsing is linear in the document's size. An operation sent as an
 * APQ hash alone has no document to measure.
 */
export function requestSizeError(request: { query?: unknown; variables?: unknown }, limits: RequestSizeLimits): GraphQLError | null {
  if (typeof request.query === 'string' && request.query.length > 0) {
    const bytes = Buffer.byteLength(request.query, 'utf8');
    if (bytes > limits.maxDocumentBytes) return tooLarge('DOCUMENT_TOO_LARGE', 'The document has', bytes, limits.maxDocumentBytes);
  }
  // Before anything serializes or coerces them: both recurse, and a value nested 10,000 deep
  // (used or not) would exhaust the stack.
  if (variablesTooDeep(request.variables, limits.maxVariablesDepth)) {
    return new GraphQLError(`The variables are nested deeper than ${limits.maxVariablesDepth} levels`, {
      extensions: { code: 'VARIABLES_TOO_DEEP', limit: limits.maxVariablesDepth, http: { status: 400 } },
    });
  }
  const bytes = variablesBytes(request.variables);
  if (bytes > limits.maxVariablesBytes) return tooLarge('VARIABLES_TOO_LARGE', 'The variables have (as JSON)', bytes, limits.maxVariablesBytes);
  return null;
}

/**
 * A request body larger than any one operation may need (maxBodyBytes), refused while it is read
 * (REQUEST_TOO_LARGE, HTTP 413): which of document and variables is too large is not known unread.
 */
export function bodyTooLargeError(limits: RequestSizeLimits): GraphQLError {
  const limit = maxBodyBytes(limits);
  return new GraphQLError(
    `The request body is larger than ${limit} bytes: documents may have ${limits.maxDocumentBytes} bytes and variables ${limits.maxVariablesBytes}`,
    { extensions: { code: 'REQUEST_TOO_LARGE', limit, http: { status: 413 } } },
  );
}
