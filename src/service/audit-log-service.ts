import { assertValid, type Issue } from '../domain/lookout-error.js';
import type { AuditLogQueryType } from '../contract/audit-log-schemas.js';
import { toAuditLogEntryView } from '../contract/audit-log-views.js';
import type { Store } from '../store/create-store.js';

/** Reading the audit log (`GET /v1/accounts/me/audit-log`); the database writes it (migration 035). */
export function createAuditLogService({ store }: { store: Store }) {
  return {
    /** A page of the account's entries, newest first, narrowed by the query's filters. */
    async list(accountId: string, query: AuditLogQueryType) {
      const limit = query.limit ?? 20;
      const from = query.from === undefined ? undefined : new Date(query.from);
      const to = query.to === undefined ? undefined : new Date(query.to);
      const issues: Issue[] = [];
      if (from && to && from.getTime() >= to.getTime()) {
        issues.push({ key: 'from', message: 'must be before "to"', code: 'INVALID' }, { key: 'to', message: 'must be after "from"', code: 'INVALID' });
      }
      assertValid(issues, 'query');
      // One row more than asked says whether there is a next page.
      const rows = await store.auditLog.list(accountId, {
        resourceType: query.resourceType, resourceId: query.resourceId, actorId: query.actorId, action: query.action, from, to,
      }, limit + 1, query.nextId);
      const page = rows.slice(0, limit);
      return { length: page.length, entries: page.map(toAuditLogEntryView), nextId: rows.length > limit ? page[page.length - 1]!.id : null };
    },
  };
}
export type AuditLogService = ReturnType<typeof createAuditLogService>;
