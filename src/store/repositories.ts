import { createAccountsRepository } from './accounts-repository.js';
import { createCheckGroupsRepository } from './check-groups-repository.js';
import { createChecksRepository } from './checks-repository.js';
import type { Queryable } from './db.js';
import { createReferencesRepository } from './references-repository.js';
import { createSubscriptionsRepository } from './subscriptions-repository.js';

/** Every repository, bound to one connection or transaction. */
export function repositories(q: Queryable) {
  return {
    accounts: createAccountsRepository(q),
    checks: createChecksRepository(q),
    groups: createCheckGroupsRepository(q),
    subscriptions: createSubscriptionsRepository(q),
    references: createReferencesRepository(q),
  };
}
export type Repositories = ReturnType<typeof repositories>;
