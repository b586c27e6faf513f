import { assertValid } from '../domain/lookout-error.js';
import { unixWindow, unixWindowIssues } from '../domain/unix-window.js';
import type { NotificationStatus } from '../store/alert-notifications-repository.js';
import type { Store } from '../store/create-store.js';
import { toAlertNotificationView } from './alert-notification-view.js';

/** Filters of `GET /v1/alert-notifications` as the route takes them (`from`/`to` in UNIX seconds). */
export interface AlertNotificationQuery {
  from?: number;
  to?: number;
  alertChannelId?: number;
  checkId?: string;
  status?: NotificationStatus;
  /** true: FAILED attempts only; false: the others (Checkly's filter). */
  hasFailures?: boolean;
}

/** Every delivery attempt of the account's alerts, newest first. */
export function createAlertNotificationService({ store }: { store: Store }) {
  return {
    async list(accountId: string, q: AlertNotificationQuery, page: number, limit: number) {
      assertValid(unixWindowIssues(q.from, q.to), 'query');
      const { rows, total } = await store.alertNotifications.list(accountId, {
        ...unixWindow(q.from, q.to), alertChannelId: q.alertChannelId, checkId: q.checkId, status: q.status, hasFailures: q.hasFailures,
      }, page, limit);
      return { items: rows.map(toAlertNotificationView), total };
    },
  };
}
export type AlertNotificationService = ReturnType<typeof createAlertNotificationService>;
