import { createHash, randomBytes } from 'node:crypto';

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
