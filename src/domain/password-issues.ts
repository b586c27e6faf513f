import type { Issue } from './lookout-error.js';

/** Shortest password accepted: long enough that a memory-hard hash makes guessing it hopeless offline. */
export const PASSWORD_MIN = 10;
/** Longest password accepted (a hash of megabytes would be a denial of service). */
export const PASSWORD_MAX = 200;

/** What is wrong with a new password, as one issue on `key`, or none. */
export function passwordIssues(password: string, key = 'password'): Issue[] {
  if (password.length < PASSWORD_MIN) return [{ key, message: `must be at least ${PASSWORD_MIN} characters` }];
  if (password.length > PASSWORD_MAX) return [{ key, message: `must be at most ${PASSWORD_MAX} characters` }];
  if (!/\S/.test(password)) return [{ key, message: 'must not be only spaces' }];
  return [];
}
