/** The cookie that ties a single sign-on callback to the browser that started the login. */
export const SSO_STATE_COOKIE = 'lookout_sso';

/** Where the cookie is sent: the callback only. */
const PATH = '/v1/sso/oidc';

/**
 * The Set-Cookie value carrying a login's state: HttpOnly, SameSite=Lax (sent on the provider's
 * top-level redirect back, never on other sites' sub-requests), limited to the callback's path and
 * to `maxAgeSeconds`. A callback whose state is not this cookie's is refused, so nobody can sign a
 * victim's browser in to the attacker's identity with a link (login CSRF).
 */
export function ssoStateCookie(state: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SSO_STATE_COOKIE}=${state}; Path=${PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie value that removes it (each login is used once). */
export function clearedSsoStateCookie(secure: boolean): string {
  return `${SSO_STATE_COOKIE}=; Path=${PATH}; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

/** The state a request's Cookie header carries, if any. */
export function ssoStateOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SSO_STATE_COOKIE) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}
