import { bulkSubscriptionIssues, type BulkSubscriptionInput } from '../domain/bulk-subscription-issues.js';
import { assertValid, notFound, type Issue } from '../domain/lookout-error.js';
import type { ChannelSubscription } from '../store/alert-channels-repository.js';
import type { Store } from '../store/create-store.js';

/**
 * Subscribes many checks (or all of the account's) and groups to channel `channelId` at once, or
 * (de)activates their subscriptions. Ids the account does not have are refused, each named by its
 * key (`checkIds.2`), and then nothing is written; all are written in one transaction otherwise.
 * Ids given twice count once.
 */
export async function bulkSubscribe(store: Store, accountId: string, channelId: number, input: BulkSubscriptionInput): Promise<{ subscriptions: ChannelSubscription[] }> {
  assertValid(bulkSubscriptionIssues(input));
  const activated = input.activated ?? true;
  return store.transaction(async (repos) => {
    if (!(await repos.alertChannels.get(accountId, channelId))) throw notFound('Alert channel', channelId);
    const checkIds = input.all === true ? await repos.references.allCheckIds(accountId) : [...new Set((input.checkIds ?? []).map((id) => id.toLowerCase()))];
    const groupIds = [...new Set(input.groupIds ?? [])];
    const issues: Issue[] = [];
    if (input.checkIds?.length) {
      const found = await repos.references.checks(accountId, input.checkIds);
      input.checkIds.forEach((id, i) => {
        if (!found.has(id.toLowerCase())) issues.push({ key: `checkIds.${i}`, message: `check ${id} does not exist` });
      });
    }
    if (groupIds.length) {
      const found = await repos.references.groups(accountId, groupIds);
      input.groupIds!.forEach((id, i) => {
        if (!found.has(String(id))) issues.push({ key: `groupIds.${i}`, message: `check group ${id} does not exist` });
      });
    }
    assertValid(issues);
    const checks = await repos.alertChannels.upsertSubscriptions(accountId, channelId, { checkIds }, activated);
    const groups = await repos.alertChannels.upsertSubscriptions(accountId, channelId, { groupIds }, activated);
    return { subscriptions: [...checks, ...groups] };
  });
}
