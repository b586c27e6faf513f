import type { Issue } from './lookout-error.js';

/** Bounds on the JSON values a request may carry into the store. */
export interface StorableInputOptions {
  /** Deepest nesting of arrays and objects; the root container is at depth 1. */
  maxDepth: number;
}

/** The issues found, and how many more there were. */
export interface UnstorableInput {
  /** At most `maxIssues` issues, one per key, in document order. */
  issues: Issue[];
  /** Issues found beyond `maxIssues`. */
  omitted: number;
}

// PostgreSQL text and jsonb hold neither NUL nor a UTF-16 surrogate without its pair (no UTF-8 form).
const NUL_OR_LONE_SURROGATE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Why a string cannot be stored, or null when it can. */
export function unstorableStringMessage(text: string): string | null {
  if (!NUL_OR_LONE_SURROGATE.test(text)) return null;
  return text.includes('\u0000')
    ? 'must not contain a NUL character (\\u0000): it cannot be stored'
    : 'must not contain an unpaired UTF-16 surrogate (such as \\ud800): it is not valid Unicode';
}

/** A key as it can be shown in an error: NULs and lone surrogates replaced by U+FFFD. */
function printableKey(key: string): string {
  return key.replace(/\u0000/g, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Finds what in a parsed JSON value (a request body, query or path parameters) the store would
 * refuse or mangle: strings and object keys with NUL characters or unpaired surrogates, numbers
 * that are not finite (`1e999` parses to Infinity and would be stored as null), and containers
 * nested deeper than `maxDepth` (which would also exhaust the stack of recursive code after it).
 * Keys are dotted paths as validation names them (`request.headers.0.value`); the walk is linear in
 * the size of the value and never deeper than `maxDepth`.
 */
export function unstorableInputIssues(value: unknown, options: StorableInputOptions & { maxIssues: number }): UnstorableInput {
  const issues: Issue[] = [];
  let omitted = 0;
  const report = (path: readonly string[], message: string) => {
    if (issues.length < options.maxIssues) issues.push({ key: path.length ? path.join('.') : '(root)', message });
    else omitted++;
  };
  const path: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      const message = unstorableStringMessage(v);
      if (message) report(path, message);
      return;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) report(path, 'must be a finite number');
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (depth > options.maxDepth) {
      report(path, `is nested deeper than ${options.maxDepth} levels`);
      return;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(String(i));
        walk(v[i], depth + 1);
        path.pop();
      }
      return;
    }
    for (const [key, item] of Object.entries(v)) {
      path.push(printableKey(key));
      const keyMessage = unstorableStringMessage(key);
      if (keyMessage) report(path, `has a name that ${keyMessage.replace(/^must not/, 'does not fit:')}`);
      walk(item, depth + 1);
      path.pop();
    }
  };
  walk(value, 1);
  return { issues, omitted };
}
