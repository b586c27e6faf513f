import { CheckGroupCreate, CheckGroupUpdate } from '../contract/check-group-schemas.js';
import { validateBody } from '../contract/validation.js';
import { mergeGroupUpdate, withGroupDefaults, type GroupData } from '../domain/group-defaults.js';
import { keepActivated } from '../domain/keep-activated.js';
import { LookoutError, assertValid, notFound, type Issue } from '../domain/lookout-error.js';
import type { GroupRow } from '../store/check-groups-repository.js';
import type { Store } from '../store/create-store.js';
import type { Repositories } from '../store/repositories.js';
import { redactVariables } from './check-view.js';
import { dedupeSubscriptions, referenceIssues } from './reference-issues.js';

/** A stored group as the API shows it. */
export function toGroupView(row: GroupRow): Record<string, any> {
  const data = withGroupDefaults({ ...row.data, name: row.name } as GroupData);
  return {
    id: row.id,
    ...data,
    environmentVariables: redactVariables(data.environmentVariables),
    alertChannelSubscriptions: row.subs,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}

/** References shared with checks, plus variable keys that must be unique within the group. */
async function groupIssues(repos: Repositories, accountId: string, g: GroupData, subs: { alertChannelId: number }[] | null): Promise<Issue[]> {
  const issues = await referenceIssues(repos, accountId, g, subs);
  const seen = new Set<string>();
  (g.environmentVariables ?? []).forEach((v: { key: string }, i: number) => {
    if (seen.has(v.key)) issues.push({ key: `environmentVariables.${i}.key`, message: `duplicates "${v.key}"` });
    seen.add(v.key);
  });
  return issues;
}

/** Check groups: create, update (merge), read, list and delete. */
export function createCheckGroupService({ store }: { store: Store }) {
  const read = async (repos: Repositories, accountId: string, id: number) => {
    const row = await repos.groups.get(accountId, id);
    if (!row) throw notFound('Check group', id);
    return toGroupView(row);
  };
  return {
    async create(accountId: string, rawBody: unknown, opts: { autoAssignAlerts?: boolean } = {}) {
      const body = validateBody<Record<string, any>>(CheckGroupCreate, rawBody);
      const data = withGroupDefaults(body as GroupData);
      const subs = body.alertChannelSubscriptions ? dedupeSubscriptions(body.alertChannelSubscriptions) : null;
      return store.transaction(async (repos) => {
        assertValid(await groupIssues(repos, accountId, data, subs));
        const id = await repos.groups.insert(accountId, data);
        if (subs) await repos.subscriptions.replaceFor(accountId, { groupId: id }, subs);
        else if (opts.autoAssignAlerts !== false) {
          const all = await repos.references.allAlertChannelIds(accountId);
          await repos.subscriptions.replaceFor(accountId, { groupId: id }, all.map((alertChannelId) => ({ alertChannelId, activated: true })));
        }
        return read(repos, accountId, id);
      });
    },

    /** Merges `rawBody` into the group by the update semantics (merge-update.ts). */
    async update(accountId: string, id: number, rawBody: unknown) {
      const body = validateBody<Record<string, any>>(CheckGroupUpdate, rawBody ?? {});
      return store.transaction(async (repos) => {
        const row = await repos.groups.get(accountId, id);
        if (!row) throw notFound('Check group', id);
        const merged = withGroupDefaults(mergeGroupUpdate({ ...row.data, name: row.name } as GroupData, body));
        // A list sent replaces the subscriptions ([] removes them all); null or absent leaves them.
        const subs = body.alertChannelSubscriptions ? dedupeSubscriptions(keepActivated(body.alertChannelSubscriptions, row.subs)) : null;
        assertValid(await groupIssues(repos, accountId, merged, subs));
        await repos.groups.update(accountId, id, merged);
        if (subs) await repos.subscriptions.replaceFor(accountId, { groupId: id }, subs);
        return read(repos, accountId, id);
      });
    },

    /** Replaces a group whole, as `checkly deploy` does: validated as a create, absent fields take their defaults. */
    async replace(accountId: string, id: number, rawBody: unknown) {
      const body = validateBody<Record<string, any>>(CheckGroupCreate, rawBody);
      const data = withGroupDefaults(body as GroupData);
      const subs = body.alertChannelSubscriptions ? dedupeSubscriptions(body.alertChannelSubscriptions) : null;
      return store.transaction(async (repos) => {
        if (!(await repos.groups.get(accountId, id))) throw notFound('Check group', id);
        assertValid(await groupIssues(repos, accountId, data, subs));
        await repos.groups.update(accountId, id, data);
        if (subs) await repos.subscriptions.replaceFor(accountId, { groupId: id }, subs);
        return read(repos, accountId, id);
      });
    },

    get: (accountId: string, id: number) => read(store, accountId, id),

    async list(accountId: string, page: number, limit: number, ids?: number[]) {
      const { rows, total } = await store.groups.list(accountId, page, limit, ids);
      return { items: rows.map(toGroupView), total };
    },

    /** Deletes an empty group; a group that still has checks is a conflict (its checks would be orphaned). */
    async delete(accountId: string, id: number): Promise<void> {
      await store.transaction(async (repos) => {
        if (!(await repos.groups.get(accountId, id))) throw notFound('Check group', id);
        const n = await repos.checks.countInGroup(accountId, id);
        if (n > 0) throw new LookoutError('CONFLICT', `Check group ${id} still has ${n} check(s): move or delete them first`);
        await repos.groups.delete(accountId, id);
      });
    },
  };
}
export type CheckGroupService = ReturnType<typeof createCheckGroupService>;
