import type { Role } from './roles.js';

/** The signed-in caller's rights in the account the console shows (`GET /v1/accounts/me/access`). */
export interface Access {
  accountId: string;
  role: Role;
  /** The person; null for a service key. */
  userId: string | null;
  keyId: string | null;
  sessionId: string | null;
  /** The caller in words: a person's email or a key's name. */
  label: string;
}
