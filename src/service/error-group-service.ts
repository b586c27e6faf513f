import { LookoutError, notFound } from '../domain/lookout-error.js';
import type { Store } from '../store/create-store.js';
import { toErrorGroupView } from './error-group-view.js';

/** Body of `PATCH /v1/error-groups/{id}`. */
export interface ErrorGroupPatch {
  archiveForEver?: boolean;
  archivedUntilNextEvent?: boolean;
}

/** Filters of `GET /v1/error-groups`. */
export interface ErrorGroupListFilter {
  checkIds?: string[];
  ids?: string[];
  archived?: boolean;
  perCheck?: number;
}

/** Error groups of checks: listing and archiving (groups themselves are made by recorded runs). */
export function createErrorGroupService({ store }: { store: Store }) {
  return {
    /**
     * A page of the account's error groups. `ids` keeps the named groups and `checkIds` those of
     * the named checks (unknown ids just match nothing), `archived` archived or open ones, `perCheck` the most recently seen few
     * of each check: together, one call answers "the open error groups of these 100 checks".
     */
    async list(accountId: string, page: number, limit: number, filter: ErrorGroupListFilter = {}) {
      if (filter.perCheck !== undefined && !filter.checkIds) {
        throw new LookoutError('VALIDATION', '"perCheck" needs "checkIds"', { issues: [{ key: 'perCheck', message: 'needs checkIds' }], source: 'query' });
      }
      const { rows, total } = await store.errorGroups.list(accountId, page, limit, filter);
      return { items: rows.map(toErrorGroupView), total };
    },

    async listForCheck(accountId: string, checkId: string, page: number, limit: number, filter: { archived?: boolean } = {}) {
      if (!(await store.checks.get(accountId, checkId))) throw notFound('Check', checkId);
      const { rows, total } = await store.errorGroups.list(accountId, page, limit, { checkId, archived: filter.archived });
      return { items: rows.map(toErrorGroupView), total };
    },

    async get(accountId: string, id: string) {
      const row = await store.errorGroups.get(accountId, id);
      if (!row) throw notFound('Error group', id);
      return toErrorGroupView(row);
    },

    /**
     * Archives or un-archives a group. `archivedUntilNextEvent: true` hides it until its error
     * happens again; `archiveForEver: true` hides it for good (new occurrences are still linked to
     * results). `archiveForEver: false` lifts the permanent archive; `archivedUntilNextEvent: false`
     * un-archives entirely unless the same body sets `archiveForEver: true`.
     */
    async patch(accountId: string, id: string, body: ErrorGroupPatch) {
      if (body.archiveForEver === undefined && body.archivedUntilNextEvent === undefined) {
        throw new LookoutError('VALIDATION', 'body must set "archiveForEver" or "archivedUntilNextEvent"', {
          issues: [{ key: 'archiveForEver', message: 'or archivedUntilNextEvent is required' }],
          source: 'payload',
        });
      }
      return store.transaction(async (repos) => {
        const row = await repos.errorGroups.get(accountId, id);
        if (!row) throw notFound('Error group', id);
        let forever = body.archiveForEver ?? row.archived_forever;
        if (body.archivedUntilNextEvent === false && body.archiveForEver !== true) forever = false;
        const untilNextEvent = body.archivedUntilNextEvent ?? row.archived_until_next_event;
        return toErrorGroupView((await repos.errorGroups.setArchived(accountId, id, { untilNextEvent, forever }))!);
      });
    },
  };
}
export type ErrorGroupService = ReturnType<typeof createErrorGroupService>;
