import type { Queryable } from './db.js';

/** A stored error group of a check. */
export interface ErrorGroupRow {
  id: string;
  account_id: string;
  check_id: string;
  error_hash: string;
  raw_error_message: string | null;
  cleaned_error_message: string;
  first_seen: Date;
  last_seen: Date;
  archived_until_next_event: boolean;
  archived_forever: boolean;
  created_at: Date;
  total?: number;
}

/** Narrows an error group list. */
export interface ErrorGroupFilter {
  checkId?: string;
  checkIds?: readonly string[];
  /** Only these groups (batch reads by id). */
  ids?: readonly string[];
  /** true: archived groups only (either way); false: open groups only. */
  archived?: boolean;
  /** At most this many groups of each check, the most recently seen. */
  perCheck?: number;
}

/** One more occurrence of an error on a check. */
export interface ErrorOccurrence {
  /** Used when the group is new. */
  id: string;
  hash: string;
  raw: string;
  cleaned: string;
  seenAt: Date;
}

/** Error groups of checks, scoped to one account in every statement. */
export function createErrorGroupsRepository(db: Queryable) {
  const repository = {
    /**
     * Records an occurrence: a new group for a new hash, else the group's lastSeen and raw message
     * move on and an archived-until-next-event group comes back (archived for ever stays archived).
     * Returns the group's id.
     */
    async recordOccurrence(accountId: string, checkId: string, o: ErrorOccurrence): Promise<string> {
      const [id] = await repository.recordOccurrences([{ ...o, accountId, checkId }]);
      return id!;
    },

    /**
     * Records several occurrences, of any checks, in one statement, as `recordOccurrence` would one
     * after the other; returns each one's group id, in the order given.
     */
    async recordOccurrences(list: readonly (ErrorOccurrence & { accountId: string; checkId: string })[]): Promise<string[]> {
      if (list.length === 0) return [];
      // One upsert cannot touch a row twice: occurrences of one group merge first (earliest first
      // seen, latest last seen with its raw message, a later one winning a tie as it would in turn).
      const merged = new Map<string, { o: ErrorOccurrence & { accountId: string; checkId: string }; firstSeen: Date; lastSeen: Date }>();
      for (const o of list) {
        const key = `${o.checkId} ${o.hash}`;
        const m = merged.get(key);
        if (!m) merged.set(key, { o, firstSeen: o.seenAt, lastSeen: o.seenAt });
        else {
          if (o.seenAt < m.firstSeen) m.firstSeen = o.seenAt;
          if (o.seenAt >= m.lastSeen) merged.set(key, { o: { ...o, id: m.o.id }, firstSeen: m.firstSeen, lastSeen: o.seenAt });
        }
      }
      // Sorted, so two processes upserting the same groups lock them in one order.
      const groups = [...merged.values()].sort((a, b) =>
        a.o.checkId < b.o.checkId ? -1 : a.o.checkId > b.o.checkId ? 1 : a.o.hash < b.o.hash ? -1 : a.o.hash > b.o.hash ? 1 : 0);
      const rows = await db.query<{ id: string; check_id: string; error_hash: string }>(
        `INSERT INTO error_groups (id, account_id, check_id, error_hash, raw_error_message, cleaned_error_message, first_seen, last_seen)
         SELECT id, account_id, check_id, error_hash, raw, cleaned, first_seen, last_seen
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::timestamptz[]) WITH ORDINALITY
           AS o(id, account_id, check_id, error_hash, raw, cleaned, first_seen, last_seen, ord)
         ORDER BY ord
         ON CONFLICT (check_id, error_hash) DO UPDATE SET
           first_seen = LEAST(error_groups.first_seen, EXCLUDED.first_seen),
           last_seen = GREATEST(error_groups.last_seen, EXCLUDED.last_seen),
           raw_error_message = CASE WHEN EXCLUDED.last_seen >= error_groups.last_seen
             THEN EXCLUDED.raw_error_message ELSE error_groups.raw_error_message END,
           archived_until_next_event = false
         WHERE error_groups.account_id = EXCLUDED.account_id
         RETURNING id, check_id, error_hash`,
        [
          groups.map((g) => g.o.id), groups.map((g) => g.o.accountId), groups.map((g) => g.o.checkId), groups.map((g) => g.o.hash),
          groups.map((g) => g.o.raw), groups.map((g) => g.o.cleaned), groups.map((g) => g.firstSeen), groups.map((g) => g.lastSeen),
        ],
      );
      const ids = new Map(rows.map((r) => [`${r.check_id} ${r.error_hash}`, r.id]));
      return list.map((o) => {
        const id = ids.get(`${o.checkId} ${o.hash}`);
        if (!id) throw new Error(`check ${o.checkId} is not in account ${o.accountId}`);
        return id;
      });
    },

    async get(accountId: string, id: string): Promise<ErrorGroupRow | undefined> {
      const [row] = await db.query<ErrorGroupRow>('SELECT * FROM error_groups WHERE account_id = $1 AND id = $2', [accountId, id]);
      return row;
    },

    /**
     * A page of the account's error groups, most recently seen first, narrowed by `filter`: one
     * check, several checks, archived (either way) or not, and at most `perCheck` groups per check
     * (the most recently seen of each, picked by a window function in the same statement).
     */
    async list(accountId: string, page: number, limit: number, filter: ErrorGroupFilter = {}): Promise<{ rows: ErrorGroupRow[]; total: number }> {
      const params: unknown[] = [accountId];
      const where = ['account_id = $1'];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.checkId) add('check_id = ?', filter.checkId);
      if (filter.checkIds) add('check_id = ANY(?::uuid[])', filter.checkIds);
      if (filter.ids) add('id = ANY(?::uuid[])', filter.ids);
      // `ids=` (one entry per id) answers in the order asked; other lists are most recently seen first.
      const order = filter.ids ? `array_position($${params.length}::uuid[], g.id), ` : '';
      if (filter.archived === true) where.push('(archived_until_next_event OR archived_forever)');
      if (filter.archived === false) where.push('NOT archived_until_next_event AND NOT archived_forever');
      let source = `SELECT * FROM error_groups WHERE ${where.join(' AND ')}`;
      if (filter.perCheck) {
        params.push(filter.perCheck);
        source = `SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY check_id ORDER BY last_seen DESC, id) AS rank_in_check
          FROM error_groups WHERE ${where.join(' AND ')}) ranked WHERE rank_in_check <= $${params.length}`;
      }
      const rows = await db.query<ErrorGroupRow>(
        `SELECT g.*, count(*) OVER ()::int AS total FROM (${source}) g
         ORDER BY ${order}g.last_seen DESC, g.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, (page - 1) * limit],
      );
      for (const row of rows) delete (row as { rank_in_check?: unknown }).rank_in_check;
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${source}) g`, params);
      return { rows, total: count?.n ?? 0 };
    },

    async setArchived(accountId: string, id: string, flags: { untilNextEvent: boolean; forever: boolean }): Promise<ErrorGroupRow | undefined> {
      const [row] = await db.query<ErrorGroupRow>(
        `UPDATE error_groups SET archived_until_next_event = $3, archived_forever = $4
         WHERE account_id = $1 AND id = $2 RETURNING *`,
        [accountId, id, flags.untilNextEvent, flags.forever],
      );
      return row;
    },
  };
  return repository;
}
export type ErrorGroupsRepository = ReturnType<typeof createErrorGroupsRepository>;
