import { isRole, type Role } from '../access/roles.js';

/** An account the signed-in person belongs to, with their role in it. */
export interface SessionAccount {
  id: string;
  name: string;
  role: Role;
}

/** A person's console session (`POST`/`GET /v1/session`): who, their accounts, the one shown, and the CSRF token. */
export interface ConsoleSession {
  user: { id: string; name: string; email: string; totpEnabled: boolean };
  accounts: SessionAccount[];
  accountId: string;
  role: Role;
  /** Sent as x-lookout-csrf on every request: the HttpOnly cookie alone never changes anything. */
  csrfToken: string;
}

/** The session in an answer's body, or null when the body is not one (an older server, a proxy's page). */
export function readSession(body: unknown): ConsoleSession | null {
  const value = body as Partial<ConsoleSession> | null;
  if (!value || typeof value !== 'object' || !value.user || typeof value.csrfToken !== 'string' || typeof value.accountId !== 'string' || !isRole(value.role)) return null;
  const accounts = Array.isArray(value.accounts) ? value.accounts.filter((a) => a && typeof a.id === 'string' && isRole(a.role)) : [];
  return {
    user: { id: String(value.user.id), name: String(value.user.name ?? ''), email: String(value.user.email ?? ''), totpEnabled: Boolean(value.user.totpEnabled) },
    accounts: accounts.map((a) => ({ id: a.id, name: String(a.name ?? a.id), role: a.role })),
    accountId: value.accountId,
    role: value.role,
    csrfToken: value.csrfToken,
  };
}
