import type { Queryable } from './db.js';

/** What a check or group is subscribed to. */
export interface SubscriptionInput {
  alertChannelId: number;
  activated: boolean;
}

/** Alert channel subscriptions of checks and groups. */
export function createSubscriptionsRepository(db: Queryable) {
  return {
    /** Replaces every subscription of one check or group with `subs`. */
    async replaceFor(accountId: string, owner: { checkId: string } | { groupId: number }, subs: SubscriptionInput[]): Promise<void> {
      const isCheck = 'checkId' in owner;
      const column = isCheck ? 'check_id' : 'group_id';
      const ownerId = isCheck ? owner.checkId : owner.groupId;
      await db.query(`DELETE FROM alert_channel_subscriptions WHERE account_id = $1 AND ${column} = $2`, [accountId, ownerId]);
      if (subs.length === 0) return;
      await db.query(
        `INSERT INTO alert_channel_subscriptions (account_id, alert_channel_id, ${column}, activated)
         SELECT $1, s.channel, $2, s.activated FROM unnest($3::int[], $4::boolean[]) AS s(channel, activated)`,
        [accountId, ownerId, subs.map((s) => s.alertChannelId), subs.map((s) => s.activated)],
      );
    },

    /** Adds subscriptions for the channels the owner is not subscribed to yet. */
    async addMissing(accountId: string, owner: { checkId: string }, channelIds: number[]): Promise<void> {
      if (channelIds.length === 0) return;
      await db.query(
        `INSERT INTO alert_channel_subscriptions (account_id, alert_channel_id, check_id, activated)
         SELECT $1, ch, $2, true FROM unnest($3::int[]) AS ch
         ON CONFLICT (alert_channel_id, check_id) DO NOTHING`,
        [accountId, owner.checkId, channelIds],
      );
    },

    async forGroups(groupIds: number[]): Promise<Map<number, SubscriptionInput[]>> {
      const rows = await db.query<{ group_id: number; alert_channel_id: number; activated: boolean }>(
        `SELECT group_id, alert_channel_id, activated FROM alert_channel_subscriptions
         WHERE group_id = ANY($1::int[]) ORDER BY alert_channel_id`,
        [groupIds],
      );
      const map = new Map<number, SubscriptionInput[]>();
      for (const r of rows) {
        const list = map.get(r.group_id) ?? [];
        list.push({ alertChannelId: r.alert_channel_id, activated: r.activated });
        map.set(r.group_id, list);
      }
      return map;
    },
  };
}
export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
