import { randomBytes } from 'node:crypto';
import type { Queryable } from './db.js';

/** What a public badge shows: one check or one group. */
export type BadgeSubjectRef = { checkId: string } | { groupId: number };

/** A public badge token row. */
export interface PublicBadgeRow {
  token: string;
  account_id: string;
  check_id: string | null;
  group_id: number | null;
  created_at: Date;
}

function subjectColumn(subject: BadgeSubjectRef): ['check_id' | 'group_id', string | number] {
  return 'checkId' in subject ? ['check_id', subject.checkId] : ['group_id', subject.groupId];
}

/** Public badge tokens, one per check or group; every statement but `find` is scoped to one account. */
export function createPublicBadgesRepository(db: Queryable) {
  return {
    /**
     * Creates the subject's token, or keeps the one it has (a URL already embedded somewhere keeps
     * working); undefined when the subject is not the account's.
     */
    async upsert(accountId: string, subject: BadgeSubjectRef): Promise<PublicBadgeRow | undefined> {
      const [column, id] = subjectColumn(subject);
      const table = column === 'check_id' ? 'checks' : 'check_groups';
      // 24 random bytes: a URL nobody can guess or enumerate.
      const [row] = await db.query<PublicBadgeRow>(
        `INSERT INTO public_badges (token, account_id, ${column})
         SELECT $3, $1, s.id FROM ${table} s WHERE s.account_id = $1 AND s.id = $2
         ON CONFLICT (${column}) WHERE ${column} IS NOT NULL DO UPDATE SET token = public_badges.token
         RETURNING *`,
        [accountId, id, `pb_${randomBytes(24).toString('base64url')}`],
      );
      return row;
    },

    async get(accountId: string, subject: BadgeSubjectRef): Promise<PublicBadgeRow | undefined> {
      const [column, id] = subjectColumn(subject);
      const [row] = await db.query<PublicBadgeRow>(`SELECT * FROM public_badges WHERE account_id = $1 AND ${column} = $2`, [accountId, id]);
      return row;
    },

    /** Whether a token was deleted (its URL answers 404 from now on). */
    async delete(accountId: string, subject: BadgeSubjectRef): Promise<boolean> {
      const [column, id] = subjectColumn(subject);
      const rows = await db.query(`DELETE FROM public_badges WHERE account_id = $1 AND ${column} = $2 RETURNING token`, [accountId, id]);
      return rows.length > 0;
    },

    /** The badge a public URL's token names, or undefined for an unknown or revoked token. */
    async find(token: string): Promise<PublicBadgeRow | undefined> {
      const [row] = await db.query<PublicBadgeRow>('SELECT * FROM public_badges WHERE token = $1', [token]);
      return row;
    },
  };
}
export type PublicBadgesRepository = ReturnType<typeof createPublicBadgesRepository>;
