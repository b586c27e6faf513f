import { createHash, randomBytes } from 'node:crypto';
import { isSameSecret } from './is-same-secret.js';
import { LookoutError } from './lookout-error.js';

/** Name of the console's session cookie. */
export const SESSION_COOKIE = 'lookout_session';

/** Header a cookie-authenticated write must carry, holding the session's CSRF token. */
export const CSRF_HEADER = 'x-lookout-csrf';

/** A new random token (sessions, invitations, password resets): 32 bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a token: its sha-256 (32 random bytes need no salt). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The Set-Cookie value of a session: HttpOnly (no script reads it), SameSite=Lax (other sites'
 * forms and requests do not carry it), Secure when the console is served over https.
 */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Expires=${expiresAt.toUTCString()}${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT${secure ? '; Secure' : ''}`;
}

/**
 * Refuses (403 `CSRF`) a cookie-authenticated request whose CSRF header is missing or is not the
 * session's token: a cookie alone, which another site's page can make a browser send, proves nothing.
 */
export function checkCsrf(sent: string | string[] | undefined, expected: string): void {
  if (typeof sent !== 'string' || !isSameSecret(sent, expected)) {
    throw new LookoutError('FORBIDDEN', `A signed-in write must carry the session's ${CSRF_HEADER} header`, { attributes: { code: 'CSRF' } });
  }
}
