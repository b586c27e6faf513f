import type { CheckState } from '../domain/badge-status.js';
import type { Queryable } from './db.js';

/** What a badge is drawn from: a name and the latest state of each check it covers (null: never ran). */
export interface BadgeSubject {
  name: string;
  states: (CheckState | null)[];
}

const STATE = `CASE WHEN st.check_id IS NULL THEN NULL ELSE json_build_object(
    'hasFailures', st.has_failures, 'hasErrors', st.has_errors, 'isDegraded', st.is_degraded,
    'longestRun', st.longest_run) END AS state`;

/** Reads check names and check_statuses for badges, scoped to one account in every statement. */
export function createBadgeSubjectsRepository(db: Queryable) {
  return {
    async check(accountId: string, checkId: string): Promise<BadgeSubject | undefined> {
      const [row] = await db.query<{ name: string; state: CheckState | null }>(
        `SELECT c.name, ${STATE} FROM checks c
         LEFT JOIN check_statuses st ON st.check_id = c.id AND st.account_id = c.account_id
         WHERE c.account_id = $1 AND c.id = $2`,
        [accountId, checkId],
      );
      return row && { name: row.name, states: [row.state] };
    },

    /** A group and its activated checks (deactivated checks do not run, so they say nothing about it). */
    async group(accountId: string, groupId: number): Promise<BadgeSubject | undefined> {
      const [group] = await db.query<{ name: string }>('SELECT name FROM check_groups WHERE account_id = $1 AND id = $2', [accountId, groupId]);
      if (!group) return undefined;
      const rows = await db.query<{ state: CheckState | null }>(
        `SELECT ${STATE} FROM checks c
         LEFT JOIN check_statuses st ON st.check_id = c.id AND st.account_id = c.account_id
         WHERE c.account_id = $1 AND c.group_id = $2 AND c.activated ORDER BY c.id`,
        [accountId, groupId],
      );
      return { name: group.name, states: rows.map((r) => r.state) };
    },
  };
}
export type BadgeSubjectsRepository = ReturnType<typeof createBadgeSubjectsRepository>;
