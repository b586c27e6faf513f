import type { Queryable } from './db.js';
import type { SubscriptionInput } from './subscriptions-repository.js';

export interface GroupRow {
  id: number;
  account_id: string;
  name: string;
  activated: boolean;
  data: Record<string, any>;
  created_at: Date;
  updated_at: Date | null;
  subs: SubscriptionInput[];
  total?: number;
}

const SUBS = `coalesce((
    SELECT json_agg(json_build_object('alertChannelId', s.alert_channel_id, 'activated', s.activated) ORDER BY s.alert_channel_id)
    FROM alert_channel_subscriptions s WHERE s.group_id = g.id), '[]'::json) AS subs`;

/** Check groups, scoped to one account in every statement. */
export function createCheckGroupsRepository(db: Queryable) {
  return {
    async get(accountId: string, id: number): Promise<GroupRow | undefined> {
      const [row] = await db.query<GroupRow>(`SELECT g.*, ${SUBS} FROM check_groups g WHERE g.account_id = $1 AND g.id = $2`, [accountId, id]);
      return row;
    },

    /** get() of several (account, group) pairs in one statement; those that exist. */
    async getByKeys(keys: readonly { accountId: string; id: number }[]): Promise<GroupRow[]> {
      if (keys.length === 0) return [];
      return db.query<GroupRow>(
        `SELECT g.*, ${SUBS} FROM check_groups g
         JOIN unnest($1::uuid[], $2::int[]) AS k(account_id, id) ON g.account_id = k.account_id AND g.id = k.id`,
        [keys.map((k) => k.accountId), keys.map((k) => k.id)],
      );
    },

    async getMany(accountId: string, ids: number[]): Promise<GroupRow[]> {
      return db.query<GroupRow>(`SELECT g.*, ${SUBS} FROM check_groups g WHERE g.account_id = $1 AND g.id = ANY($2::int[])`, [accountId, ids]);
    },

    async list(accountId: string, page: number, limit: number, ids?: number[]): Promise<{ rows: GroupRow[]; total: number }> {
      const idFilter = ids ? 'AND g.id = ANY($4::int[])' : '';
      const params: unknown[] = [accountId, limit, (page - 1) * limit];
      if (ids) params.push(ids);
      const rows = await db.query<GroupRow>(
        `SELECT g.*, ${SUBS}, count(*) OVER ()::int AS total FROM check_groups g WHERE g.account_id = $1 ${idFilter}
         ORDER BY ${ids ? 'array_position($4::int[], g.id), ' : ''}g.id LIMIT $2 OFFSET $3`,
        params,
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM check_groups g WHERE g.account_id = $1 ${ids ? 'AND g.id = ANY($2::int[])' : ''}`,
        ids ? [accountId, ids] : [accountId],
      );
      return { rows, total: count?.n ?? 0 };
    },

    async insert(accountId: string, data: Record<string, any>): Promise<number> {
      const [row] = await db.query<{ id: number }>(
        'INSERT INTO check_groups (account_id, name, activated, data) VALUES ($1, $2, $3, $4) RETURNING id',
        [accountId, data.name, data.activated, data],
      );
      return row!.id;
    },

    async update(accountId: string, id: number, data: Record<string, any>): Promise<void> {
      await db.query(
        'UPDATE check_groups SET name = $3, activated = $4, data = $5, updated_at = now() WHERE account_id = $1 AND id = $2',
        [accountId, id, data.name, data.activated, data],
      );
    },

    async delete(accountId: string, id: number): Promise<boolean> {
      const rows = await db.query('DELETE FROM check_groups WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    /** Names of groups that run their checks in the private location with this slug. */
    async usingPrivateLocation(accountId: string, slug: string): Promise<string[]> {
      const rows = await db.query<{ name: string }>(
        `SELECT name FROM check_groups WHERE account_id = $1 AND data->'privateLocations' ? $2 ORDER BY name LIMIT 10`,
        [accountId, slug],
      );
      return rows.map((r) => r.name);
    },
  };
}
export type CheckGroupsRepository = ReturnType<typeof createCheckGroupsRepository>;
