import type { Issue } from './lookout-error.js';

/** A bulk subscription as the API takes it. */
export interface BulkSubscriptionInput {
  checkIds?: string[];
  groupIds?: number[];
  all?: boolean;
  activated?: boolean;
}

/** What a bulk subscription must say: something to subscribe, and either `all` or `checkIds`, not both. */
export function bulkSubscriptionIssues(input: BulkSubscriptionInput): Issue[] {
  if (input.all === true && input.checkIds !== undefined) return [{ key: 'checkIds', message: 'give either checkIds or all: true, not both' }];
  if (input.all !== true && !input.checkIds?.length && !input.groupIds?.length) {
    return [{ key: 'checkIds', message: 'name checks (checkIds), groups (groupIds) or all: true', code: 'REQUIRED' }];
  }
  return [];
}
