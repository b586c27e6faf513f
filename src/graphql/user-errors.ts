import { RestError } from './errors.js';

/** A problem with a mutation's input, from a REST 400 answer. */
export interface UserError {
  field: string | null;
  code: string;
  message: string;
}

/**
 * Runs a write; a REST 400 becomes userErrors (one per `validation.keys` entry, dotted paths as the
 * REST API names them) and nothing was written; any other failure stays a GraphQL error.
 */
export async function withUserErrors<T>(write: () => Promise<T>): Promise<{ value: T | null; userErrors: UserError[] }> {
  try {
    return { value: await write(), userErrors: [] };
  } catch (err) {
    if (!(err instanceof RestError) || err.status !== 400) throw err;
    const message = err.body?.message ?? 'Invalid input';
    const keys = err.body?.validation?.keys ?? [];
    const userErrors = keys.length > 0
      ? keys.map((field) => ({ field, code: 'BAD_USER_INPUT', message }))
      : [{ field: null, code: 'BAD_USER_INPUT', message }];
    return { value: null, userErrors };
  }
}
