import { randomUUID } from 'node:crypto';
import type { Role } from '../domain/roles.js';
import type { Queryable } from './db.js';

/** A console session (the cookie's token is stored as its hash only). */
export interface SessionRow {
  id: string;
  user_id: string;
  account_id: string | null;
  csrf_token: string;
  method: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

/** Console sessions: opened at sign-in, read on every request made with the cookie, ended by signing out. */
export function createSessionsRepository(db: Queryable) {
  return {
    async createSession(input: { tokenHash: string; userId: string; accountId: string | null; csrfToken: string; method: string; ip?: string; userAgent?: string; expiresAt: Date }): Promise<SessionRow> {
      const [row] = await db.query<SessionRow>(
        `INSERT INTO sessions (id, token_hash, user_id, account_id, csrf_token, method, ip, user_agent, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [randomUUID(), input.tokenHash, input.userId, input.accountId, input.csrfToken, input.method, input.ip ?? null, input.userAgent?.slice(0, 500) ?? null, input.expiresAt],
      );
      return row!;
    },

    /** The live session of this token; its last use is refreshed at most once a minute. */
    async findSession(tokenHash: string): Promise<SessionRow | undefined> {
      const [row] = await db.query<SessionRow & { stale: boolean }>(
        `SELECT *, last_seen_at < now() - interval '1 minute' AS stale FROM sessions WHERE token_hash = $1 AND expires_at > now()`,
        [tokenHash],
      );
      if (row?.stale) await db.query('UPDATE sessions SET last_seen_at = now() WHERE id = $1', [row.id]);
      return row;
    },

    /**
     * What a request made with the cookie needs, in one statement: the live session, its person's
     * email, and their role in `accountId` (the session's own account when null; null when the
     * person is not a member of it).
     */
    async findWithAccess(tokenHash: string, accountId: string | null): Promise<(SessionRow & { email: string; access_account_id: string | null; role: Role | null }) | undefined> {
      const [row] = await db.query<SessionRow & { email: string; access_account_id: string | null; role: Role | null; stale: boolean }>(
        `SELECT s.*, u.email, coalesce($2::uuid, s.account_id) AS access_account_id, m.role,
                s.last_seen_at < now() - interval '1 minute' AS stale
         FROM sessions s JOIN users u ON u.id = s.user_id
           LEFT JOIN memberships m ON m.user_id = s.user_id AND m.account_id = coalesce($2::uuid, s.account_id)
         WHERE s.token_hash = $1 AND s.expires_at > now()`,
        [tokenHash, accountId],
      );
      if (row?.stale) await db.query('UPDATE sessions SET last_seen_at = now() WHERE id = $1', [row.id]);
      return row;
    },

    async getSession(id: string): Promise<SessionRow | undefined> {
      const [row] = await db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1 AND expires_at > now()', [id]);
      return row;
    },

    async setSessionAccount(id: string, accountId: string): Promise<void> {
      await db.query('UPDATE sessions SET account_id = $2 WHERE id = $1', [id, accountId]);
    },

    async sessionsOf(userId: string): Promise<SessionRow[]> {
      return db.query<SessionRow>('SELECT * FROM sessions WHERE user_id = $1 AND expires_at > now() ORDER BY last_seen_at DESC', [userId]);
    },

    /** Ends one session; answers its person (undefined when it had ended already). */
    async deleteSession(id: string): Promise<string | undefined> {
      return (await db.query<{ user_id: string }>('DELETE FROM sessions WHERE id = $1 RETURNING user_id', [id]))[0]?.user_id;
    },

    /** Ends every session of a person (sign out everywhere, a new password); answers their ids. */
    async deleteSessionsOf(userId: string): Promise<string[]> {
      return (await db.query<{ id: string }>('DELETE FROM sessions WHERE user_id = $1 RETURNING id', [userId])).map((r) => r.id);
    },

    /** Deletes up to `batch` sessions past their end; answers how many. */
    async deleteExpired(batch: number): Promise<number> {
      return (await db.query<{ id: string }>(
        'DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= now() LIMIT $1) RETURNING id',
        [batch],
      )).length;
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
