import type { Logger } from 'pino';
import { scrubDeep, type Scrubber } from '../domain/scrub-secrets.js';

/**
 * A child of `logger` that scrubs what it writes: every value of a line's object, errors
 * included (their message, stack, cause and own fields). The message argument is not scrubbed:
 * the runner logs fixed messages and puts what a run produced in the object.
 */
export function scrubbingLogger(logger: Logger, scrub: Scrubber): Logger {
  return logger.child({}, {
    formatters: {
      log: (obj) => Object.fromEntries(Object.entries(obj).map(([key, value]) => [scrub(key), scrubValue(value, scrub)])),
    },
  });
}

function scrubValue(value: unknown, scrub: Scrubber): unknown {
  if (value instanceof Error) return scrubbedError(value, scrub);
  // AggregateError keeps its errors in a list.
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, scrub));
  return scrubDeep(value, scrub);
}

/** A copy of `err` of the same class (the logger names it), every own field scrubbed. */
function scrubbedError(err: Error, scrub: Scrubber): Error {
  const copy = Object.create(Object.getPrototypeOf(err)) as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(err)) copy[key] = scrubValue((err as unknown as Record<string, unknown>)[key], scrub);
  return copy as unknown as Error;
}
