import type { Principal } from '../domain/principal.js';

/**
 * The command line acting on an account (`lookout keys`, `lookout accounts`): it holds the server's
 * database or its local admin token, so it acts as the owner. Keys it makes are Owner service keys,
 * attributed to the account's first owner as before roles existed.
 */
export function commandLineOwner(accountId: string, firstOwnerId: string | null): Principal {
  return { accountId, role: 'OWNER', userId: firstOwnerId, keyId: null, sessionId: null, label: 'command line' };
}
