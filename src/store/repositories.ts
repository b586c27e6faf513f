import { createAccountsRepository } from './accounts-repository.js';
import { createBadgeSubjectsRepository } from './badge-subjects-repository.js';
import { createPrivateLocationsRepository } from './private-locations-repository.js';
import { createAlertChannelsRepository } from './alert-channels-repository.js';
import { createSnippetsRepository } from './snippets-repository.js';
import { createVariablesRepository } from './variables-repository.js';
import { createCheckGroupsRepository } from './check-groups-repository.js';
import { createChecksRepository } from './checks-repository.js';
import type { Queryable } from './db.js';
import { createReferencesRepository } from './references-repository.js';
import { createSubscriptionsRepository } from './subscriptions-repository.js';

/** Every repository, bound to one connection or transaction. */
export function repositories(q: Queryable) {
  return {
    accounts: createAccountsRepository(q),
    privateLocations: createPrivateLocationsRepository(q),
    badgeSubjects: createBadgeSubjectsRepository(q),
    checks: createChecksRepository(q),
    groups: createCheckGroupsRepository(q),
    subscriptions: createSubscriptionsRepository(q),
    references: createReferencesRepository(q),
    alertChannels: createAlertChannelsRepository(q),
    variables: createVariablesRepository(q),
    snippets: createSnippetsRepository(q),
  };
}
export type Repositories = ReturnType<typeof repositories>;
