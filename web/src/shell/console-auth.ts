import { authHeaders, connectionParams, type Credentials } from './credentials.js';

/** Header naming the session's CSRF token: a write made with the cookie alone is refused (403 CSRF). */
export const CSRF_HEADER = 'x-lookout-csrf';
/** Header the audit log reads to say a change was made in the console. */
export const VIA_HEADER = 'x-lookout-via';

/**
 * How the console authenticates: a person's session (the HttpOnly cookie, which the browser sends
 * by itself, and the CSRF token read with the session) or an API key kept in local storage.
 */
export type ConsoleAuth =
  | { kind: 'key'; credentials: Credentials }
  | { kind: 'session'; csrfToken: string; accountId: string };

/** The headers of every HTTP request (GraphQL and REST) made with `auth`. */
export function consoleHeaders(auth: ConsoleAuth): Record<string, string> {
  if (auth.kind === 'key') return { ...authHeaders(auth.credentials), [VIA_HEADER]: 'console' };
  return { [CSRF_HEADER]: auth.csrfToken, 'x-lookout-account': auth.accountId, [VIA_HEADER]: 'console' };
}

/** The graphql-ws connection_init payload: the key, or the session's CSRF token (the upgrade request carries the cookie). */
export function consoleSocketParams(auth: ConsoleAuth): Record<string, string> {
  if (auth.kind === 'key') return connectionParams(auth.credentials);
  return { csrfToken: auth.csrfToken, accountId: auth.accountId };
}
