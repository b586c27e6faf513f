import type { Queryable } from './db.js';

/** A stored snippet. */
export interface SnippetRow {
  id: number;
  account_id: string;
  name: string;
  script: string;
  created_at: Date;
  updated_at: Date | null;
  total?: number;
}

/** Checks and groups (by name) that run a snippet as setup or teardown. */
export interface SnippetUsers {
  checks: string[];
  groups: string[];
}

const USES = `(data->'setupSnippetId' = to_jsonb($2::int) OR data->'tearDownSnippetId' = to_jsonb($2::int))`;

/** Code snippets shared by checks and groups, scoped to one account in every statement. */
export function createSnippetsRepository(db: Queryable) {
  return {
    async get(accountId: string, id: number): Promise<SnippetRow | undefined> {
      const [row] = await db.query<SnippetRow>('SELECT * FROM snippets WHERE account_id = $1 AND id = $2', [accountId, id]);
      return row;
    },

    /** A page of the account's snippets by id; only those in `ids` when given (the batch lookup). */
    async list(accountId: string, page: number, limit: number, ids?: number[]): Promise<{ rows: SnippetRow[]; total: number }> {
      const idFilter = ids ? 'AND id = ANY($4::int[])' : '';
      const params: unknown[] = [accountId, limit, (page - 1) * limit];
      if (ids) params.push(ids);
      const rows = await db.query<SnippetRow>(
        `SELECT *, count(*) OVER ()::int AS total FROM snippets WHERE account_id = $1 ${idFilter} ORDER BY ${ids ? 'array_position($4::int[], id), ' : ''}id LIMIT $2 OFFSET $3`,
        params,
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM snippets WHERE account_id = $1 ${ids ? 'AND id = ANY($2::int[])' : ''}`,
        ids ? [accountId, ids] : [accountId],
      );
      return { rows, total: count?.n ?? 0 };
    },

    async insert(accountId: string, s: { name: string; script: string }): Promise<SnippetRow> {
      const [row] = await db.query<SnippetRow>(
        'INSERT INTO snippets (account_id, name, script) VALUES ($1, $2, $3) RETURNING *',
        [accountId, s.name, s.script],
      );
      return row!;
    },

    async update(accountId: string, id: number, s: { name: string; script: string }): Promise<SnippetRow | undefined> {
      const [row] = await db.query<SnippetRow>(
        'UPDATE snippets SET name = $3, script = $4, updated_at = now() WHERE account_id = $1 AND id = $2 RETURNING *',
        [accountId, id, s.name, s.script],
      );
      return row;
    },

    async delete(accountId: string, id: number): Promise<boolean> {
      const rows = await db.query('DELETE FROM snippets WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    /** Names of the checks and groups that name this snippet as setup or teardown (10 of each at most). */
    async usedBy(accountId: string, id: number): Promise<SnippetUsers> {
      const checks = await db.query<{ name: string }>(
        `SELECT name FROM checks WHERE account_id = $1 AND ${USES} ORDER BY name LIMIT 10`, [accountId, id]);
      const groups = await db.query<{ name: string }>(
        `SELECT name FROM check_groups WHERE account_id = $1 AND ${USES} ORDER BY name LIMIT 10`, [accountId, id]);
      return { checks: checks.map((r) => r.name), groups: groups.map((r) => r.name) };
    },
  };
}
export type SnippetsRepository = ReturnType<typeof createSnippetsRepository>;
