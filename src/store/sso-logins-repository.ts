import type { Queryable } from './db.js';

/** A single sign-on login between the redirect to the provider and its callback. */
export interface SsoLoginRow {
  state_hash: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  created_at: Date;
  expires_at: Date;
}

/** Single sign-on logins in flight: written when one starts, taken (once) by its callback. */
export function createSsoLoginsRepository(db: Queryable) {
  return {
    /** Records a login; logins abandoned at the provider are cleared on the way, so the table stays small without a job. */
    async create(input: { stateHash: string; nonce: string; codeVerifier: string; returnTo: string; expiresAt: Date }): Promise<void> {
      await db.query('DELETE FROM sso_logins WHERE expires_at <= now()');
      await db.query(
        'INSERT INTO sso_logins (state_hash, nonce, code_verifier, return_to, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [input.stateHash, input.nonce, input.codeVerifier, input.returnTo, input.expiresAt],
      );
    },

    /** Takes the live login of this state: deleted as it is read, so a replayed callback finds nothing. */
    async take(stateHash: string): Promise<SsoLoginRow | undefined> {
      const [row] = await db.query<SsoLoginRow & { live: boolean }>('DELETE FROM sso_logins WHERE state_hash = $1 RETURNING *, expires_at > now() AS live', [stateHash]);
      if (!row?.live) return undefined;
      const { live: _live, ...login } = row;
      return login;
    },
  };
}
export type SsoLoginsRepository = ReturnType<typeof createSsoLoginsRepository>;
