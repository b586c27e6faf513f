import { isRole, roleRank, type Role } from './roles.js';

/** One entry of LOOKOUT_OIDC_ROLE_MAP: people whose roles claim holds `value` get `role` in `accountId`. */
export interface OidcRoleGrant {
  value: string;
  accountId: string;
  role: Role;
}

/**
 * What single sign-on grants: the entries in the order written, and the accounts they govern. A
 * governed account's memberships follow the claims on each sign-in; other accounts are left alone.
 */
export interface OidcRoleMap {
  grants: OidcRoleGrant[];
  accounts: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses `value=<account id>:<ROLE>` entries separated by commas or white space (newlines read well
 * in a compose file). The value is everything before the last `=`, so group paths such as
 * `/lookout/admins` need no quoting; the same value and account twice is refused, whatever the
 * roles, because which one wins would be a guess. Throws an Error naming `name` and the entry.
 */
export function parseOidcRoleMap(text: string, name = 'LOOKOUT_OIDC_ROLE_MAP'): OidcRoleMap {
  const grants: OidcRoleGrant[] = [];
  const expected = 'entries of the form <claim value>=<account id>:<role>, e.g. lookout-admins=25db92e8-f382-41ff-8c92-0a7bb182fbd5:ADMIN';
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const at = entry.lastIndexOf('=');
    const value = entry.slice(0, at);
    const [accountId = '', roleName = '', extra] = entry.slice(at + 1).split(':');
    if (at <= 0 || extra !== undefined) throw new Error(`${name} takes ${expected}; got "${entry}"`);
    if (!UUID.test(accountId)) throw new Error(`${name}: "${entry}" names the account "${accountId}", which is not an account id (a UUID)`);
    const role = roleName.toUpperCase();
    if (!isRole(role)) throw new Error(`${name}: "${entry}" names the role "${roleName}"; roles are OWNER, ADMIN, READ_WRITE, READ_RUN, READ_ONLY`);
    const account = accountId.toLowerCase();
    if (grants.some((g) => g.value === value && g.accountId === account)) {
      throw new Error(`${name} maps "${value}" to account ${account} twice: keep one entry`);
    }
    grants.push({ value, accountId: account, role });
  }
  if (grants.length === 0) throw new Error(`${name} maps nothing: it takes ${expected}`);
  return { grants, accounts: [...new Set(grants.map((g) => g.accountId))] };
}

/**
 * The role in each account the claim values give, in the map's order of accounts: the strongest
 * when several values name the same account. Accounts no value names are absent.
 */
export function mappedRoles(map: OidcRoleMap, values: readonly string[]): Map<string, Role> {
  const held = new Set(values);
  const roles = new Map<string, Role>();
  for (const grant of map.grants) {
    if (!held.has(grant.value)) continue;
    const current = roles.get(grant.accountId);
    if (!current || roleRank(grant.role) < roleRank(current)) roles.set(grant.accountId, grant.role);
  }
  return roles;
}

/**
 * The values of the roles claim: an array of strings, or one string (taken whole). `claim` is
 * looked up as written first (namespaced claims such as `https://example.com/roles` have dots),
 * then as a dotted path (Keycloak's `realm_access.roles`). Anything else counts as no values.
 */
export function claimValues(claims: Record<string, unknown>, claim: string): string[] {
  let found: unknown = claims[claim];
  if (found === undefined && claim.includes('.')) {
    found = claim.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), claims);
  }
  if (typeof found === 'string') return [found];
  if (Array.isArray(found)) return found.filter((v): v is string => typeof v === 'string');
  return [];
}
