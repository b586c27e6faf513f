import type { Role } from './roles.js';

/**
 * Who made a request, and with what right. One of three things authenticates a caller: a service
 * key (a role, no person), a personal key (acts as its person, with the person's role now) or a
 * console session (a person signed in, in the account they chose).
 */
export interface Principal {
  accountId: string;
  role: Role;
  /** The person acting; null for a service key. */
  userId: string | null;
  /** The key used; null for a session. */
  keyId: string | null;
  /** The console session used; null for a key. */
  sessionId: string | null;
  /** The caller in words for logs and the audit log: a person's email or a key's name. */
  label: string;
}
