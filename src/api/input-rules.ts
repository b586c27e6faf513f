import { unstorableInputIssues, type StorableInputOptions } from '../domain/unstorable-input-issues.js';
import { validationError, type InputSource, type LookoutError } from '../domain/lookout-error.js';

/** Options of createInputRules. */
export interface InputRulesOptions extends StorableInputOptions {
  /** Issues one refusal names at most. */
  maxIssues: number;
}

/** The shared edge rule over every body, query string and path of the REST API. */
export interface InputRules {
  /** The VALIDATION error refusing `value` (from `source`), or null when the store can hold all of it. */
  check(value: unknown, source: InputSource): LookoutError | null;
}

/**
 * One rule for every route, applied before validation: what the store cannot hold (NULs, unpaired
 * surrogates, non-finite numbers, nesting past `maxDepth`) is a 400 naming the key.
 */
export function createInputRules(options: InputRulesOptions): InputRules {
  return {
    check(value, source) {
      if (value === undefined || value === null || typeof value !== 'object') return null;
      const found = unstorableInputIssues(value, options);
      return found.issues.length ? validationError(found.issues, source, found.omitted) : null;
    },
  };
}
