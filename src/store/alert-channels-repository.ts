import type { Queryable } from './db.js';

/** A subscription as a channel lists it. */
export interface ChannelSubscription {
  id: number;
  checkId: string | null;
  groupId: number | null;
  activated: boolean;
}

/** A stored alert channel without its secrets (only their masked read-back forms). */
export interface AlertChannelRow {
  id: number;
  account_id: string;
  type: string;
  /** `{config, sendRecovery, sendFailure, sendDegraded, sslExpiry, sslExpiryThreshold, autoSubscribe}`; config without secrets. */
  data: Record<string, any>;
  masked_secrets: Record<string, string | null>;
  created_at: Date;
  updated_at: Date | null;
  subs: ChannelSubscription[];
  total?: number;
}

/** A channel with its raw secrets, for delivering notifications; never sent to a client. */
export interface AlertChannelWithSecrets extends AlertChannelRow {
  secrets: Record<string, string>;
}

/** What a channel is written with. */
export interface AlertChannelWrite {
  data: Record<string, any>;
  secrets: Record<string, string>;
  maskedSecrets: Record<string, string | null>;
}

// Named columns, never `*`: the secrets column is read only by getWithSecrets.
const COLUMNS = `ch.id, ch.account_id, ch.type, ch.data, ch.masked_secrets, ch.created_at, ch.updated_at, coalesce((
    SELECT json_agg(json_build_object('id', s.id, 'checkId', s.check_id, 'groupId', s.group_id, 'activated', s.activated) ORDER BY s.id)
    FROM alert_channel_subscriptions s WHERE s.alert_channel_id = ch.id), '[]'::json) AS subs`;

const SUB_COLUMNS = 'id, check_id AS "checkId", group_id AS "groupId", activated';

/** Alert channels and their subscriptions, scoped to one account in every statement. */
export function createAlertChannelsRepository(db: Queryable) {
  return {
    async get(accountId: string, id: number): Promise<AlertChannelRow | undefined> {
      const [row] = await db.query<AlertChannelRow>(`SELECT ${COLUMNS} FROM alert_channels ch WHERE ch.account_id = $1 AND ch.id = $2`, [accountId, id]);
      return row;
    },

    /** The channel with its raw secrets, for internal use (sending notifications); never for responses. */
    async getWithSecrets(accountId: string, id: number): Promise<AlertChannelWithSecrets | undefined> {
      const [row] = await db.query<AlertChannelWithSecrets>(
        `SELECT ${COLUMNS}, ch.secrets FROM alert_channels ch WHERE ch.account_id = $1 AND ch.id = $2`,
        [accountId, id],
      );
      return row;
    },

    async list(accountId: string, page: number, limit: number, ids?: number[]): Promise<{ rows: AlertChannelRow[]; total: number }> {
      const idFilter = ids ? 'AND ch.id = ANY($4::int[])' : '';
      const params: unknown[] = [accountId, limit, (page - 1) * limit];
      if (ids) params.push(ids);
      const rows = await db.query<AlertChannelRow>(
        `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM alert_channels ch WHERE ch.account_id = $1 ${idFilter}
         ORDER BY ${ids ? 'array_position($4::int[], ch.id), ' : ''}ch.id LIMIT $2 OFFSET $3`,
        params,
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM alert_channels ch WHERE ch.account_id = $1 ${ids ? 'AND ch.id = ANY($2::int[])' : ''}`,
        ids ? [accountId, ids] : [accountId],
      );
      return { rows, total: count?.n ?? 0 };
    },

    async insert(accountId: string, type: string, w: AlertChannelWrite): Promise<number> {
      const [row] = await db.query<{ id: number }>(
        `INSERT INTO alert_channels (account_id, type, data, secrets, masked_secrets) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [accountId, type, w.data, w.secrets, w.maskedSecrets],
      );
      return row!.id;
    },

    async update(accountId: string, id: number, w: AlertChannelWrite): Promise<void> {
      await db.query(
        `UPDATE alert_channels SET data = $3, secrets = $4, masked_secrets = $5, updated_at = now() WHERE account_id = $1 AND id = $2`,
        [accountId, id, w.data, w.secrets, w.maskedSecrets],
      );
    },

    /** Deletes the channel; its subscriptions go with it (foreign key cascade). */
    async delete(accountId: string, id: number): Promise<boolean> {
      const rows = await db.query('DELETE FROM alert_channels WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    /**
     * Subscribes a check or a group to a channel, or changes `activated` of the existing subscription.
     * The caller has checked that channel and target belong to `accountId`.
     */
    async upsertSubscription(
      accountId: string,
      channelId: number,
      target: { checkId: string } | { groupId: number },
      activated: boolean,
    ): Promise<ChannelSubscription> {
      const isCheck = 'checkId' in target;
      const column = isCheck ? 'check_id' : 'group_id';
      const [row] = await db.query<ChannelSubscription>(
        `INSERT INTO alert_channel_subscriptions (account_id, alert_channel_id, ${column}, activated) VALUES ($1, $2, $3, $4)
         ON CONFLICT (alert_channel_id, ${column}) DO UPDATE SET activated = EXCLUDED.activated
         RETURNING ${SUB_COLUMNS}`,
        [accountId, channelId, isCheck ? target.checkId : target.groupId, activated],
      );
      return row!;
    },

    /**
     * upsertSubscription for many checks or many groups in one statement, answered in the order given.
     * The caller has checked that channel and targets belong to `accountId`.
     */
    async upsertSubscriptions(
      accountId: string,
      channelId: number,
      targets: { checkIds: string[] } | { groupIds: number[] },
      activated: boolean,
    ): Promise<ChannelSubscription[]> {
      const isCheck = 'checkIds' in targets;
      const ids: (string | number)[] = isCheck ? targets.checkIds : targets.groupIds;
      if (ids.length === 0) return [];
      const column = isCheck ? 'check_id' : 'group_id';
      const rows = await db.query<ChannelSubscription>(
        `INSERT INTO alert_channel_subscriptions (account_id, alert_channel_id, ${column}, activated)
         SELECT $1, $2, t, $4 FROM unnest($3::${isCheck ? 'uuid' : 'int'}[]) AS t
         ON CONFLICT (alert_channel_id, ${column}) DO UPDATE SET activated = EXCLUDED.activated
         RETURNING ${SUB_COLUMNS}`,
        [accountId, channelId, ids, activated],
      );
      const order = new Map(ids.map((id, i) => [String(id).toLowerCase(), i]));
      const key = (r: ChannelSubscription) => String(isCheck ? r.checkId : r.groupId).toLowerCase();
      return rows.sort((a, b) => order.get(key(a))! - order.get(key(b))!);
    },
  };
}
export type AlertChannelsRepository = ReturnType<typeof createAlertChannelsRepository>;
