import type { Queryable } from './db.js';

/** A stored check with its alert channel subscriptions (channel type and public config joined in). */
export interface CheckRow {
  id: string;
  account_id: string;
  check_type: string;
  name: string;
  activated: boolean;
  group_id: number | null;
  tags: string[];
  data: Record<string, any>;
  created_at: Date;
  updated_at: Date | null;
  subs: SubscriptionWithChannel[];
  total?: number;
}

export interface SubscriptionWithChannel {
  alertChannelId: number;
  activated: boolean;
  type: string;
  config: Record<string, any>;
}

/** Filters of `GET /v1/checks`. */
export interface CheckFilter {
  ids?: string[];
  tags?: string[];
  checkType?: string;
  groupId?: number;
  activated?: boolean;
  search?: string;
  status?: 'passing' | 'failing' | 'degraded';
  urlPattern?: string;
  /** Slug of a private location the check itself names (not one it inherits from its group). */
  privateLocation?: string;
}

/**
 * What a sparse read needs of a check row: `dataKeys` the keys of `data` to read (all when
 * absent), `subs` whether its subscriptions are read with each channel's type and config
 * (`channels`), as ids alone (`ids`), or not at all (`none`: `subs` is then empty).
 */
export interface CheckColumns {
  dataKeys?: readonly string[];
  subs: 'channels' | 'ids' | 'none';
}

const SUB_IDS = `coalesce((
    SELECT json_agg(json_build_object('alertChannelId', s.alert_channel_id, 'activated', s.activated) ORDER BY s.alert_channel_id)
    FROM alert_channel_subscriptions s WHERE s.check_id = c.id), '[]'::json) AS subs`;

/**
 * The select list of a check row; `keysParam` is the placeholder of the data keys when some are
 * left out. A row read without some keys (or subscriptions) is only for sparse views.
 */
function checkColumns(columns: CheckColumns | undefined, keysParam: string): string {
  const subs = !columns || columns.subs === 'channels' ? SUBS : columns.subs === 'ids' ? SUB_IDS : `'[]'::json AS subs`;
  if (!columns?.dataKeys) return `c.*, ${subs}`;
  // Only the keys asked leave the server: a check's script, request and variables are most of its row.
  return `c.id, c.account_id, c.check_type, c.name, c.activated, c.group_id, c.tags, c.created_at, c.updated_at,
    (SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) FROM jsonb_each(c.data) e WHERE e.key = ANY(${keysParam}::text[])) AS data,
    ${subs}`;
}

const SUBS = `coalesce((
    SELECT json_agg(json_build_object('alertChannelId', s.alert_channel_id, 'activated', s.activated,
                                      'type', ch.type, 'config', ch.data->'config') ORDER BY s.alert_channel_id)
    FROM alert_channel_subscriptions s JOIN alert_channels ch ON ch.id = s.alert_channel_id
    WHERE s.check_id = c.id), '[]'::json) AS subs`;

