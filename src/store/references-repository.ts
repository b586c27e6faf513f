import type { Queryable } from './db.js';

/**
 * Existence look-ups for ids that one resource names in another (a check's group, channels,
 * snippets, private locations), always within the caller's account.
 */
export function createReferencesRepository(db: Queryable) {
  const existing = async (sql: string, accountId: string, values: unknown[]): Promise<Set<string>> => {
    if (values.length === 0) return new Set();
    const rows = await db.query<{ v: string | number }>(sql, [accountId, values]);
    return new Set(rows.map((r) => String(r.v)));
  };
  return {
    groups: (accountId: string, ids: number[]) =>
      existing('SELECT id AS v FROM check_groups WHERE account_id = $1 AND id = ANY($2::int[])', accountId, ids),
    alertChannels: (accountId: string, ids: number[]) =>
      existing('SELECT id AS v FROM alert_channels WHERE account_id = $1 AND id = ANY($2::int[])', accountId, ids),
    snippets: (accountId: string, ids: number[]) =>
      existing('SELECT id AS v FROM snippets WHERE account_id = $1 AND id = ANY($2::int[])', accountId, ids),
    /** Status page services, compared as text so that a malformed id is simply not found. */
    statusPageServices: (accountId: string, ids: string[]) =>
      existing('SELECT id::text AS v FROM status_page_services WHERE account_id = $1 AND id::text = ANY($2::text[])', accountId, ids.map((id) => id.toLowerCase())),
    privateLocationSlugs: (accountId: string, slugs: string[]) =>
      existing('SELECT slug_name AS v FROM private_locations WHERE account_id = $1 AND slug_name = ANY($2::text[])', accountId, slugs),
    /** Checks, compared as text so that a malformed id is simply not found. */
    checks: (accountId: string, ids: string[]) =>
      existing('SELECT id::text AS v FROM checks WHERE account_id = $1 AND id::text = ANY($2::text[])', accountId, ids.map((id) => id.toLowerCase())),
    /** Every check of the account, oldest first. */
    async allCheckIds(accountId: string): Promise<string[]> {
      const rows = await db.query<{ id: string }>('SELECT id FROM checks WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
      return rows.map((r) => r.id);
    },
    /** Channels with `autoSubscribe`: every new check subscribes to them. */
    async autoSubscribeChannelIds(accountId: string): Promise<number[]> {
      const rows = await db.query<{ id: number }>(
        `SELECT id FROM alert_channels WHERE account_id = $1 AND (data->>'autoSubscribe')::boolean IS TRUE ORDER BY id`,
        [accountId],
      );
      return rows.map((r) => r.id);
    },
    async allAlertChannelIds(accountId: string): Promise<number[]> {
      const rows = await db.query<{ id: number }>('SELECT id FROM alert_channels WHERE account_id = $1 ORDER BY id', [accountId]);
      return rows.map((r) => r.id);
    },
  };
}
export type ReferencesRepository = ReturnType<typeof createReferencesRepository>;
