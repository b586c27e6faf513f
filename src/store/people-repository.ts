import { randomUUID } from 'node:crypto';
import type { Role } from '../domain/roles.js';
import type { Queryable } from './db.js';

/** A person as sign-in sees them: with the secrets to check, never shown to anyone. */
export interface PersonRow {
  id: string;
  account_id: string | null;
  name: string;
  email: string;
  password_hash: string | null;
  totp_secret: string | null;
  totp_enabled: boolean;
  totp_last_step: string | null;
  signs_in: boolean;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  created_at: Date;
  updated_at: Date | null;
}

/** A person's place in an account. */
export interface MembershipRow {
  account_id: string;
  user_id: string;
  role: Role;
  created_at: Date;
  updated_at: Date;
}

/** A membership with its person, as member lists show it. */
export interface MemberRow extends MembershipRow {
  name: string;
  email: string;
  totp_enabled: boolean;
  oidc_subject: string | null;
}

/** A membership with its account's name, as account switchers show it. */
export interface AccountMembershipRow extends MembershipRow {
  account_name: string;
}

/** People who sign in and their memberships of accounts (sessions and invitations have repositories of their own). */
export function createPeopleRepository(db: Queryable) {
  return {
    async get(id: string): Promise<PersonRow | undefined> {
      const [row] = await db.query<PersonRow>('SELECT * FROM users WHERE id = $1', [id]);
      return row;
    },

    /** The person who signs in with this email (any case). */
    async findByEmail(email: string): Promise<PersonRow | undefined> {
      const [row] = await db.query<PersonRow>('SELECT * FROM users WHERE signs_in AND lower(email) = lower($1)', [email]);
      return row;
    },

    async findByOidc(issuer: string, subject: string): Promise<PersonRow | undefined> {
      const [row] = await db.query<PersonRow>('SELECT * FROM users WHERE oidc_issuer = $1 AND oidc_subject = $2', [issuer, subject]);
      return row;
    },

    /** A new person who signs in (by password, single sign-on or both). */
    async create(input: { email: string; name: string; passwordHash?: string | null; accountId?: string | null; oidc?: { issuer: string; subject: string } }): Promise<PersonRow> {
      const [row] = await db.query<PersonRow>(
        `INSERT INTO users (id, account_id, name, email, password_hash, signs_in, oidc_issuer, oidc_subject)
         VALUES ($1, $2, $3, $4, $5, true, $6, $7) RETURNING *`,
        [randomUUID(), input.accountId ?? null, input.name, input.email, input.passwordHash ?? null, input.oidc?.issuer ?? null, input.oidc?.subject ?? null],
      );
      return row!;
    },

    /** Lets an existing (bootstrap) user sign in with this email and password. */
    async enableSignIn(id: string, email: string, passwordHash: string): Promise<PersonRow | undefined> {
      const [row] = await db.query<PersonRow>(
        'UPDATE users SET email = $2, password_hash = $3, signs_in = true, updated_at = now() WHERE id = $1 RETURNING *',
        [id, email, passwordHash],
      );
      return row;
    },

    async linkOidc(id: string, issuer: string, subject: string): Promise<void> {
      await db.query('UPDATE users SET oidc_issuer = $2, oidc_subject = $3, updated_at = now() WHERE id = $1', [id, issuer, subject]);
    },

    async setPassword(id: string, passwordHash: string): Promise<void> {
      await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [id, passwordHash]);
    },

    async setName(id: string, name: string): Promise<void> {
      await db.query('UPDATE users SET name = $2, updated_at = now() WHERE id = $1', [id, name]);
    },

    /** Stores a second-factor secret; `enabled` false while the person has not yet proved they hold it. */
    async setTotp(id: string, secret: string | null, enabled: boolean): Promise<void> {
      await db.query('UPDATE users SET totp_secret = $2, totp_enabled = $3, updated_at = now() WHERE id = $1', [id, secret, enabled]);
    },

    /**
     * Spends the TOTP code of `step` (a 30-second period): true the first time, false for a step at
     * or before the last one spent, so an overheard code cannot be used again.
     */
    async spendTotpStep(id: string, step: number): Promise<boolean> {
      const rows = await db.query('UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id', [id, step]);
      return rows.length > 0;
    },

    // Memberships

    async membership(accountId: string, userId: string): Promise<MembershipRow | undefined> {
      const [row] = await db.query<MembershipRow>('SELECT * FROM memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
      return row;
    },

    /** The accounts a person belongs to, by name. */
    async membershipsOf(userId: string): Promise<AccountMembershipRow[]> {
      return db.query<AccountMembershipRow>(
        `SELECT m.*, a.name AS account_name FROM memberships m JOIN accounts a ON a.id = m.account_id
         WHERE m.user_id = $1 ORDER BY a.name, a.id`,
        [userId],
      );
    },

    /** An account's members with their people, oldest first. */
    async members(accountId: string): Promise<MemberRow[]> {
      return db.query<MemberRow>(
        `SELECT m.*, u.name, u.email, u.totp_enabled, u.oidc_subject FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.account_id = $1 ORDER BY m.created_at, u.id`,
        [accountId],
      );
    },

    /** Adds or changes a membership; answers it. */
    async upsertMembership(accountId: string, userId: string, role: Role): Promise<MembershipRow> {
      const [row] = await db.query<MembershipRow>(
        `INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, user_id) DO UPDATE SET role = EXCLUDED.role, updated_at = now() RETURNING *`,
        [accountId, userId, role],
      );
      return row!;
    },

    async removeMembership(accountId: string, userId: string): Promise<MembershipRow | undefined> {
      const [row] = await db.query<MembershipRow>('DELETE FROM memberships WHERE account_id = $1 AND user_id = $2 RETURNING *', [accountId, userId]);
      return row;
    },

    /** How many owners an account has; locks their rows, so two demotions cannot both pass the last-owner rule. */
    async countOwners(accountId: string): Promise<number> {
      const rows = await db.query<{ user_id: string }>(`SELECT user_id FROM memberships WHERE account_id = $1 AND role = 'OWNER' FOR UPDATE`, [accountId]);
      return rows.length;
    },

    /** Whether one of the account's owners can sign in to the console. */
    async hasSigningInOwner(accountId: string): Promise<boolean> {
      const rows = await db.query(
        `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.account_id = $1 AND m.role = 'OWNER' AND u.signs_in AND (u.password_hash IS NOT NULL OR u.oidc_subject IS NOT NULL) LIMIT 1`,
        [accountId],
      );
      return rows.length > 0;
    },
  };
}
export type PeopleRepository = ReturnType<typeof createPeopleRepository>;
