import { assertValid, notFound } from '../domain/lookout-error.js';
import { unixWindow, unixWindowIssues } from '../domain/unix-window.js';
import type { Store } from '../store/create-store.js';
import { toCheckAlertView } from './check-alert-view.js';

/** Filters of the check alert lists as the routes take them (`from`/`to` in UNIX seconds). */
export interface CheckAlertQuery {
  from?: number;
  to?: number;
  checkId?: string;
}

/** The alerts checks raised, newest first. */
export function createCheckAlertService({ store }: { store: Store }) {
  const list = async (accountId: string, q: CheckAlertQuery, page: number, limit: number) => {
    assertValid(unixWindowIssues(q.from, q.to), 'query');
    const { rows, total } = await store.checkAlerts.list(accountId, { ...unixWindow(q.from, q.to), checkId: q.checkId }, page, limit);
    return { items: rows.map(toCheckAlertView), total };
  };
  return {
    list,

    /** The alerts of one check; NOT_FOUND when the account has no such check. */
    async listForCheck(accountId: string, checkId: string, q: Omit<CheckAlertQuery, 'checkId'>, page: number, limit: number) {
      assertValid(unixWindowIssues(q.from, q.to), 'query');
      if (!(await store.checks.get(accountId, checkId))) throw notFound('Check', checkId);
      return list(accountId, { ...q, checkId }, page, limit);
    },
  };
}
export type CheckAlertService = ReturnType<typeof createCheckAlertService>;
