import { randomUUID } from 'node:crypto';
import type { Role } from '../domain/roles.js';
import type { Queryable } from './db.js';

/** An invitation as lists show it: never its token's hash. */
export interface InvitationRow {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

/** Invitations to accounts and password-reset links: single-use tokens stored as hashes. */
export function createInvitationsRepository(db: Queryable) {
  return {
    async createInvitation(input: { accountId: string; email: string; role: Role; tokenHash: string; invitedBy: string | null; expiresAt: Date }): Promise<InvitationRow> {
      const [row] = await db.query<InvitationRow>(
        `INSERT INTO invitations (id, account_id, email, role, token_hash, invited_by, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, lower(email)) WHERE accepted_at IS NULL
         DO UPDATE SET role = EXCLUDED.role, token_hash = EXCLUDED.token_hash, invited_by = EXCLUDED.invited_by,
           created_at = now(), expires_at = EXCLUDED.expires_at
         RETURNING id, account_id, email, role, invited_by, created_at, expires_at, accepted_at`,
        [randomUUID(), input.accountId, input.email, input.role, input.tokenHash, input.invitedBy, input.expiresAt],
      );
      return row!;
    },

    /** The account's invitations not yet accepted, newest first. */
    async invitations(accountId: string): Promise<InvitationRow[]> {
      return db.query<InvitationRow>(
        `SELECT id, account_id, email, role, invited_by, created_at, expires_at, accepted_at FROM invitations
         WHERE account_id = $1 AND accepted_at IS NULL ORDER BY created_at DESC, id`,
        [accountId],
      );
    },

    /** The open, unexpired invitation of this token, locked for acceptance. */
    async findInvitation(tokenHash: string): Promise<InvitationRow | undefined> {
      const [row] = await db.query<InvitationRow>(
        `SELECT id, account_id, email, role, invited_by, created_at, expires_at, accepted_at FROM invitations
         WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > now() FOR UPDATE`,
        [tokenHash],
      );
      return row;
    },

    async markInvitationAccepted(id: string): Promise<void> {
      await db.query('UPDATE invitations SET accepted_at = now() WHERE id = $1', [id]);
    },

    async deleteInvitation(accountId: string, id: string): Promise<InvitationRow | undefined> {
      const [row] = await db.query<InvitationRow>(
        `DELETE FROM invitations WHERE account_id = $1 AND id = $2 AND accepted_at IS NULL
         RETURNING id, account_id, email, role, invited_by, created_at, expires_at, accepted_at`,
        [accountId, id],
      );
      return row;
    },


    async createPasswordReset(input: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
      await db.query('INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [input.tokenHash, input.userId, input.expiresAt]);
    },

    /** Uses a reset link once: answers its person, or undefined when unknown, used or expired. */
    async consumePasswordReset(tokenHash: string): Promise<string | undefined> {
      const [row] = await db.query<{ user_id: string }>(
        'UPDATE password_resets SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id',
        [tokenHash],
      );
      return row?.user_id;
    },

    /**
     * Deletes up to `batch` links that can no longer be used: password resets past their end (used
     * or not), and invitations accepted or expired `keepDays` ago. Answers how many.
     */
    async deleteStale(keepDays: number, batch: number): Promise<number> {
      const resets = await db.query<{ token_hash: string }>(
        'DELETE FROM password_resets WHERE token_hash IN (SELECT token_hash FROM password_resets WHERE expires_at <= now() LIMIT $1) RETURNING token_hash',
        [batch],
      );
      const invitations = await db.query<{ id: string }>(
        `DELETE FROM invitations WHERE id IN (SELECT id FROM invitations
           WHERE coalesce(accepted_at, expires_at) <= now() - make_interval(days => $1) LIMIT $2) RETURNING id`,
        [keepDays, batch],
      );
      return resets.length + invitations.length;
    },
  };
}
export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;
