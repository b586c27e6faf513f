import DataLoader from 'dataloader';
import { getOrNull } from './get-or-null.js';
import { isUuid } from './global-id.js';
import type { RestSession } from './rest-client.js';
import type { RestCheck } from './rest-types.js';
import { walkCursorList, walkOffsetList } from './status-page-list-walks.js';
import type { RestStatusPage, RestStatusPageSubscription, StatusPageSubscriberParent } from './status-page-types.js';

/** Per-operation loaders of status pages, their subscribers, and the account's checks (for the services they name). */
export interface StatusPageLoaders {
  /** Pages by REST UUID (lower-case); null when unknown or of another account. */
  pageById: DataLoader<string, RestStatusPage | null>;
  /** Every page of the account, newest first: the whole cursor list, read once per operation. */
  allPages(): Promise<RestStatusPage[]>;
  /** The subscribers of a page by the page's REST UUID, oldest first; null when the page is unknown or of another account. */
  subscribersOf: DataLoader<string, StatusPageSubscriberParent[] | null>;
  /** Every check of the account: the whole offset list, read once per operation. */
  allChecks(): Promise<RestCheck[]>;
  /** Forgets everything read so far: a write may have changed any of it. */
  clearAll(): void;
}

const lower = (key: string) => key.toLowerCase();

/**
 * Loaders over routes without an `ids=` filter. One page by id is one GET; several are found in one
 * walk of the page list (one call per 100 pages), which also serves every service asking which pages
 * show it. Subscribers are listed per page (one unpaginated call each). Checks are walked once for
 * every service asking which checks' incident automation names it.
 */
export function createStatusPageLoaders(rest: RestSession): StatusPageLoaders {
  let pages: Promise<RestStatusPage[]> | undefined;
  let checks: Promise<RestCheck[]> | undefined;

  const allPages = () => {
    pages ??= walkCursorList<RestStatusPage>(rest, '/v1/status-pages').then((all) => {
      for (const page of all) pageById.prime(lower(page.id), page);
      return all;
    });
    return pages;
  };

  const pageById = new DataLoader<string, RestStatusPage | null>(async (keys) => {
    const wanted = keys.filter(isUuid);
    if (wanted.length === 0) return keys.map(() => null);
    if (wanted.length === 1 && !pages) {
      const one = await getOrNull<RestStatusPage>(rest, `/v1/status-pages/${wanted[0]}`);
      return keys.map((k) => (one && lower(one.id) === lower(k) ? one : null));
    }
    const byId = new Map((await allPages()).map((p) => [lower(p.id), p]));
    return keys.map((k) => byId.get(lower(k)) ?? null);
  }, { cacheKeyFn: lower, maxBatchSize: 100 });

  const subscribersOf = new DataLoader<string, StatusPageSubscriberParent[] | null>((keys) => Promise.all(keys.map(async (pageId) => {
    if (!isUuid(pageId)) return null;
    const list = await getOrNull<RestStatusPageSubscription[]>(rest, `/v1/status-pages/${pageId}/subscriptions`);
    return list && list.map((s) => ({ ...s, statusPageId: lower(pageId) }));
  })), { cacheKeyFn: lower });

  return {
    pageById,
    allPages,
    subscribersOf,
    allChecks() {
      checks ??= walkOffsetList<RestCheck>(rest, '/v1/checks', 100);
      return checks;
    },
    clearAll() {
      pages = undefined;
      checks = undefined;
      pageById.clearAll();
      subscribersOf.clearAll();
    },
  };
}
