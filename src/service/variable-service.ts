import { LookoutError, notFound } from '../domain/lookout-error.js';
import type { Store } from '../store/create-store.js';
import type { VariableRow } from '../store/variables-repository.js';

/** A variable as the API shows it: a secret's value reads back as null. */
export function toVariableView(row: VariableRow) {
  return {
    key: row.key,
    value: row.secret ? null : row.value,
    locked: row.locked,
    secret: row.secret,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}

function invalid(key: string, message: string): LookoutError {
  return new LookoutError('VALIDATION', `"${key}" ${message}`, { issues: [{ key, message }], source: 'payload' });
}

/** Account-level environment variables: create, read, update (merge) and delete by key. */
export function createVariableService({ store }: { store: Store }) {
  return {
    async create(accountId: string, body: { key: string; value: string; locked?: boolean | null; secret?: boolean | null }) {
      const row = await store.variables.insert(accountId, body.key, { value: body.value, locked: body.locked ?? false, secret: body.secret ?? false });
      if (!row) throw new LookoutError('CONFLICT', `Environment variable "${body.key}" already exists`);
      return toVariableView(row);
    },

    async get(accountId: string, key: string) {
      const row = await store.variables.get(accountId, key);
      if (!row) throw notFound('Environment variable', key);
      return toVariableView(row);
    },

    async list(accountId: string, page: number, limit: number) {
      const { rows, total } = await store.variables.list(accountId, page, limit);
      return { items: rows.map(toVariableView), total };
    },

    /**
     * Merges `body` into the variable. The key cannot change (it is how checks refer to the
     * variable), and a secret stays secret: turning it back would read the value back. Fields
     * left out or null keep their stored values.
     */
    async update(accountId: string, key: string, body: { key?: string | null; value?: string | null; locked?: boolean | null; secret?: boolean | null }) {
      if (body.key != null && body.key !== key) throw invalid('key', `cannot change: must be "${key}"`);
      return store.transaction(async (repos) => {
        const row = await repos.variables.get(accountId, key);
        if (!row) throw notFound('Environment variable', key);
        if (row.secret && body.secret === false) throw invalid('secret', 'cannot change from true to false: a secret variable stays secret');
        const updated = await repos.variables.update(accountId, key, {
          value: body.value ?? row.value,
          locked: body.locked ?? row.locked,
          secret: body.secret ?? row.secret,
        });
        return toVariableView(updated!);
      });
    },

    async delete(accountId: string, key: string): Promise<void> {
      if (!(await store.variables.delete(accountId, key))) throw notFound('Environment variable', key);
    },
  };
}
export type VariableService = ReturnType<typeof createVariableService>;
