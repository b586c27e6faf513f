import { LookoutError, notFound } from '../domain/lookout-error.js';
import type { Store } from '../store/create-store.js';
import type { SnippetRow } from '../store/snippets-repository.js';

/** A snippet as the API shows it. */
export function toSnippetView(row: SnippetRow) {
  return {
    id: row.id,
    name: row.name,
    script: row.script,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}

/** Code snippets: CRUD; a snippet still used as setup or teardown cannot be deleted. */
export function createSnippetService({ store }: { store: Store }) {
  return {
    async create(accountId: string, body: { name: string; script: string }) {
      return toSnippetView(await store.snippets.insert(accountId, body));
    },

    async get(accountId: string, id: number) {
      const row = await store.snippets.get(accountId, id);
      if (!row) throw notFound('Snippet', id);
      return toSnippetView(row);
    },

    /** A page of the account's snippets, only those with the given ids when `ids` is set. */
    async list(accountId: string, page: number, limit: number, ids?: number[]) {
      const { rows, total } = await store.snippets.list(accountId, page, limit, ids);
      return { items: rows.map(toSnippetView), total };
    },

    /** Fields left out or null keep their stored values. */
    async update(accountId: string, id: number, body: { name?: string | null; script?: string | null }) {
      return store.transaction(async (repos) => {
        const row = await repos.snippets.get(accountId, id);
        if (!row) throw notFound('Snippet', id);
        const updated = await repos.snippets.update(accountId, id, { name: body.name ?? row.name, script: body.script ?? row.script });
        return toSnippetView(updated!);
      });
    },

    /** Deletes the snippet unless a check or group runs it: they would fail at their next run. */
    async delete(accountId: string, id: number): Promise<void> {
      await store.transaction(async (repos) => {
        if (!(await repos.snippets.get(accountId, id))) throw notFound('Snippet', id);
        const users = await repos.snippets.usedBy(accountId, id);
        const names = [...users.checks.map((n) => `check "${n}"`), ...users.groups.map((n) => `group "${n}"`)];
        if (names.length > 0) {
          throw new LookoutError('CONFLICT', `Snippet ${id} is used as setup or teardown script by ${names.join(', ')}: remove it from them first`);
        }
        await repos.snippets.delete(accountId, id);
      });
    },
  };
}
export type SnippetService = ReturnType<typeof createSnippetService>;
