import type { Access } from '../access/access.js';
import { isRole } from '../access/roles.js';
import { refusalText } from '../shared/refusal-text.js';
import { restRequest } from '../shared/rest-answer.js';
import { consoleHeaders, VIA_HEADER, type ConsoleAuth } from './console-auth.js';
import { readSession, type ConsoleSession } from './console-session.js';

const PUBLIC_HEADERS = { [VIA_HEADER]: 'console' };

/** A session answer: the session, or the refusal's code and words for people. */
export type SessionResult = { ok: true; session: ConsoleSession } | { ok: false; code: string | null; status: number; message: string };

/** The session the browser's cookie belongs to, or null when signed out (or the server has no sessions). */
export async function fetchSession(): Promise<ConsoleSession | null> {
  const answer = await restRequest('GET', '/v1/session', PUBLIC_HEADERS);
  return answer.ok ? readSession(answer.body) : null;
}

/** Turns a session-shaped answer into a SessionResult. */
function sessionResult(answer: Awaited<ReturnType<typeof restRequest>>): SessionResult {
  const session = answer.ok ? readSession(answer.body) : null;
  if (session) return { ok: true, session };
  if (answer.ok) return { ok: false, code: null, status: answer.status, message: 'The server answered without a session. Is it an older Lookout without people and sessions?' };
  return { ok: false, code: answer.code, status: answer.status, message: refusalText(answer) };
}

/** Signs a person in with their email and password (and the 6-digit code once the server asks for it, TOTP_REQUIRED). */
export async function signInWithPassword(input: { email: string; password: string; totp?: string }): Promise<SessionResult> {
  return sessionResult(await restRequest('POST', '/v1/session', PUBLIC_HEADERS, input));
}

/** Ends this session (the server clears the cookie). */
export async function endSession(auth: ConsoleAuth): Promise<void> {
  await restRequest('DELETE', '/v1/session', consoleHeaders(auth));
}

/** Ends every session of the person, on every device; null when done, else why not in words. */
export async function endEverySession(auth: ConsoleAuth): Promise<string | null> {
  const answer = await restRequest('DELETE', '/v1/sessions', consoleHeaders(auth));
  return answer.ok ? null : refusalText(answer, 'Could not sign out everywhere');
}

/** Moves the session to another of the person's accounts. */
export async function changeAccount(auth: ConsoleAuth, accountId: string): Promise<SessionResult> {
  return sessionResult(await restRequest('PUT', '/v1/session/account', consoleHeaders(auth), { accountId }));
}

/** The single sign-on the server offers (`GET /v1/sso`): the provider's name, or null when there is none. */
export async function fetchSso(): Promise<{ name: string } | null> {
  const answer = await restRequest<{ oidc?: { enabled?: boolean; name?: string } }>('GET', '/v1/sso', PUBLIC_HEADERS);
  const oidc = answer.body?.oidc;
  return oidc?.enabled ? { name: oidc.name || 'single sign-on' } : null;
}

/**
 * The caller's rights (`GET /v1/accounts/me/access`). A server that predates roles (404) lets any
 * key do everything, and so does the console; a key it no longer accepts gets read-only controls
 * while its pages say it was refused.
 */
export async function fetchAccess(auth: ConsoleAuth): Promise<Access> {
  const answer = await restRequest<Partial<Access>>('GET', '/v1/accounts/me/access', consoleHeaders(auth));
  const accountId = auth.kind === 'session' ? auth.accountId : auth.credentials.accountId ?? '';
  const body = answer.body;
  if (answer.ok && body && isRole(body.role)) {
    return { accountId: body.accountId ?? accountId, role: body.role, userId: body.userId ?? null, keyId: body.keyId ?? null, sessionId: body.sessionId ?? null, label: body.label ?? '' };
  }
  return { accountId, role: answer.status === 404 ? 'OWNER' : 'READ_ONLY', userId: null, keyId: null, sessionId: null, label: '' };
}
