import type { OidcRoleMap } from '../domain/oidc-role-map.js';
import { roleRank, type Role } from '../domain/roles.js';
import type { Repositories } from '../store/repositories.js';

/** What one sign-in changed: the accounts whose membership of the person was added, changed or removed. */
export interface MembershipSync {
  changed: string[];
  /** Governed accounts where the person stays an owner although the claims say less: they are its last owner. */
  keptLastOwner: string[];
}

/**
 * Makes the person's memberships in the accounts the role map governs what their claims say now:
 * `roles` (from mappedRoles) are set, governed accounts the claims no longer name are left, and
 * accounts the map does not govern (people invited by hand) are not touched. An account's last
 * owner is never demoted or removed this way (as by hand): the account would have nobody left to
 * manage it. Runs inside the sign-in's transaction.
 */
export async function syncOidcMemberships(repos: Repositories, userId: string, map: OidcRoleMap, roles: ReadonlyMap<string, Role>): Promise<MembershipSync> {
  const sync: MembershipSync = { changed: [], keptLastOwner: [] };
  for (const accountId of map.accounts) {
    const want = roles.get(accountId);
    const have = (await repos.people.membership(accountId, userId))?.role;
    if (want === have) continue;
    const losesOwner = have === 'OWNER' && (want === undefined || roleRank(want) > roleRank('OWNER'));
    if (losesOwner && (await repos.people.countOwners(accountId)) <= 1) {
      sync.keptLastOwner.push(accountId);
      continue;
    }
    if (want === undefined) await repos.people.removeMembership(accountId, userId);
    else await repos.people.upsertMembership(accountId, userId, want);
    sync.changed.push(accountId);
  }
  return sync;
}
