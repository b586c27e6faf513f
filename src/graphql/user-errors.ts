import { RestError } from './errors.js';

/** A problem with a mutation's input, from a REST 400 answer. */
export interface UserError {
  field: string | null;
  code: string;
  message: string;
  /** What kind of problem the field has (REQUIRED, TOO_SHORT, NOT_ALLOWED, …), from the REST issue; null when not known. */
  reason?: string | null;
}

/** Code of the last userError when the REST API named more invalid fields than are listed. */
export const TOO_MANY_ERRORS = 'TOO_MANY_ERRORS';

/**
 * Runs a write; a REST 400 becomes userErrors and nothing was written; any other failure stays a
 * GraphQL error. Each invalid key is one `BAD_USER_INPUT` userError with its own message and the REST
 * issue's code as `reason` (dotted paths
 * as the REST API names them), at most `LOOKOUT_MAX_ERROR_ISSUES` of them (RestError bounds them);
 * when there were more, a last `{field: null, code: TOO_MANY_ERRORS}` says how many were not listed.
 * A 400 naming no key is one userError with the REST message. However long the invalid list was, the
 * answer stays small.
 */
export async function withUserErrors<T>(write: () => Promise<T>): Promise<{ value: T | null; userErrors: UserError[] }> {
  try {
    return { value: await write(), userErrors: [] };
  } catch (err) {
    if (!(err instanceof RestError) || err.status !== 400) throw err;
    const userErrors: UserError[] = err.issues.length > 0
      ? err.issues.map(({ key, message, code }) => ({ field: key, code: 'BAD_USER_INPUT', message, reason: code ?? null }))
      : [{ field: null, code: 'BAD_USER_INPUT', message: err.message }];
    if (err.omitted > 0) {
      userErrors.push({ field: null, code: TOO_MANY_ERRORS, message: `${err.omitted} more invalid ${err.omitted === 1 ? 'field was' : 'fields were'} not listed` });
    }
    return { value: null, userErrors };
  }
}