/** Checks, scoped to one account in every statement. */
export function createChecksRepository(db: Queryable) {
  return {
    /** A check; with `columns`, only what a sparse view of it needs. */
    async get(accountId: string, id: string, columns?: CheckColumns): Promise<CheckRow | undefined> {
      const params: unknown[] = [accountId, id];
      if (columns?.dataKeys) params.push(columns.dataKeys);
      const [row] = await db.query<CheckRow>(`SELECT ${checkColumns(columns, '$3')} FROM checks c WHERE c.account_id = $1 AND c.id = $2`, params);
      return row;
    },

    /** get() of several (account, check) pairs in one statement; those that exist. */
    async getByKeys(keys: readonly { accountId: string; id: string }[]): Promise<CheckRow[]> {
      if (keys.length === 0) return [];
      return db.query<CheckRow>(
        `SELECT ${checkColumns(undefined, '')} FROM checks c
         JOIN unnest($1::uuid[], $2::uuid[]) AS k(account_id, id) ON c.account_id = k.account_id AND c.id = k.id`,
        [keys.map((k) => k.accountId), keys.map((k) => k.id)],
      );
    },

    /** A page of checks; `columns` as in get. */
    async list(accountId: string, filter: CheckFilter, page: number, limit: number, columns?: CheckColumns): Promise<{ rows: CheckRow[]; total: number }> {
      const where = ['c.account_id = $1'];
      const params: unknown[] = [accountId];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.ids) add('c.id = ANY(?::uuid[])', filter.ids);
      // A batch read (`ids=`) answers in the order asked: batching clients match answers by position.
      const order = filter.ids ? 'array_position($2::uuid[], c.id), ' : '';
      if (filter.tags?.length) add('c.tags @> ?::text[]', filter.tags);
      if (filter.checkType) add('c.check_type = ?', filter.checkType);
      if (filter.groupId != null) add('c.group_id = ?', filter.groupId);
      if (filter.activated != null) add('c.activated = ?', filter.activated);
      if (filter.search) add(`c.name ILIKE ?`, `%${escapeLike(filter.search)}%`);
      if (filter.urlPattern) add(`c.data->'request'->>'url' ILIKE ?`, `%${escapeLike(filter.urlPattern)}%`);
      // Containment rather than the `?` operator: `add` puts the parameter where the first `?` is.
      if (filter.privateLocation) add(`c.data->'privateLocations' @> jsonb_build_array(?::text)`, filter.privateLocation);
      if (filter.status === 'failing') where.push('(st.has_failures OR st.has_errors)');
      if (filter.status === 'degraded') where.push('(st.is_degraded AND NOT st.has_failures AND NOT st.has_errors)');
      if (filter.status === 'passing') where.push('(NOT st.has_failures AND NOT st.has_errors AND NOT st.is_degraded)');
      const join = filter.status ? 'JOIN check_statuses st ON st.check_id = c.id' : '';
      const whereSql = where.join(' AND ');
      const filterParams = params.length;
      params.push(limit, (page - 1) * limit);
      if (columns?.dataKeys) params.push(columns.dataKeys);
      // The page and the total are found over narrow rows first: a window count over whole rows
      // would hold every matching check's `data` in memory (and sort it) to return one page.
      const rows = await db.query<CheckRow>(
        `WITH page AS (
           SELECT c.id, c.created_at, row_number() OVER (ORDER BY ${order}c.created_at, c.id) AS ord, count(*) OVER ()::int AS total
           FROM checks c ${join} WHERE ${whereSql}
           ORDER BY ${order}c.created_at, c.id LIMIT $${filterParams + 1} OFFSET $${filterParams + 2})
         SELECT ${checkColumns(columns, `$${filterParams + 3}`)}, page.total FROM page JOIN checks c ON c.id = page.id AND c.account_id = $1
         ORDER BY page.ord`,
        params,
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM checks c ${join} WHERE ${whereSql}`, params.slice(0, filterParams));
      return { rows, total: count?.n ?? 0 };
    },

    async insert(accountId: string, c: { id: string; checkType: string; data: Record<string, any> }): Promise<void> {
      await db.query(
        `INSERT INTO checks (id, account_id, check_type, name, activated, group_id, tags, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [c.id, accountId, c.checkType, c.data.name, c.data.activated, c.data.groupId, c.data.tags, c.data],
      );
    },

    async update(accountId: string, id: string, data: Record<string, any>): Promise<void> {
      await db.query(
        `UPDATE checks SET name = $3, activated = $4, group_id = $5, tags = $6, data = $7, updated_at = now()
         WHERE account_id = $1 AND id = $2`,
        [accountId, id, data.name, data.activated, data.groupId, data.tags, data],
      );
    },

    /**
     * Inside a transaction: keeps the check from being deleted until it ends (FOR KEY SHARE, which
     * edits do not wait on); false when it is gone. Taken before any of the check's own rows, so a
     * delete (which locks the check, then cascades to those rows) and this transaction lock in one
     * order and never deadlock.
     */
    /** The tags of the account's checks among `ids` (uuids); ids of no check of the account are left out. */
    async tagsOf(accountId: string, ids: readonly string[]): Promise<Array<{ id: string; tags: string[] }>> {
      return db.query('SELECT id, tags FROM checks WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
    },
    async lockAgainstDelete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('SELECT id FROM checks WHERE account_id = $1 AND id = $2 FOR KEY SHARE', [accountId, id]);
      return rows.length > 0;
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM checks WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    async countInGroup(accountId: string, groupId: number): Promise<number> {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM checks WHERE account_id = $1 AND group_id = $2', [accountId, groupId]);
      return row?.n ?? 0;
    },

    /** Names of checks that run in the private location with this slug. */
    async usingPrivateLocation(accountId: string, slug: string): Promise<string[]> {
      const rows = await db.query<{ name: string }>(
        `SELECT name FROM checks WHERE account_id = $1 AND data->'privateLocations' ? $2 ORDER BY name LIMIT 10`,
        [accountId, slug],
      );
      return rows.map((r) => r.name);
    },
  };
}
export type ChecksRepository = ReturnType<typeof createChecksRepository>;

/** Escapes LIKE wildcards so a search matches its text literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
